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
from ..text import Sentence
from .board import (
    TOKEN_LABELS,
    COLOUR_LABELS,
    FACTION_LABELS,
    TYPE_LABELS,
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
    no_token,
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


def settled(state: dict, sentence: Sentence) -> Sentence:
    """The move's sentence, followed by the fall of the album it decided, if any."""
    fell = resolve_any(state)
    return Sentence("%(move)s %(fell)s", move=sentence, fell=fell) if fell else sentence


def pass_turn(state: dict, player: str) -> None:
    """The turn goes to the player's left; a power still waiting from the turn before is past."""
    require_player(state, player)
    state["turn"] = left_of(state, player)
    state["power"] = None


def open_power(state: dict, player: str, character: dict, boar: bool = False) -> None:
    """The power of ``character`` waits for ``player`` to enter it (or say it is done), unless
    the move just decided an album."""
    if state["pending"] is None and not state["finished"]:
        card = {key: character[key] for key in ("id", "name", "strength", "colour",
                                                 "character_type")}
        state["power"] = {"player": player, "character": character["id"], "boar": boar,
                          "card": card}


def play_character(game, state: dict, action: PlayCharacter, actor: str | None) -> Sentence:
    pass_turn(state, action.player)
    slot = slot_of(state, action.album)
    faction = faction_of(slot, action.player)
    if action.colour != "Neutral" and action.colour.lower() != faction:
        raise GameError(
            Sentence(
                "A %(colour)s character goes on a %(colour)s side, and %(player)s plays the "
                "%(faction)s side of album %(album)s.",
                colour=COLOUR_LABELS[action.colour], player=action.player,
                faction=FACTION_LABELS[faction], album=slot["album"],
            )
        )
    name = (action.name or "").strip() or None
    if action.character_type == "Hero" and name:
        check_hero(state, name)
    character = {
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
    slot["characters"].append(character)
    state["next_character"] += 1
    card = dict(player=action.player, strength=action.strength,
                colour=COLOUR_LABELS[action.colour], type=TYPE_LABELS[action.character_type],
                album=action.album)
    if name:
        played = Sentence(
            "%(player)s played %(name)s (strength %(strength)s %(colour)s %(type)s) on album "
            "%(album)s.", name=name, **card)
    else:
        played = Sentence(
            "%(player)s played a character (strength %(strength)s %(colour)s %(type)s) on album "
            "%(album)s.", **card)
    sentence = settled(state, played)
    open_power(state, action.player, character)
    return sentence


def use_potion(game, state: dict, action: UsePotion, actor: str | None) -> str:
    pass_turn(state, action.player)
    _slot_found, character = find_character(state, action.character)
    spend_bonus(state, action.player, "potion")
    if character["potion"]:
        raise GameError(Sentence("%(character)s already has a Potion; one is the most.",
                                 character=label(character, first=True)))
    if character["knocked_out"]:
        raise GameError(Sentence(
            "%(character)s is K.O.'d; it must be reinvigorated before it can take a Potion.",
            character=label(character, first=True)))
    # The token now lies on the character; it goes back to the stockpile when it leaves play.
    character["potion"] = True
    return settled(state, Sentence("%(player)s gave a Potion to %(character)s.",
                                   player=action.player, character=label(character)))


def use_fish(game, state: dict, action: UseFish, actor: str | None) -> str:
    pass_turn(state, action.player)
    _slot_found, character = find_character(state, action.character)
    spend_bonus(state, action.player, "fish")
    turn_face_down(character)
    return_to_stock(state, "fish")
    return settled(state, Sentence("%(player)s K.O.'d %(character)s with a Fish.",
                                   player=action.player, character=label(character)))


def use_boar(game, state: dict, action: UseBoar, actor: str | None) -> str:
    pass_turn(state, action.player)
    slot, character = find_character(state, action.character)
    spend_bonus(state, action.player, "boar")
    reused = not character["knocked_out"]
    if not reused:
        reinvigorate(state, character)
        sentence = Sentence("%(player)s reinvigorated %(character)s with a Boar.",
                            player=action.player, character=label(character))
    else:
        if action.player not in slot["pair"]:
            raise GameError(Sentence(
                "A Boar re-uses the power of a character on an album facing %(player)s, and "
                "album %(album)s does not face them.", player=action.player, album=slot["album"]))
        last = last_visible(slot)
        if last is not character:
            raise GameError(Sentence(
                "A Boar re-uses only the power of the last visible character placed on an "
                "album; on album %(album)s that is %(character)s.",
                album=slot["album"], character=label(last)))
        sentence = Sentence("%(player)s used a Boar to activate %(character)s's power again.",
                            player=action.player, character=label(character))
    return_to_stock(state, "boar")
    sentence = settled(state, sentence)
    if reused:
        open_power(state, action.player, character, boar=True)
    return sentence


def reinforce_hand(game, state: dict, action: ReinforceHand, actor: str | None) -> Sentence:
    """Nothing on the table changes; only the turn passes on."""
    pass_turn(state, action.player)
    return Sentence("%(player)s reinforced their hand.", player=action.player)


# What makes a token move possible at all, for the player whose turn it is.


def _holds(game, state: dict, kind: str) -> Sentence | None:
    player = game.turn_of(state)
    if player and state["ledger"][player]["bonuses"][kind] == 0:
        return no_token(player, kind)
    return None


NO_POTION_TARGET = Sentence("No visible character without a Potion is on an album.")


def can_use_potion(game, state: dict) -> Sentence | None:
    if not any(not c["knocked_out"] and not c["potion"] for c in all_characters(state)):
        return NO_POTION_TARGET
    return _holds(game, state, "potion")


def can_use_fish(game, state: dict) -> Sentence | None:
    if not any(not c["knocked_out"] and not c["potion"] for c in all_characters(state)):
        return NO_POTION_TARGET
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


def can_use_boar(game, state: dict) -> Sentence | None:
    player = game.turn_of(state)
    if not boar_targets(state, player):
        knocked = [c for c in all_characters(state) if c["knocked_out"]]
        return why_none_comes_back(state, knocked) or Sentence(
            "A Boar needs a K.O.'d character, or a visible one on an album facing %(player)s; "
            "there is none now.", player=player)
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


# Whose choice the loser's step is, for any other phone: one whole sentence per step.
LOSERS_CHOICE = {
    "consolation": Sentence("The consolation token is %(player)s's choice: %(player)s takes it "
                            "on their own phone or the host's."),
    "orientation": Sentence("The side of the new album is %(player)s's choice: %(player)s "
                            "picks it on their own phone or the host's."),
}


def losers_choice(game, state: dict, seat: str | None) -> Sentence | None:
    """The loser's two choices are made on the loser's phone (or the host's)."""
    pending = state["pending"]
    if pending is None or seat is None or seat == pending["player"]:
        return None
    return Sentence(LOSERS_CHOICE[pending["step"]].text, player=pending["player"])


def take_consolation(game, state: dict, action: TakeConsolation, actor: str | None) -> Sentence:
    pending = state["pending"]
    loser = pending["player"]
    gain_bonus(state, loser, action.bonus)
    state["last_resolution"]["consolation"] = action.bonus
    state["pending"] = {"step": "orientation", "player": loser, "slot": pending["slot"]}
    return Sentence("%(player)s took a %(token)s as consolation.", player=loser,
                    token=TOKEN_LABELS[action.bonus])


def orient_album(game, state: dict, action: OrientAlbum, actor: str | None) -> Sentence:
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
    return Sentence("%(player)s revealed album %(album)s and plays its %(faction)s side.",
                    player=loser, album=number, faction=FACTION_LABELS[action.faction])


def set_album_note(game, state: dict, action: SetAlbumNote, actor: str | None) -> Sentence:
    slot = slot_of(state, action.album)
    note = (action.note or "").strip()
    slot["note"] = note
    if not note:
        return Sentence("The note on album %(album)s was cleared.", album=action.album)
    return Sentence("Album %(album)s now reads: %(note)s", album=action.album, note=note)
