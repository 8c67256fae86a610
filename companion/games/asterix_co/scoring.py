"""Strength, sesterces and the resolution of an album: what a side counts, what a fortune is
worth, and what happens the moment a side reaches 15."""

from __future__ import annotations

from ..text import Sentence, plural_sentence
from .board import FACTIONS, bonus_choices, left_of, opposite, return_to_stock

ALBUM_TARGET = 15  # visible strength a faction needs to take an album
WINNING_SESTERCES = 50
ALBUM_SESTERCES = 15
CENTURION_HELMET_SESTERCES = 3
LEGIONARY_HELMET_SESTERCES = 1


def sesterces(albums: int, centurion_helmets: int, legionary_helmets: int) -> int:
    """A player's fortune: 15 per album, 3 per centurion helmet, 1 per legionary helmet."""
    return (
        albums * ALBUM_SESTERCES
        + centurion_helmets * CENTURION_HELMET_SESTERCES
        + legionary_helmets * LEGIONARY_HELMET_SESTERCES
    )


def sesterces_of(state: dict, player: str) -> int:
    held = state["ledger"][player]
    return sesterces(len(held["albums"]), held["centurion_helmets"], held["legionary_helmets"])


def character_strength(character: dict) -> int:
    """What a character adds to its faction: nothing when K.O.'d, double with a Potion."""
    if character["knocked_out"]:
        return 0
    return character["strength"] * (2 if character["potion"] else 1)


def faction_total(slot: dict, faction: str) -> int:
    """The visible strength of one faction on an album."""
    return sum(character_strength(c) for c in slot["characters"] if c["faction"] == faction)


def resolve_any(state: dict) -> Sentence | None:
    """Resolve the album whose faction has just reached 15 visible strength, if any; the
    sentence the log adds to the move's own (None when no album fell)."""
    for index, slot in enumerate(state["slots"]):
        if slot["album"] is None:
            continue
        totals = {faction: faction_total(slot, faction) for faction in FACTIONS}
        for faction in FACTIONS:
            if totals[faction] >= ALBUM_TARGET:
                resolve(state, index, faction, totals)
                return resolution_sentence(state)
    return None


def resolve(state: dict, index: int, faction: str, totals: dict) -> None:
    """The winner takes the album and the helmets of its visible Legionaries and Centurions;
    the K.O.'d go back to their owners' hands, the rest is discarded; the loser chooses next."""
    slot = state["slots"][index]
    winner = slot[faction]
    loser = slot[opposite(faction)]
    ledger = state["ledger"][winner]
    ledger["albums"].append(slot["album"])
    visible = [c for c in slot["characters"] if not c["knocked_out"]]
    earned = {}
    short = {}
    for helmet, character_type in (("legionary", "Legionary"), ("centurion", "Centurion")):
        due = sum(1 for c in visible if c["character_type"] == character_type)
        available = state["stock"][helmet]
        paid = due if available is None else min(due, available)
        if available is not None:
            state["stock"][helmet] = available - paid
        ledger[f"{helmet}_helmets"] += paid
        earned[helmet] = paid
        short[helmet] = due - paid
    for character in visible:
        if character["potion"]:
            return_to_stock(state, "potion")
    # What the card shows, so that each phone names it in its own language.
    back_to_hand = [
        {"character": {key: c[key] for key in ("id", "name", "strength", "colour",
                                                "character_type")},
         "owner": c["owner"]}
        for c in slot["characters"] if c["knocked_out"]
    ]
    fortune = sesterces_of(state, winner)
    state["resolutions"] += 1
    state["last_resolution"] = {
        "album": slot["album"],
        "winner": winner,
        "loser": loser,
        "faction": faction,
        "totals": totals,
        "legionary_helmets": earned["legionary"],
        "centurion_helmets": earned["centurion"],
        "helmets_short": short["legionary"] + short["centurion"],
        "back_to_hand": back_to_hand,
        "sesterces": fortune,
        "consolation": None,
    }
    slot["album"] = None
    slot["characters"] = []
    slot["note"] = ""
    state["power"] = None  # the album fell: no power of the turn waits any more
    if fortune >= WINNING_SESTERCES:
        state["finished"] = True
        state["winner"] = winner
        return
    state["turn"] = left_of(state, winner)
    # The consolation is skipped when the loser could take nothing.
    step = "consolation" if bonus_choices(state, loser) else "orientation"
    state["pending"] = {"step": step, "player": loser, "slot": index}


def helmets_sentence(centurion: int, legionary: int) -> Sentence | None:
    """"1 centurion helmet and 2 legionary helmets", or one of them, or None."""
    helmets = []
    if centurion:
        helmets.append(plural_sentence("%(count)s centurion helmet", "%(count)s centurion helmets",
                                       centurion))
    if legionary:
        helmets.append(plural_sentence("%(count)s legionary helmet", "%(count)s legionary helmets",
                                       legionary))
    if len(helmets) == 2:
        return Sentence("%(first)s and %(second)s", first=helmets[0], second=helmets[1])
    return helmets[0] if helmets else None


def resolution_sentence(state: dict) -> Sentence:
    last = state["last_resolution"]
    totals = last["totals"]
    fields = dict(winner=last["winner"], album=last["album"], won=totals[last["faction"]],
                  lost=totals[opposite(last["faction"])], sesterces=last["sesterces"])
    helmets = helmets_sentence(last["centurion_helmets"], last["legionary_helmets"])
    if helmets:
        sentence = Sentence(
            "%(winner)s took album %(album)s (%(won)s to %(lost)s) and %(helmets)s, reaching "
            "%(sesterces)s sesterces.", helmets=helmets, **fields)
    else:
        sentence = Sentence(
            "%(winner)s took album %(album)s (%(won)s to %(lost)s), reaching %(sesterces)s "
            "sesterces.", **fields)
    if state["finished"]:
        return Sentence("%(resolution)s %(winner)s wins the game!", resolution=sentence,
                        winner=last["winner"])
    return sentence
