"""The table service: tables, their seats and phones, their moves and log, shared by the
browser views and the JSON API.

Each change checks who may make it and the version the phone saw, applies the game's pure rules
and writes its log entry (the table's next version), all on a table row the caller has locked;
the caller (``live.changes``) commits and tells the phones. Errors are exceptions carrying a
sentence for the player (``errors``). One module per part:

- ``reading``: finding a table and its phones, reading it for pages and streams, its JSON;
- ``record``: what every change writes (log entry, state, checkpoints, Idempotency-Key);
- ``seats``: creating a table, joining, seats, the host's powers, deleting;
- ``rematch``: the rematch and following it;
- ``play``: who may act, the version a tap was made against, one game action;
- ``undo``: undo and redo.
"""

# What the views, live push and the API call; the rest stays inside its module.
from .play import act, can_act, parse_expected
from .reading import (LOG_PAGE, device_with_token, devices, find_device, find_table, game_of,
                      log_entries, moves_made, put_away_after, read_entry, read_table,
                      table_json, table_version)
from .record import KEY_MAX, clean_request_key, entry_sentence
from .rematch import follow_rematch, follows_rematch, rematch
from .seats import (Joined, clean_players, count_in_group, create_table, delete_table,
                    free_seat, group_link_changed, join_table, seat_barred, set_coach, set_locked,
                    set_read_only, take_seat)
from .undo import undo_or_redo

__all__ = [
    "KEY_MAX", "LOG_PAGE", "Joined", "act", "can_act", "clean_players", "clean_request_key",
    "count_in_group", "create_table", "delete_table", "device_with_token", "devices",
    "entry_sentence", "find_device", "find_table", "follow_rematch", "follows_rematch",
    "free_seat", "game_of", "group_link_changed", "join_table", "log_entries", "moves_made", "parse_expected",
    "put_away_after", "read_entry", "read_table", "rematch", "seat_barred", "set_coach",
    "set_locked", "set_read_only", "table_json", "table_version", "take_seat", "undo_or_redo",
]
