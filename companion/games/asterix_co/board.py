"""What lies on the table: albums, characters, the ledger and the stockpile, and the small
operations every move shares (finding a character, K.O.ing it, taking a token).

The state is plain data. ``state["slots"]`` holds one slot per place between neighbours; a
slot's ``album`` is None while its loser is choosing the next one. Characters lie on a slot in
the order they were placed there, so the last one in the list is the last one placed.
"""

from __future__ import annotations

from typing import Literal

from ..base import GameError

MAX_SAME_BONUS = 2  # nobody may hold a third token of one kind
MAX_STOCK = 200

CHARACTER_TYPES = ("Centurion", "Chief", "Swindler", "Hero", "Diehard", "Legionary", "Rebel")
COLOURS = ("Gaul", "Roman", "Neutral")
FACTIONS = ("gaul", "roman")
BONUS_KINDS = ("potion", "fish", "boar")
HELMET_KINDS = ("legionary", "centurion")
BONUS_LABELS = {"potion": "Potion", "fish": "Fish", "boar": "Boar"}
FACTION_LABELS = {"gaul": "Gaul", "roman": "Roman"}

CharacterType = Literal["Centurion", "Chief", "Swindler", "Hero", "Diehard", "Legionary", "Rebel"]
Colour = Literal["Gaul", "Roman", "Neutral"]
Faction = Literal["gaul", "roman"]
BonusKind = Literal["potion", "fish", "boar"]
HelmetKind = Literal["legionary", "centurion"]


def opposite(faction: str) -> str:
    return "roman" if faction == "gaul" else "gaul"


# -- players and albums ------------------------------------------------------------------------


def require_player(state: dict, name: str) -> None:
    if name not in state["players"]:
        raise GameError(f"There is no player called '{name}' at this table.")


def left_of(state: dict, name: str) -> str:
    """The player on ``name``'s left, who plays next (seating order is clockwise)."""
    players = state["players"]
    return players[(players.index(name) + 1) % len(players)]


def slot_of(state: dict, number: int) -> dict:
    for slot in state["slots"]:
        if slot["album"] == number:
            return slot
    raise GameError(f"There is no album {number} on the table.")


def faction_of(slot: dict, player: str) -> str:
    """The side of the album in ``slot`` that faces ``player``."""
    if player not in slot["pair"]:
        raise GameError(
            f"Album {slot['album']} lies between {slot['pair'][0]} and {slot['pair'][1]}; "
            f"it does not face {player}."
        )
    return "gaul" if slot["gaul"] == player else "roman"


# -- characters --------------------------------------------------------------------------------


def find_character(state: dict, character_id: str) -> tuple[dict, dict]:
    """The slot a character lies on and the character, by its id ("c7")."""
    wanted = character_id.strip().lower()
    for slot in state["slots"]:
        for character in slot["characters"]:
            if character["id"] == wanted:
                return slot, character
    raise GameError(f"There is no character '{character_id}' on an album right now.")


def all_characters(state: dict):
    for slot in state["slots"]:
        yield from slot["characters"]


def label(character: dict) -> str:
    """How a sentence names a character: its name, or what the card shows, and its id."""
    if character["name"]:
        return f"{character['name']} ({character['id']})"
    return (
        f"the strength {character['strength']} {character['colour']} "
        f"{character['character_type']} ({character['id']})"
    )


def last_visible(slot: dict) -> dict | None:
    """The last character placed on this album that is still face up."""
    visible = [c for c in slot["characters"] if not c["knocked_out"]]
    return visible[-1] if visible else None


def hero_in_the_way(state: dict, name: str, skip: dict | None = None) -> str | None:
    """Why a Hero called ``name`` may not come into play: an identical one is visible."""
    wanted = name.casefold()
    for slot in state["slots"]:
        for other in slot["characters"]:
            if (
                other is not skip
                and not other["knocked_out"]
                and other["character_type"] == "Hero"
                and (other["name"] or "").casefold() == wanted
            ):
                return (
                    f"{other['name']} is already visible on album {slot['album']}; "
                    "an identical Hero cannot join while it is."
                )
    return None


def check_hero(state: dict, name: str, skip: dict | None = None) -> None:
    reason = hero_in_the_way(state, name, skip)
    if reason:
        raise GameError(reason)


def can_come_back(state: dict, character: dict) -> bool:
    """A K.O.'d character that may be turned face up again now."""
    if not character["knocked_out"]:
        return False
    if character["character_type"] == "Hero" and character["name"]:
        return hero_in_the_way(state, character["name"], skip=character) is None
    return True


def why_none_comes_back(state: dict, knocked: list[dict]) -> str | None:
    """Why none of these K.O.'d characters may come back: the first one's identical Hero."""
    for character in knocked:
        if character["character_type"] == "Hero" and character["name"]:
            reason = hero_in_the_way(state, character["name"], skip=character)
            if reason:
                return reason
    return None


def knock_out(character: dict) -> None:
    name = label(character)
    if character["knocked_out"]:
        raise GameError(f"{name} is already K.O.'d.")
    if character["potion"]:
        raise GameError(f"{name} has a Potion and cannot be K.O.'d.")
    character["knocked_out"] = True


def reinvigorate(state: dict, character: dict) -> None:
    if not character["knocked_out"]:
        raise GameError(f"{label(character)} is not K.O.'d, so it cannot be reinvigorated.")
    if character["character_type"] == "Hero" and character["name"]:
        check_hero(state, character["name"], skip=character)
    character["knocked_out"] = False


# -- tokens, helmets and the stockpile ---------------------------------------------------------


def stock_label(kind: str) -> str:
    if kind in HELMET_KINDS:
        return f"{kind} helmet"
    return f"{BONUS_LABELS[kind]} token"


def take_from_stock(state: dict, kind: str) -> None:
    left = state["stock"][kind]
    if left is None:  # no limit set for this table
        return
    if left == 0:
        raise GameError(f"The {stock_label(kind)} stockpile is empty.")
    state["stock"][kind] = left - 1


def return_to_stock(state: dict, kind: str) -> None:
    if state["stock"][kind] is not None:
        state["stock"][kind] += 1


def spend_bonus(state: dict, player: str, kind: str) -> None:
    held = state["ledger"][player]["bonuses"]
    if held[kind] == 0:
        raise GameError(f"{player} has no {BONUS_LABELS[kind]} token to use.")
    held[kind] -= 1


def gain_bonus(state: dict, player: str, kind: str) -> None:
    held = state["ledger"][player]["bonuses"]
    if held[kind] >= MAX_SAME_BONUS:
        raise GameError(
            f"{player} already holds two {BONUS_LABELS[kind]} tokens; a third one is not allowed."
        )
    take_from_stock(state, kind)
    held[kind] += 1


def bonus_choices(state: dict, player: str) -> list[str]:
    """The bonus kinds a player may still take: fewer than two held and some in stock."""
    held = state["ledger"][player]["bonuses"]
    return [
        kind for kind in BONUS_KINDS if held[kind] < MAX_SAME_BONUS and state["stock"][kind] != 0
    ]


def pending_sentence(pending: dict) -> str:
    """What the loser of the last album does now."""
    player = pending["player"]
    if pending["step"] == "consolation":
        return f"{player} picks a consolation bonus token."
    return f"{player} reveals the next album and picks the side that faces them."
