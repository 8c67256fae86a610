"""The moves of a turn (play a character, use a bonus token, reinforce the hand), the loser's
two choices after an album falls, and the album notes.

Each rule changes ``state`` (the game's own copy) and returns the log sentence; a turn move
passes the turn to the player's left before any album it decides falls (the fall then gives
the turn to the winner's left). Each check says why a move cannot be made now, or None.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..base import Action, GameError, Whole
from .board import (
    BONUS_LABELS,
    FACTION_LABELS,
    BonusKind,
    CharacterType,
    Colour,
    Faction,
    all_characters,
    can_come_back,
    check_hero,
    faction_of,
    find_character,
    gain_bonus,
    label,
    last_visible,
    left_of,
    opposite,
    reinvigorate,
    require_player,
    return_to_stock,
    slot_of,
    spend_bonus,
    why_none_comes_back,
)
from .board import knock_out as turn_face_down
from .scoring import resolve_any

# -- turn moves: each one ends the player's turn --------------------------------------------


class PlayCharacter(Action):
    """Put a character from the hand on the player's side of an album facing them."""

    type: Literal["play_character"] = "play_character"
    player: str = Field(description="Who plays the character.")
    album: Whole = Field(ge=1, description="The album's number, as shown beside it.")
    strength: Whole = Field(ge=2, le=8, description="The number in the card's top corner.")
    character_type: CharacterType = Field(description="The emblem at the bottom of the card.")
    colour: Colour = Field(description="Blue: Gaul, red: Roman, purple: Neutral.")
    name: str | None = Field(None, max_length=40, description="The name on the banner (optional).")


class UsePotion(Action):
    """Spend a Potion token on a character: its strength doubles and it is protected."""

    type: Literal["use_potion"] = "use_potion"
    player: str = Field(description="Whose Potion token it is.")
    character: str = Field(description="The character's id, e.g. c7.")


class UseFish(Action):
    """Spend a Fish token to K.O. a character without a Potion."""

    type: Literal["use_fish"] = "use_fish"
    player: str = Field(description="Whose Fish token it is.")
    character: str = Field(description="The character's id, e.g. c7.")


class UseBoar(Action):
    """Spend a Boar token: reinvigorate a K.O.'d character, or use again the power of the last
    visible character placed on an album facing the player."""

    type: Literal["use_boar"] = "use_boar"
    player: str = Field(description="Whose Boar token it is.")
    character: str = Field(
        description="A K.O.'d character to reinvigorate, or the last visible character placed "
        "on an album facing the player, whose power is used again."
    )


class ReinforceHand(Action):
    """Discard any cards and draw back up to five: the turn passes on."""

    type: Literal["reinforce_hand"] = "reinforce_hand"
    player: str = Field(description="Who reinforces their hand.")


def settled(state: dict, sentence: str) -> str:
    """The move's sentence, followed by the fall of the album it decided, if any."""
    fell = resolve_any(state)
    return f"{sentence} {fell}" if fell else sentence


def pass_turn(state: dict, player: str) -> None:
    require_player(state, player)
    state["turn"] = left_of(state, player)


def play_character(game, state: dict, action: PlayCharacter, actor: str | None) -> str:
    pass_turn(state, action.player)
    slot = slot_of(state, action.album)
    faction = faction_of(slot, action.player)
    if action.colour != "Neutral" and action.colour.lower() != faction:
        raise GameError(
            f"A {action.colour} character goes on a {action.colour} side, and {action.player} "
            f"plays the {FACTION_LABELS[faction]} side of album {slot['album']}."
        )
    name = (action.name or "").strip() or None
    if action.character_type == "Hero" and name:
        check_hero(state, name)
    slot["characters"].append(
        {
            "id": f"c{state['next_character']}",
            "name": name,
            "strength": action.strength,
            "character_type": action.character_type,
            "colour": action.colour,
            "faction": faction,
            "owner": action.player,
            "potion": False,
            "knocked_out": False,
            "called_on_by": None,
        }
    )
    state["next_character"] += 1
    who = name or "a character"
    return settled(
        state,
        f"{action.player} played {who} (strength {action.strength} {action.colour} "
        f"{action.character_type}) on album {action.album}.",
    )


def use_potion(game, state: dict, action: UsePotion, actor: str | None) -> str:
    pass_turn(state, action.player)
    _slot_found, character = find_character(state, action.character)
    spend_bonus(state, action.player, "potion")
    if character["potion"]:
        raise GameError(f"{label(character)} already has a Potion; one is the most.")
    if character["knocked_out"]:
        raise GameError(
            f"{label(character)} is K.O.'d; it must be reinvigorated before it can take a Potion."
        )
    # The token now lies on the character; it goes back to the stockpile when it leaves play.
    character["potion"] = True
    return settled(state, f"{action.player} gave a Potion to {label(character)}.")


def use_fish(game, state: dict, action: UseFish, actor: str | None) -> str:
    pass_turn(state, action.player)
    _slot_found, character = find_character(state, action.character)
    spend_bonus(state, action.player, "fish")
    turn_face_down(character)
    return_to_stock(state, "fish")
    return settled(state, f"{action.player} K.O.'d {label(character)} with a Fish.")


