"""What a character's power (or a cost such as Caesar's) does on the table: K.O., reinvigorate,
eliminate, call on, a helmet or a token from the stockpile, a helmet destroyed.

These are not turns of their own: they follow the character just played (``state["power"]``:
who played it, or used a Boar on it, and which one), so the turn has already passed on. While
that power waits, its effects are that player's to enter (on their phone or the host's), until
they say it is done (``end_power``) or the next player makes their turn; at any other moment
they are bookkeeping anyone may correct.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..base import Action, GameError, Whole
from ..text import Sentence
from .board import (
    TOKEN_LABELS,
    BonusKind,
    HelmetKind,
    all_characters,
    bonus_choices,
    can_come_back,
    why_none_comes_back,
    faction_of,
    find_character,
    gain_bonus as take_bonus,
    knock_out as turn_face_down,
    label,
    reinvigorate as turn_face_up,
    require_player,
    return_to_stock,
    slot_of,
    take_from_stock,
    waiting_character,
)
from .moves import settled


class KnockOut(Action):
    """A power K.O.s a character: it is turned face down and stops counting."""

    type: Literal["knock_out"] = "knock_out"
    character: str = Field(description="The character's id, e.g. c7.")


class Reinvigorate(Action):
    """A power turns a K.O.'d character face up again, without its power."""

    type: Literal["reinvigorate"] = "reinvigorate"
    character: str = Field(description="The character's id, e.g. c7.")


class Eliminate(Action):
    """A power discards a visible character, and the Potion on it if there is one."""

    type: Literal["eliminate"] = "eliminate"
    character: str = Field(description="The character's id, e.g. c7.")


class CallOn(Action):
    """A power calls a visible character without a Potion over to the caller's faction."""

    type: Literal["call_on"] = "call_on"
    player: str = Field(description="Who calls the character on.")
    album: Whole = Field(ge=1, description="The album whose faction the character joins.")
    character: str = Field(description="The character's id, e.g. c7.")


class EndPower(Action):
    """The player says the power of the character just played is entered, or has no target."""

    type: Literal["end_power"] = "end_power"


class GainHelmet(Action):
    """A power (Dogmatix …) hands a helmet from the stockpile to a player."""

    type: Literal["gain_helmet"] = "gain_helmet"
    player: str = Field(description="Who receives the helmet.")
    helmet: HelmetKind = Field(description="legionary or centurion.")


class GainBonus(Action):
    """A power (Getafix …) hands a bonus token from the stockpile to a player."""

    type: Literal["gain_bonus"] = "gain_bonus"
    player: str = Field(description="Who receives the token.")
    bonus: BonusKind = Field(description="potion, fish or boar.")


class DestroyHelmet(Action):
    """Pay a cost such as Caesar's: one of the player's helmets goes back to the stockpile."""

    type: Literal["destroy_helmet"] = "destroy_helmet"
    player: str = Field(description="Whose helmet is destroyed.")
    helmet: HelmetKind = Field(description="legionary or centurion.")


def end_power(game, state: dict, action: EndPower, actor: str | None) -> Sentence:
    power = state["power"]
    state["power"] = None
    return Sentence("%(player)s is done with the power of %(character)s.",
                    player=power["player"], character=label(waiting_character(state, power)))


def power_waits(game, state: dict) -> Sentence | None:
    if state.get("power"):
        return None
    return Sentence("No character's power is waiting: a power is entered right after its "
                    "character is played.")


def powers_choice(game, state: dict, seat: str | None) -> Sentence | None:
    """While a power waits, what it does is entered on its player's phone (or the host's)."""
    power = state.get("power")
    if not power or seat is None or seat == power["player"]:
        return None
    return Sentence("%(player)s enters the power of %(character)s on their own phone or the "
                    "host's.",
                    player=power["player"], character=label(waiting_character(state, power)))


def knock_out(game, state: dict, action: KnockOut, actor: str | None) -> Sentence:
    _slot, character = find_character(state, action.character)
    turn_face_down(character)
    return settled(state, Sentence("A power K.O.'d %(character)s.", character=label(character)))


def reinvigorate(game, state: dict, action: Reinvigorate, actor: str | None) -> Sentence:
    _slot, character = find_character(state, action.character)
    turn_face_up(state, character)
    return settled(state, Sentence("A power reinvigorated %(character)s.",
                                   character=label(character)))


def eliminate(game, state: dict, action: Eliminate, actor: str | None) -> Sentence:
    slot, character = find_character(state, action.character)
    if character["knocked_out"]:
        raise GameError(Sentence(
            "Only a visible character can be eliminated, and %(character)s is K.O.'d.",
            character=label(character)))
    slot["characters"].remove(character)
    if character["potion"]:
        return_to_stock(state, "potion")
    return settled(state, Sentence("A power eliminated %(character)s.",
                                   character=label(character)))


