"""The moves on the score piles outside the trick taps: choosing Gauls, typing in and
correcting piles, naming the pirate of choice's escape, and closing the round. Each rule
changes the game's own copy of the state and returns the log sentence."""

from __future__ import annotations

import copy
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field

from ..base import Action, GameError, Whole, enter_phase
from .cards import (
    GAUL_ALIASES,
    GAULS,
    PIRATE_LABELS,
    NotAValue,
    PirateKind,
    RomanValue,
    parse_values,
    pirate_word,
    require_pirate_in_deck,
    require_roman_in_deck,
    require_seated,
    roman_word,
    romans_left,
)
from ..text import Sentence, plural_sentence, quote
from .scoring import choice_owner, choice_pending, left_for_choice, working


def _gaul_key(value: Any) -> Any:
    if isinstance(value, str):
        key = value.strip().lower()
        return GAUL_ALIASES.get(key, key)
    return value


class ChooseGaul(Action):
    """Give a player a Gaul character; whoever had it takes the player's old one."""

    type: Literal["choose_gaul"] = "choose_gaul"
    player: str = Field(description="The player's name, as seated.")
    gaul: Annotated[
        Literal["asterix", "obelix", "majestix", "miraculix", "troubadix"], BeforeValidator(_gaul_key)
    ] = Field(description="The character (German or English name).")


class EnterRomans(Action):
    """Write a player's whole Roman pile for the round, replacing what was there."""

    type: Literal["enter_romans"] = "enter_romans"
    player: str = Field(description="Whose pile.")
    values: str | None = Field(
        None, max_length=200, description="The Romans' values, separated by commas or spaces (empty: none)."
    )
    round: Whole | None = Field(
        None, ge=1, description="The round the pile was typed for; refused once another round is played."
    )


class AddRoman(Action):
    """Put one Roman of this value into a player's pile."""

    type: Literal["add_roman"] = "add_roman"
    player: str = Field(description="Whose pile.")
    value: RomanValue = Field(description="The Roman's value.")


class RemoveRoman(Action):
    """Take one Roman of this value out of a player's pile."""

    type: Literal["remove_roman"] = "remove_roman"
    player: str = Field(description="Whose pile.")
    value: RomanValue = Field(description="The Roman's value.")


class AddPirate(Action):
    """Put a pirate into a player's pile."""

    type: Literal["add_pirate"] = "add_pirate"
    player: str = Field(description="Whose pile.")
    kind: PirateKind = Field(description="Which pirate.")
    round: Whole | None = Field(
        None, ge=1, description="The round the pirate was typed for; refused once another round is played."
    )


class RemovePirate(Action):
    """Take a pirate out of a player's pile."""

    type: Literal["remove_pirate"] = "remove_pirate"
    player: str = Field(description="Whose pile.")
    kind: PirateKind = Field(description="Which pirate.")


class ChooseEscape(Action):
    """The owner names the Roman that the pirate of choice lets escape (empty: takes the choice
    back, to be made again before the round is closed)."""

    type: Literal["choose_escape"] = "choose_escape"
    player: str = Field(description="The owner of the pirate of choice.")
    value: RomanValue | None = Field(None, description="The value that escapes (empty: not chosen yet).")


class CloseRound(Action):
    """Score the round as shown and start the next one (or end the game)."""

    type: Literal["close_round"] = "close_round"


# -- the rules --------------------------------------------------------------------------


def choose_gaul(game, state: dict, action: ChooseGaul, actor: str | None) -> Sentence:
    require_seated(state, action.player)
    gauls = state["gauls"]
    holder = next((name for name, key in gauls.items() if key == action.gaul), None)
    if holder is not None:
        gauls[holder] = gauls[action.player]
    gauls[action.player] = action.gaul
    return Sentence("%(player)s now plays %(gaul)s.", player=action.player, gaul=GAULS[action.gaul])


def require_same_round(state: dict, typed_for: int | None) -> None:
    """A pile typed in on a page of an earlier round must not land in the next one."""
    if typed_for is not None and typed_for != state["round"]:
        raise GameError(Sentence(
            "This was typed in for round %(typed)s, but round %(round)s is being played now; "
            "type in round %(round)s's piles afresh.",
            typed=typed_for, round=state["round"],
        ))


def enter_romans(game, state: dict, action: EnterRomans, actor: str | None) -> Sentence:
    require_seated(state, action.player)
    require_same_round(state, action.round)
    try:
        values = parse_values(action.values or "")
    except NotAValue as exc:
        raise GameError(Sentence(
            "The Romans' values must be whole numbers separated by commas or spaces; '%(piece)s' is not.",
            piece=quote(exc.piece),
        )) from None
    if values == [0]:  # "0": this player took no Romans (an empty field is not sent)
        values = []
    others = copy.deepcopy(state)
    others["piles"][action.player]["romans"] = []
    left = romans_left(others)
    for value in sorted(set(values)):
        held = state["deck"].get(str(value), 0)
        if not held:
            raise GameError(Sentence("The deck has no Roman worth %(value)s.", value=value))
        if values.count(value) > left[str(value)]:
            raise GameError(plural_sentence(
                "The deck holds %(count)s Roman worth %(value)s; with the other piles "
                "only %(left)s can be %(player)s's.",
                "The deck holds %(count)s Romans worth %(value)s; with the other piles "
                "only %(left)s can be %(player)s's.",
                held, value=value, left=left[str(value)], player=action.player,
            ))
    state["piles"][action.player]["romans"] = values
    # In seating order, so that piles typed at once on two phones give the same state.
    typed = set(state.get("typed", [])) | {action.player}
    state["typed"] = [name for name in state["players"] if name in typed]
    _now_scoring(state, action.player)
    if not values:
        return Sentence("%(player)s's Romans were entered: none.", player=action.player)
    shown = ", ".join(str(value) for value in values)
    return Sentence("%(player)s's Romans were entered: %(values)s.", player=action.player, values=shown)


