"""What lies on the table: albums, characters, the ledger and the stockpile, and the small
operations every move shares (finding a character, K.O.ing it, taking a token).

The state is plain data. ``state["slots"]`` holds one slot per place between neighbours; a
slot's ``album`` is None while its loser is choosing the next one. Characters lie on a slot in
the order they were placed there, so the last one in the list is the last one placed.
"""

from __future__ import annotations

from typing import Literal

from ..base import GameError, no_such_player
from ..text import N_, Sentence, quote

MAX_SAME_BONUS = 2  # nobody may hold a third token of one kind
MAX_STOCK = 200

CHARACTER_TYPES = ("Centurion", "Chief", "Swindler", "Hero", "Diehard", "Legionary", "Rebel")
COLOURS = ("Gaul", "Roman", "Neutral")
FACTIONS = ("gaul", "roman")
BONUS_KINDS = ("potion", "fish", "boar")
HELMET_KINDS = ("legionary", "centurion")
# Printed names, each phone in its language. German edition's names not known; the German
# words of our rules text (rules/content/de/asterix-co.md) chosen: Zaubertrank, Fisch,
# Wildschwein; Gallier, Römer; Zenturio, Häuptling, Gauner, Held, Unbeugsamer, Legionär, Rebell.
# A token's name with its picture, as the page shows it; its own message (not the bare
# "Boar", which another game's catalogue entry names differently in German).
BONUS_LABELS = {"potion": N_("🧪 Potion"), "fish": N_("🐟 Fish"), "boar": N_("🐗 Boar")}
# A token in a sentence ("a Boar token"): one word in German (Wildschweinplättchen).
TOKEN_LABELS = {"potion": N_("Potion token"), "fish": N_("Fish token"),
                "boar": N_("Boar token")}
FACTION_LABELS = {"gaul": N_("Gaul"), "roman": N_("Roman")}
# What a card's colour says (the stored value stays the English word).
COLOUR_LABELS = {"Gaul": N_("Gaul"), "Roman": N_("Roman"), "Neutral": N_("Neutral")}
# The emblem at the bottom of a card (the stored value stays the English word).
TYPE_LABELS = {
    "Centurion": N_("Centurion"),
    "Chief": N_("Chief"),
    "Swindler": N_("Swindler"),
    "Hero": N_("Hero"),
    "Diehard": N_("Diehard"),
    "Legionary": N_("Legionary"),
    "Rebel": N_("Rebel"),
}
# An album's two halves, as the page names them.
SIDE_LABELS = {"gaul": N_("Gaul side"), "roman": N_("Roman side")}

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
        raise no_such_player(name)


def left_of(state: dict, name: str) -> str:
    """The player on ``name``'s left, who plays next (seating order is clockwise)."""
    players = state["players"]
    return players[(players.index(name) + 1) % len(players)]


def slot_of(state: dict, number: int) -> dict:
    for slot in state["slots"]:
        if slot["album"] == number:
            return slot
    raise GameError(Sentence("There is no album %(album)s on the table.", album=number))