def call_on(game, state: dict, action: CallOn, actor: str | None) -> Sentence:
    require_player(state, action.player)
    target = slot_of(state, action.album)
    faction = faction_of(target, action.player)
    source, character = find_character(state, action.character)
    name = label(character)
    if character["knocked_out"]:
        raise GameError(Sentence(
            "Only a visible character can be called on, and %(character)s is K.O.'d.",
            character=name))
    if character["potion"]:
        raise GameError(Sentence("%(character)s has a Potion and cannot be called on.",
                                 character=label(character, first=True)))
    if source is target and character["faction"] == faction:
        raise GameError(Sentence("%(character)s already fights for %(player)s on album "
                                 "%(album)s.", character=label(character, first=True),
                                 player=action.player,
                                 album=target["album"]))
    source["characters"].remove(character)
    character["faction"] = faction
    # A called-on character that ends K.O.'d goes back to the caller's hand.
    character["owner"] = action.player
    character["called_on_by"] = action.player
    target["characters"].append(character)
    return settled(state, Sentence(
        "%(player)s called %(character)s on to their side of album %(album)s.",
        player=action.player, character=name, album=action.album))


# One whole sentence per helmet kind (German needs its own word order); the rule fills in
# the player.
WON_HELMET = {
    "legionary": Sentence("%(player)s won a legionary helmet."),
    "centurion": Sentence("%(player)s won a centurion helmet."),
}
NO_HELMET = {
    "legionary": Sentence("%(player)s has no legionary helmet to destroy."),
    "centurion": Sentence("%(player)s has no centurion helmet to destroy."),
}
DESTROYED_HELMET = {
    "legionary": Sentence("%(player)s destroyed one of their legionary helmets."),
    "centurion": Sentence("%(player)s destroyed one of their centurion helmets."),
}


def gain_helmet(game, state: dict, action: GainHelmet, actor: str | None) -> Sentence:
    require_player(state, action.player)
    take_from_stock(state, action.helmet)
    state["ledger"][action.player][f"{action.helmet}_helmets"] += 1
    return Sentence(WON_HELMET[action.helmet].text, player=action.player)


def gain_bonus(game, state: dict, action: GainBonus, actor: str | None) -> Sentence:
    require_player(state, action.player)
    take_bonus(state, action.player, action.bonus)
    return Sentence("%(player)s won a %(token)s.", player=action.player,
                    token=TOKEN_LABELS[action.bonus])


def destroy_helmet(game, state: dict, action: DestroyHelmet, actor: str | None) -> Sentence:
    require_player(state, action.player)
    held = state["ledger"][action.player]
    key = f"{action.helmet}_helmets"
    if held[key] == 0:
        raise GameError(Sentence(NO_HELMET[action.helmet].text, player=action.player))
    held[key] -= 1
    return_to_stock(state, action.helmet)
    return Sentence(DESTROYED_HELMET[action.helmet].text, player=action.player)


# -- when a power has anything to work on -----------------------------------------------------


def _unprotected(state: dict) -> bool:
    return any(not c["knocked_out"] and not c["potion"] for c in all_characters(state))


def can_knock_out(game, state: dict) -> Sentence | None:
    return None if _unprotected(state) else Sentence("No visible character without a Potion "
                                                     "to K.O.")


def can_call_on(game, state: dict) -> Sentence | None:
    return None if _unprotected(state) else Sentence("No visible character without a Potion "
                                                     "to call on.")


def can_reinvigorate(game, state: dict) -> Sentence | None:
    knocked = [c for c in all_characters(state) if c["knocked_out"]]
    if any(can_come_back(state, c) for c in knocked):
        return None
    return why_none_comes_back(state, knocked) or Sentence("No character is K.O.'d.")


def can_eliminate(game, state: dict) -> Sentence | None:
    if any(not c["knocked_out"] for c in all_characters(state)):
        return None
    return Sentence("No visible character to eliminate.")


def can_gain_bonus(game, state: dict) -> Sentence | None:
    if any(bonus_choices(state, name) for name in state["players"]):
        return None
    return Sentence("Nobody may take a bonus token: each kind is used up or already held "
                    "twice.")


def can_destroy_helmet(game, state: dict) -> Sentence | None:
    for held in state["ledger"].values():
        if held["legionary_helmets"] or held["centurion_helmets"]:
            return None
    return Sentence("Nobody holds a helmet.")
