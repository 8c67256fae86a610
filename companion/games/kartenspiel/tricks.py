"""The moves tapped during a round: each trick's winner, Idefix, players running out of
cards, and the last player's draws. Each rule changes the game's own copy of the state
and returns the log sentence; when each move is legal is declared in the game's ``moves``."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..base import Action, GameError, Ticked, Whole, enter_phase
from .cards import (
    HAND_GAULS,
    PirateKind,
    RomanValue,
    deck_left,
    dog,
    cards_word,
    pirate_word,
    require_in_round,
    require_pirate_in_deck,
    require_roman_in_deck,
    require_seated,
    roman_word,
    still_in,
)
from ..text import Sentence, plural_sentence


class WinRoman(Action):
    """A Roman of this value goes to the player: won in a trick, or drawn at the end of a round."""

    type: Literal["win_roman"] = "win_roman"
    player: str = Field(description="Who won it.")
    value: RomanValue = Field(description="The Roman's value.")


class WinPirate(Action):
    """A pirate goes to the player: won in a trick, or drawn at the end of a round."""

    type: Literal["win_pirate"] = "win_pirate"
    player: str = Field(description="Who won it.")
    kind: PirateKind = Field(description="Which pirate.")


class IdefixLook(Action):
    """A player's Idefix looked at the top card of the deck, then kept it or gave it away."""

    type: Literal["idefix_look"] = "idefix_look"
    player: str = Field(description="Whose Idefix looked.")
    roman: RomanValue | None = Field(None, description="The card's value, when it was a Roman.")
    pirate: PirateKind | None = Field(None, description="The pirate's kind, when it was a pirate.")
    given_to: str | None = Field(None, description="Who received the card (empty: kept).")


class IdefixClash(Action):
    """Two or more Idefixes came out together: nobody looks and every Idefix goes back."""

    type: Literal["idefix_clash"] = "idefix_clash"


class PlayerOut(Action):
    """A player has no cards left and sits out the rest of the round."""

    type: Literal["player_out"] = "player_out"
    player: str = Field(description="Who is out of cards.")


class LastPlayer(Action):
    """The only player still holding cards says how many; one card per card comes from the deck."""

    type: Literal["last_player"] = "last_player"
    player: str = Field(description="The player still holding cards.")
    cards_left: Whole = Field(ge=1, le=HAND_GAULS + 1, description="Cards in hand, Idefix included.")
    idefix_among: Ticked = Field(False, description="Whether Idefix is one of those cards.")


# -- the rules --------------------------------------------------------------------------


def win_card(game, state: dict, action: WinRoman | WinPirate, actor: str | None) -> Sentence:
    """A trick won, or one of the last player's draws (the phases allow only these two)."""
    require_seated(state, action.player)
    drawing = state["phase"] == "drawing"
    if drawing and action.player != state["last_player"]:
        raise GameError(Sentence("Only %(last)s takes cards from the deck now, not %(player)s.",
                                 last=state["last_player"], player=action.player))
    if not drawing:
        require_in_round(state, action.player)
    pile = state["piles"][action.player]
    if isinstance(action, WinRoman):
        require_roman_in_deck(state, action.value)
        card = roman_word(action.value)
    else:
        require_pirate_in_deck(state, action.kind)
        card = pirate_word(action.kind)
    others = [name for name in still_in(state) if name != action.player]
    if isinstance(action, WinRoman):
        pile["romans"].append(action.value)
    else:
        pile["pirates"].append(action.kind)
    if drawing:
        # The last player's draws spend no Gaul; a pirate simply counts as one card.
        state["draws_left"] -= 1
    elif isinstance(action, WinRoman):
        spend_gaul(state, action.player)
    else:
        # A pirate sends the winning Gaul back to hand and costs everyone else theirs.
        for name in others:
            spend_gaul(state, name)
    end_round_if_done(state)
    if drawing:
        return Sentence("%(player)s took %(card)s from the deck.", player=action.player, card=card)
    return Sentence("%(player)s won %(card)s.", player=action.player, card=card)