def add_roman(game, state: dict, action: AddRoman, actor: str | None) -> Sentence:
    require_seated(state, action.player)
    require_roman_in_deck(state, action.value)
    state["piles"][action.player]["romans"].append(action.value)
    _now_scoring(state, action.player)
    return Sentence("%(card)s was added to %(player)s's pile.",
                    card=roman_word(action.value, start=True), player=action.player)


def remove_roman(game, state: dict, action: RemoveRoman, actor: str | None) -> Sentence:
    require_seated(state, action.player)
    pile = state["piles"][action.player]
    if action.value not in pile["romans"]:
        raise GameError(Sentence("%(player)s's pile has no Roman worth %(value)s.",
                                 player=action.player, value=action.value))
    pile["romans"].remove(action.value)
    _now_scoring(state, action.player)
    return Sentence("%(card)s was taken out of %(player)s's pile.",
                    card=roman_word(action.value, start=True), player=action.player)


def add_pirate(game, state: dict, action: AddPirate, actor: str | None) -> Sentence:
    require_seated(state, action.player)
    require_same_round(state, action.round)
    require_pirate_in_deck(state, action.kind)
    state["piles"][action.player]["pirates"].append(action.kind)
    _now_scoring(state, action.player)
    return Sentence("%(card)s was added to %(player)s's pile.",
                    card=pirate_word(action.kind, start=True), player=action.player)


def remove_pirate(game, state: dict, action: RemovePirate, actor: str | None) -> Sentence:
    require_seated(state, action.player)
    pile = state["piles"][action.player]
    if action.kind not in pile["pirates"]:
        raise GameError(Sentence("%(player)s's pile has no pirate where %(label)s.",
                                 player=action.player, label=PIRATE_LABELS[action.kind]))
    pile["pirates"].remove(action.kind)
    if action.kind == "choice":
        pile["choice"] = None
    _now_scoring(state, action.player)
    return Sentence("%(card)s was taken out of %(player)s's pile.",
                    card=pirate_word(action.kind, start=True), player=action.player)


def _now_scoring(state: dict, player: str) -> None:
    """After a pile is typed in or corrected: the trick taps are over and the scoring shows."""
    pile = state["piles"][player]
    # A named escape no longer left for the pirate of choice is asked for again.
    if pile["choice"] is not None and ("choice" not in pile["pirates"]
                                       or pile["choice"] not in left_for_choice(state, player)):
        pile["choice"] = None
    enter_phase(state, "scoring")
    state["last_player"] = None
    state["draws_left"] = 0


def choose_escape(game, state: dict, action: ChooseEscape, actor: str | None) -> Sentence:
    require_seated(state, action.player)
    pile = state["piles"][action.player]
    if "choice" not in pile["pirates"]:
        raise GameError(Sentence("%(player)s does not hold the pirate of choice.", player=action.player))
    if action.value is not None and action.value not in pile["romans"]:
        raise GameError(Sentence("%(player)s's pile has no Roman worth %(value)s.",
                                 player=action.player, value=action.value))
    pile["choice"] = action.value
    if action.value is None:
        return Sentence("%(player)s took back the choice of the Roman that escapes.", player=action.player)
    return Sentence("%(player)s's pirate of choice lets the Roman worth %(value)s escape.",
                    player=action.player, value=action.value)


def close_round(game, state: dict, action: CloseRound, actor: str | None) -> Sentence:
    # A log closed before the owner was asked replays with the cheapest escape it had then.
    scored = working(state, choose_cheapest=True)
    totals = {name: scored[name]["total"] for name in state["players"]}
    state["closed"].append(
        {"round": state["round"], "piles": state["piles"], "working": scored, "totals": totals}
    )
    sentence = Sentence("Round %(round)s was scored: %(scores)s.", round=state["round"],
                        scores=", ".join(f"{name} {totals[name]}" for name in state["players"]))
    if state["round"] >= state["rounds"]:
        state["finished"] = True
        enter_phase(state, "over")
    else:
        state["round"] += 1
        state.update(game.fresh_round(state["players"]))
        enter_phase(state, "tricks")
    return sentence


# -- checks: None when the move can be made in ``state``, else why not ---------------------


def piles_hold_romans(game, state: dict) -> Sentence | None:
    if not any(pile["romans"] for pile in state["piles"].values()):
        return Sentence("No pile holds a Roman to take out.")
    return None


def piles_hold_pirates(game, state: dict) -> Sentence | None:
    if not any(pile["pirates"] for pile in state["piles"].values()):
        return Sentence("No pile holds a pirate to take out.")
    return None


def choice_pirate_held(game, state: dict) -> Sentence | None:
    if not any("choice" in pile["pirates"] for pile in state["piles"].values()):
        return Sentence("Nobody holds the pirate of choice.")
    return None


def owns_choice(game, state: dict, seat: str | None) -> Sentence | None:
    """The escape is its owner's choice: made on the owner's phone (or the host's, for a player
    without one: ``host_too``)."""
    owner = choice_owner(state)
    if seat is None or owner is None or seat == owner:
        return None
    return Sentence("It is %(player)s's choice which Roman escapes: %(player)s taps it on their "
                    "own phone, or the host does.", player=owner)


def escapes_chosen(game, state: dict) -> Sentence | None:
    """A round is closed only once the pirate of choice's owner has chosen."""
    for name in state["players"]:
        if choice_pending(state, name):
            return Sentence("%(player)s has not yet chosen which Roman the pirate of choice lets "
                            "escape.", player=name)
    return None