def faction_of(slot: dict, player: str) -> str:
    """The side of the album in ``slot`` that faces ``player``."""
    if player not in slot["pair"]:
        raise GameError(
            Sentence(
                "Album %(album)s lies between %(first)s and %(second)s; it does not face "
                "%(player)s.",
                album=slot["album"], first=slot["pair"][0], second=slot["pair"][1], player=player,
            )
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
    raise GameError(
        Sentence("There is no character '%(character)s' on an album right now.",
                 character=quote(character_id))
    )


def all_characters(state: dict):
    for slot in state["slots"]:
        yield from slot["characters"]


def label(character: dict, first: bool = False) -> "str | Sentence":
    """How a sentence names a character: its name, or what the card shows (never its id, which
    is the page's own); ``first``: at the start of the sentence."""
    if character["name"]:
        return character["name"]
    fields = dict(strength=character["strength"], colour=COLOUR_LABELS[character["colour"]],
                  type=TYPE_LABELS[character["character_type"]])
    if first:
        return Sentence("The strength %(strength)s %(colour)s %(type)s", **fields)
    return Sentence("the strength %(strength)s %(colour)s %(type)s", **fields)


def waiting_character(state: dict, power: dict) -> dict:
    """The character whose power waits (as it lay when played, if a power removed it since)."""
    for character in all_characters(state):
        if character["id"] == power["character"]:
            return character
    return power["card"]


def last_visible(slot: dict) -> dict | None:
    """The last character placed on this album that is still face up."""
    visible = [c for c in slot["characters"] if not c["knocked_out"]]
    return visible[-1] if visible else None


def hero_in_the_way(state: dict, name: str, skip: dict | None = None) -> Sentence | None:
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
                return Sentence(
                    "%(name)s is already visible on album %(album)s; an identical Hero cannot "
                    "join while it is.",
                    name=other["name"], album=slot["album"],
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


def why_none_comes_back(state: dict, knocked: list[dict]) -> Sentence | None:
    """Why none of these K.O.'d characters may come back: the first one's identical Hero."""
    for character in knocked:
        if character["character_type"] == "Hero" and character["name"]:
            reason = hero_in_the_way(state, character["name"], skip=character)
            if reason:
                return reason
    return None


def knock_out(character: dict) -> None:
    name = label(character, first=True)
    if character["knocked_out"]:
        raise GameError(Sentence("%(character)s is already K.O.'d.", character=name))
    if character["potion"]:
        raise GameError(
            Sentence("%(character)s has a Potion and cannot be K.O.'d.", character=name)
        )
    character["knocked_out"] = True


def reinvigorate(state: dict, character: dict) -> None:
    if not character["knocked_out"]:
        raise GameError(
            Sentence("%(character)s is not K.O.'d, so it cannot be reinvigorated.",
                     character=label(character, first=True))
        )
    if character["character_type"] == "Hero" and character["name"]:
        check_hero(state, character["name"], skip=character)
    character["knocked_out"] = False


# -- tokens, helmets and the stockpile ---------------------------------------------------------


# Why a pile cannot give: one whole sentence per pile (German needs its own word order).
EMPTY_STOCK = {
    "legionary": Sentence("The legionary helmet stockpile is empty."),
    "centurion": Sentence("The centurion helmet stockpile is empty."),
    "potion": Sentence("The Potion token stockpile is empty."),
    "fish": Sentence("The Fish token stockpile is empty."),
    "boar": Sentence("The Boar token stockpile is empty."),
}


def take_from_stock(state: dict, kind: str) -> None:
    left = state["stock"][kind]
    if left is None:  # no limit set for this table
        return
    if left == 0:
        raise GameError(EMPTY_STOCK[kind])
    state["stock"][kind] = left - 1


def return_to_stock(state: dict, kind: str) -> None:
    if state["stock"][kind] is not None:
        state["stock"][kind] += 1


def no_token(player: str, kind: str) -> Sentence:
    return Sentence("%(player)s has no %(token)s to use.", player=player,
                    token=TOKEN_LABELS[kind])


def spend_bonus(state: dict, player: str, kind: str) -> None:
    held = state["ledger"][player]["bonuses"]
    if held[kind] == 0:
        raise GameError(no_token(player, kind))
    held[kind] -= 1


# One whole sentence per kind: the plural of a token's name differs in German.
TWO_HELD = {
    "potion": Sentence(
        "%(player)s already holds two Potion tokens; a third one is not allowed."),
    "fish": Sentence("%(player)s already holds two Fish tokens; a third one is not allowed."),
    "boar": Sentence("%(player)s already holds two Boar tokens; a third one is not allowed."),
}


def gain_bonus(state: dict, player: str, kind: str) -> None:
    held = state["ledger"][player]["bonuses"]
    if held[kind] >= MAX_SAME_BONUS:
        raise GameError(Sentence(TWO_HELD[kind].text, player=player))
    take_from_stock(state, kind)
    held[kind] += 1


def bonus_choices(state: dict, player: str) -> list[str]:
    """The bonus kinds a player may still take: fewer than two held and some in stock."""
    held = state["ledger"][player]["bonuses"]
    return [
        kind for kind in BONUS_KINDS if held[kind] < MAX_SAME_BONUS and state["stock"][kind] != 0
    ]


def pending_sentence(pending: dict) -> Sentence:
    """What the loser of the last album does now."""
    player = pending["player"]
    if pending["step"] == "consolation":
        return Sentence("%(player)s picks a consolation bonus token.", player=player)
    return Sentence("%(player)s reveals the next album and picks the side that faces them.",
                    player=player)