def use_boar(game, state: dict, action: UseBoar, actor: str | None) -> str:
    pass_turn(state, action.player)
    slot, character = find_character(state, action.character)
    spend_bonus(state, action.player, "boar")
    if character["knocked_out"]:
        reinvigorate(state, character)
        sentence = f"{action.player} reinvigorated {label(character)} with a Boar."
    else:
        if action.player not in slot["pair"]:
            raise GameError(
                f"A Boar re-uses the power of a character on an album facing {action.player}, "
                f"and album {slot['album']} does not face them."
            )
        last = last_visible(slot)
        if last is not character:
            raise GameError(
                "A Boar re-uses only the power of the last visible character placed on an "
                f"album; on album {slot['album']} that is {label(last)}."
            )
        sentence = f"{action.player} used a Boar to activate {label(character)}'s power again."
    return_to_stock(state, "boar")
    return settled(state, sentence)


def reinforce_hand(game, state: dict, action: ReinforceHand, actor: str | None) -> str:
    """Nothing on the table changes; only the turn passes on."""
    pass_turn(state, action.player)
    return f"{action.player} reinforced their hand."


# What makes a token move possible at all, for the player whose turn it is.


def _holds(game, state: dict, kind: str) -> str | None:
    player = game.turn_of(state)
    if player and state["ledger"][player]["bonuses"][kind] == 0:
        return f"{player} has no {BONUS_LABELS[kind]} token to use."
    return None


def can_use_potion(game, state: dict) -> str | None:
    if not any(not c["knocked_out"] and not c["potion"] for c in all_characters(state)):
        return "No visible character without a Potion is on an album."
    return _holds(game, state, "potion")


def can_use_fish(game, state: dict) -> str | None:
    if not any(not c["knocked_out"] and not c["potion"] for c in all_characters(state)):
        return "No visible character without a Potion is on an album."
    return _holds(game, state, "fish")


def boar_targets(state: dict, player: str | None) -> list[dict]:
    """What a Boar may be used on: a K.O.'d character that may come back, or the last visible
    character placed on an album facing ``player`` (any album's, for None)."""
    targets = [c for c in all_characters(state) if can_come_back(state, c)]
    for slot in state["slots"]:
        last = last_visible(slot)
        if last is not None and (player is None or player in slot["pair"]):
            targets.append(last)
    return targets


def can_use_boar(game, state: dict) -> str | None:
    player = game.turn_of(state)
    if not boar_targets(state, player):
        knocked = [c for c in all_characters(state) if c["knocked_out"]]
        return why_none_comes_back(state, knocked) or (
            f"A Boar needs a K.O.'d character, or a visible one on an album facing {player}; "
            "there is none now."
        )
    return _holds(game, state, "boar")


# -- after an album falls ---------------------------------------------------------------------


class TakeConsolation(Action):
    """The loser of the last album picks a bonus token from the stockpile."""

    type: Literal["take_consolation"] = "take_consolation"
    bonus: BonusKind = Field(description="potion, fish or boar.")


class OrientAlbum(Action):
    """The loser reveals the next album and picks which faction they play on it."""

    type: Literal["orient_album"] = "orient_album"
    faction: Faction = Field(description="The side that faces the loser: gaul or roman.")
    note: str | None = Field(None, max_length=120, description="The new album's effect, if any.")


class SetAlbumNote(Action):
    """Write the album's printed effect beside it; an empty note clears it."""

    type: Literal["set_album_note"] = "set_album_note"
    album: Whole = Field(ge=1, description="The album's number.")
    note: str | None = Field(None, max_length=120, description="A short reminder of its effect.")


def take_consolation(game, state: dict, action: TakeConsolation, actor: str | None) -> str:
    pending = state["pending"]
    loser = pending["player"]
    gain_bonus(state, loser, action.bonus)
    state["last_resolution"]["consolation"] = action.bonus
    state["pending"] = {"step": "orientation", "player": loser, "slot": pending["slot"]}
    return f"{loser} took a {BONUS_LABELS[action.bonus]} token as consolation."


def orient_album(game, state: dict, action: OrientAlbum, actor: str | None) -> str:
    pending = state["pending"]
    loser = pending["player"]
    slot = state["slots"][pending["slot"]]
    other = next(name for name in slot["pair"] if name != loser)
    number = state["next_album"]
    slot.update(
        {
            "album": number,
            action.faction: loser,
            opposite(action.faction): other,
            "note": (action.note or "").strip(),
            "characters": [],
        }
    )
    state["next_album"] += 1
    state["pending"] = None
    return f"{loser} revealed album {number} and plays its {FACTION_LABELS[action.faction]} side."


def set_album_note(game, state: dict, action: SetAlbumNote, actor: str | None) -> str:
    slot = slot_of(state, action.album)
    note = (action.note or "").strip()
    slot["note"] = note
    if not note:
        return f"The note on album {action.album} was cleared."
    return f"Album {action.album} now reads: {note}"