def idefix_look(game, state: dict, action: IdefixLook, actor: str | None) -> Sentence:
    require_seated(state, action.player)
    require_in_round(state, action.player)
    name = dog(state)
    if not state["hands"][action.player]["idefix"]:
        raise GameError(Sentence("%(player)s's %(dog)s is already discarded this round.",
                                 player=action.player, dog=name))
    if (action.roman is None) == (action.pirate is None):
        raise GameError(Sentence("Say what %(dog)s saw: either a Roman's value or a pirate's kind.", dog=name))
    if action.roman is not None:
        require_roman_in_deck(state, action.roman)
    else:
        require_pirate_in_deck(state, action.pirate)
    receiver = action.given_to or action.player
    require_seated(state, receiver)
    kept = receiver == action.player
    if action.roman is not None:
        state["piles"][receiver]["romans"].append(action.roman)
        card = roman_word(action.roman)
    else:
        state["piles"][receiver]["pirates"].append(action.pirate)
        card = pirate_word(action.pirate)
    # Idefix goes to the discard when he keeps a Roman or gives a pirate away.
    if kept == (action.roman is not None):
        state["hands"][action.player]["idefix"] = False
    end_round_if_done(state)
    if not kept:
        return Sentence("%(player)s's %(dog)s looked at the top card, %(card)s, and gave it to %(receiver)s.",
                        player=action.player, dog=name, card=card, receiver=receiver)
    return Sentence("%(player)s's %(dog)s looked at the top card, %(card)s, and kept it.",
                    player=action.player, dog=name, card=card)


def idefix_clash(game, state: dict, action: IdefixClash, actor: str | None) -> Sentence:
    state["clashes"] += 1  # nobody looks, so no card leaves the deck
    return Sentence("Several %(dog)s cards came out together; nobody looked at the top card.", dog=dog(state))


def player_out(game, state: dict, action: PlayerOut, actor: str | None) -> Sentence:
    # Also legal with one player left: the taps may have missed that this one is empty too.
    require_seated(state, action.player)
    require_in_round(state, action.player)
    state["hands"][action.player] = {"gauls": 0, "idefix": False, "out": True}
    end_round_if_done(state)
    return Sentence("%(player)s ran out of cards.", player=action.player)


def last_player(game, state: dict, action: LastPlayer, actor: str | None) -> Sentence:
    require_seated(state, action.player)
    require_in_round(state, action.player)  # the phase leaves exactly one player holding cards
    if not action.idefix_among and action.cards_left > HAND_GAULS:
        raise GameError(Sentence("Without %(dog)s a hand holds at most %(most)s cards.",
                                 dog=dog(state), most=HAND_GAULS))
    draws = min(draws_for(action), deck_left(state))  # an emptier deck gives what it has
    state["draws_left"] = draws
    state["hands"][action.player] = {"gauls": 0, "idefix": False, "out": True}
    state["last_player"] = action.player
    enter_phase(state, "drawing")
    end_round_if_done(state)
    if action.idefix_among:
        return plural_sentence(
            "%(player)s was the last with cards (%(held)s, %(dog)s among them) and takes %(count)s card from the deck.",
            "%(player)s was the last with cards (%(held)s, %(dog)s among them) and takes %(count)s cards from the deck.",
            draws, player=action.player, held=cards_word(action.cards_left), dog=dog(state),
        )
    return plural_sentence(
        "%(player)s was the last with cards (%(held)s) and takes %(count)s card from the deck.",
        "%(player)s was the last with cards (%(held)s) and takes %(count)s cards from the deck.",
        draws, player=action.player, held=cards_word(action.cards_left),
    )


# -- helpers ----------------------------------------------------------------------------


def draws_for(action: LastPlayer) -> int:
    """Cards the last player takes: one per card in hand, Idefix too unless it is alone."""
    if action.idefix_among and action.cards_left == 1:
        return 0
    return action.cards_left


def spend_gaul(state: dict, player: str) -> None:
    hand = state["hands"][player]
    hand["gauls"] -= 1
    if hand["gauls"] <= 0:
        # Idefix may not be the last card played: it is discarded and the player is out.
        state["hands"][player] = {"gauls": 0, "idefix": False, "out": True}


def end_round_if_done(state: dict) -> None:
    """The round ends when the deck is empty, everybody is out, or the last draws are done."""
    deck_empty = deck_left(state) == 0
    if state["phase"] == "drawing" and (deck_empty or state["draws_left"] <= 0):
        enter_phase(state, "scoring")
    elif state["phase"] == "tricks" and (deck_empty or not still_in(state)):
        enter_phase(state, "scoring")


# -- checks: None when the move can be made in ``state``, else why not ---------------------


def a_dog_can_look(game, state: dict) -> Sentence | None:
    if not any(state["hands"][name]["idefix"] for name in still_in(state)):
        return Sentence("Nobody still in the round has %(dog)s in hand.", dog=dog(state))
    return None
