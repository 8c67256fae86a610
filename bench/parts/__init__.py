"""The parts of `make bench`, one module each, registered here in the order they run: the
report numbers them in this order. ``measure(args)`` answers a part's report lines, the first
its heading (``args.asked``: every name --parts asked for, aliases taken apart)."""

from __future__ import annotations

from argparse import Namespace
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bench.parts import (bytes_per_update, group_pages, hammer, large_import, long_games, poll,
                         push, scale, slow_clients, stats, two_servers, venue)


@dataclass(frozen=True)
class Part:
    title: str  # as a failed part's line names it
    names: tuple[str, ...]  # what --parts calls it: several when they share their servers
    measure: Callable[[Namespace], Awaitable[list[str]]]
    logs: tuple[str, ...]  # its servers' logs (bench/results/<name>.log), scanned at the end


PARTS = [
    Part("1.-3. Café, busy and idle", ("cafe", "busy", "idle"), push.push_and_idle,
         ("push", "push-baseline")),
    Part("4. Two servers behind nginx", ("two",), two_servers.two_servers, ("two-a", "two-b")),
    Part("5. Scale", ("scale",), scale.scale, ("scale",)),
    Part("6. Bytes per update", ("bytes",), bytes_per_update.bytes_per_update, ("bytes",)),
    Part("7. Poll", ("poll",), poll.poll, ("poll",)),
    Part("8. Group pages", ("group",), group_pages.group_pages, ("group",)),
    Part("9. Idle and slow connections", ("slow",), slow_clients.slow_clients, ("slow",)),
    Part("10. One client hammering", ("hammer",), hammer.hammering, ("hammer",)),
    Part("11. Long games", ("long",), long_games.long_games, ("long",)),
    Part("12. A large import", ("import",), large_import.importing, ("import",)),
    Part("13. A café behind one address", ("venue",), venue.venue, ("venue",)),
    Part("14. Statistics and exports", ("stats",), stats.statistics_load, ("stats",)),
]
NAMES = tuple(name for part in PARTS for name in part.names)
ALIASES = {"push": ("cafe", "busy")}
