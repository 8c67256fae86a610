"""What the table page shows, derived from the state: the albums side by side with their
totals, each player's two albums, the ledger, the resolution and the one-tap moves that fit
each character. Asterix & Co. has no quick score: the game is followed as it is played."""

from __future__ import annotations

from .board import (
    BONUS_KINDS,
    BONUS_LABELS,
    CHARACTER_TYPES,
    COLOUR_LABELS,
    COLOURS,
    FACTIONS,
    MAX_SAME_BONUS,
    SIDE_LABELS,
    TOKEN_LABELS,
    TYPE_LABELS,
    bonus_choices,
    label,
    last_visible,
    waiting_character,
)
from .scoring import (
    ALBUM_SESTERCES,
    ALBUM_TARGET,
    CENTURION_HELMET_SESTERCES,
    LEGIONARY_HELMET_SESTERCES,
    WINNING_SESTERCES,
    character_strength,
    faction_total,
    sesterces_of,
)


def table_view(state: dict) -> dict:
    players = state["players"]
    characters = [
        dict(c, album=slot["album"], counted=character_strength(c))
        for slot in state["slots"]
        for c in slot["characters"]
    ]
    seats = seats_view(state)
    pending = state["pending"]
    consolation = bool(pending and pending["step"] == "consolation")
    return {
        "albums": [album_view(state, index, slot) for index, slot in enumerate(state["slots"])],
        "seats": seats,
        "ledger": {name: ledger_view(state, name) for name in players},
        "stock": dict(state["stock"]),
        "turn": state["turn"],
        "pending": pending_view(state),
        "power": power_view(state),
        "consolation_choices": bonus_choices(state, pending["player"]) if consolation else [],
        "consolation": consolation_view(state, pending["player"]) if consolation else [],
        "facing": {seat["player"]: seat["albums"] for seat in seats},
        # Nothing played and no album decided yet: the moment to show how the albums lie.
        "fresh": state["resolutions"] == 0 and not characters,
        "stock_set": any(left is not None for left in state["stock"].values()),
        "next_album": state["next_album"],
        "last_resolution": state["last_resolution"],
        "characters": characters,
        "visible": [c for c in characters if not c["knocked_out"]],
        "knocked_out": [c for c in characters if c["knocked_out"]],
        "album_target": ALBUM_TARGET,
        "winning_sesterces": WINNING_SESTERCES,
        "character_types": list(CHARACTER_TYPES),
        "colours": list(COLOURS),
        "bonus_labels": dict(BONUS_LABELS),
        "token_labels": dict(TOKEN_LABELS),
        # Printed names for the page, each phone in its language (the values sent stay English).
        "type_labels": dict(TYPE_LABELS),
        "colour_labels": dict(COLOUR_LABELS),
        "side_labels": dict(SIDE_LABELS),
        "back_to_hand": back_to_hand_view(state["last_resolution"]),
    }


def back_to_hand_view(last: dict | None) -> list[dict]:
    """The K.O.'d characters of the last album that went back to their owners' hands."""
    if not last:
        return []
    # A log replayed before the card was kept holds the English label already.
    return [
        {"name": label(back["character"]) if "character" in back else back["name"],
         "owner": back["owner"]}
        for back in last["back_to_hand"]
    ]


def album_view(state: dict, index: int, slot: dict) -> dict:
    sides = {}
    for faction in FACTIONS:
        total = faction_total(slot, faction)
        sides[faction] = {
            "player": slot[faction],
            "total": total,
            "characters": [
                character_view(state, slot, c)
                for c in slot["characters"]
                if c["faction"] == faction
            ],
            "to_win": max(ALBUM_TARGET - total, 0),
        }
    return {
        "slot": index,
        "number": slot["album"],
        "pair": slot["pair"],
        "note": slot["note"],
        "sides": sides,
    }


def seats_view(state: dict) -> list[dict]:
    """Each player's two albums: the one to their left and the one to their right."""
    players = state["players"]
    count = len(players)
    seats = []
    for position, name in enumerate(players):
        facing = []
        for where, index in (("left", position), ("right", (position - 1) % count)):
            slot = state["slots"][index]
            faction = None
            if slot["album"] is not None:
                faction = "gaul" if slot["gaul"] == name else "roman"
            facing.append(
                {
                    "where": where,
                    "slot": index,
                    "album": slot["album"],
                    "faction": faction,
                    "opponent": next(p for p in slot["pair"] if p != name),
                }
            )
        seats.append({"player": name, "albums": facing})
    return seats


def ledger_view(state: dict, name: str) -> dict:
    held = state["ledger"][name]
    album_count = len(held["albums"])
    fortune = sesterces_of(state, name)
    return {
        "albums": list(held["albums"]),
        "album_sesterces": album_count * ALBUM_SESTERCES,
        "centurion_helmets": held["centurion_helmets"],
        "centurion_sesterces": held["centurion_helmets"] * CENTURION_HELMET_SESTERCES,
        "legionary_helmets": held["legionary_helmets"],
        "legionary_sesterces": held["legionary_helmets"] * LEGIONARY_HELMET_SESTERCES,
        "sesterces": fortune,
        "to_go": max(WINNING_SESTERCES - fortune, 0),
        "bonuses": dict(held["bonuses"]),
    }


def power_view(state: dict) -> dict | None:
    """The power waiting to be entered, with how the page names its character."""
    power = state.get("power")
    if not power:
        return None
    return dict(power, label=label(waiting_character(state, power)))


def pending_view(state: dict) -> dict | None:
    pending = state["pending"]
    if not pending:
        return None
    slot = state["slots"][pending["slot"]]
    return dict(
        pending,
        opponent=next(p for p in slot["pair"] if p != pending["player"]),
        album=state["next_album"],
    )


def character_view(state: dict, slot: dict, character: dict) -> dict:
    """A character as the page shows it: what it counts and which one-tap moves fit it."""
    visible = not character["knocked_out"]
    unprotected = visible and not character["potion"]
    # Who could call it on, and to which album: a player's albums, unless it already
    # fights on that player's side.
    call_on_to = {}
    if unprotected:
        for name in state["players"]:
            if slot[character["faction"]] == name:
                continue
            targets = [
                other["album"]
                for other in state["slots"]
                if other["album"] is not None and name in other["pair"]
            ]
            if targets:
                call_on_to[name] = targets
    return dict(
        character,
        counted=character_strength(character),
        moves={
            "potion": unprotected,
            "knock_out": unprotected,
            "reinvigorate": not visible,
            "eliminate": visible,
            "call_on": unprotected,
        },
        call_on_to=call_on_to,
        # A Boar may use its power again, for a player this album faces.
        last_visible=visible and last_visible(slot) is character,
    )


def consolation_view(state: dict, player: str) -> list[dict]:
    """Every bonus kind with what the loser holds and whether they may take one."""
    held = state["ledger"][player]["bonuses"]
    choices = bonus_choices(state, player)
    return [
        {
            "kind": kind,
            "label": BONUS_LABELS[kind],
            "held": held[kind],
            "allowed": kind in choices,
            "full": held[kind] >= MAX_SAME_BONUS,
            "stock": state["stock"][kind],
        }
        for kind in BONUS_KINDS
    ]
