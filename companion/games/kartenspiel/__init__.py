"""Asterix: Das Kartenspiel (David Parlett): score piles, pirates, sets and four-round totals.

The table plays the cards; the companion keeps each player's score pile, either tapped in
trick by trick or typed in after the round, works out the pirates' escapes and the set
bonuses with the working shown, and adds up the rounds.

There is no turn order: every player lays a card face down and all are revealed together,
so no move waits for a particular player (the last player's draws are named in the move).

Rulings where the rulebook is silent (each one documented where it is applied):

* Pirates escape in a fixed order: the rank pirates (Dekurio, Zenturio, General) first, as
  they name one card, then the highest, then the lowest, and the pirate of choice last, so that
  every pirate takes a different Roman whenever the pile allows it.
* The pirate of choice waits for its owner to name the Roman that escapes (on the owner's phone
  or a seatless host's) whenever two or more different Romans are left for it; the round is not
  closed before. The quick score may still ask for "the cheapest" (the value plus the set bonus
  its loss breaks; the lower value on a tie).
* When two or more Idefixes clash, nobody looks and no card leaves the deck; the face-up Roman
  still goes to the highest Gaul played, tapped as usual. If every player still in the round
  played Idefix, no Gaul was played, so that Roman stays face up for the next trick.
"""

from __future__ import annotations

from ..base import Game, Move, Phase
from .cards import (
    GAULS,
    HAND_GAULS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RANKS,
    and_list,
    cards_word,
    deck_left,
    pirates_in_deck,
    pirates_left,
    piles_missing,
    romans_in_deck,
    romans_left,
    still_in,
)
from ..text import N_, Sentence, plural_sentence
from .coach import coach, intro
from .options import KartenspielOptions
from .piles import (
    AddPirate,
    AddRoman,
    ChooseEscape,
    ChooseGaul,
    CloseRound,
    EnterRomans,
    RemovePirate,
    RemoveRoman,
    add_pirate,
    add_roman,
    choice_pirate_held,
    choose_escape,
    choose_gaul,
    close_round,
    enter_romans,
    escapes_chosen,
    owns_choice,
    piles_hold_pirates,
    piles_hold_romans,
    remove_pirate,
    remove_roman,
)
from .quick import QuickScoreRequest, quick_score
from .scoring import totals, work_out_pile
from .tricks import (
    IdefixClash,
    IdefixLook,
    LastPlayer,
    PlayerOut,
    WinPirate,
    WinRoman,
    a_dog_can_look,
    idefix_clash,
    idefix_look,
    last_player,
    player_out,
    win_card,
)
from .view import quick_score_payload, table_view


def _pile(action) -> frozenset:
    """One player's pile, typed in or corrected."""
    return frozenset({("pile", action.player)})


# What ends the trick taps of a round: the deck running out, every hand emptied, or a pile
# typed in or corrected (the table scores from the piles instead).
_PILES_TYPED = ("enter_romans", "add_roman", "remove_roman", "add_pirate", "remove_pirate")


class Kartenspiel(Game):
    id = "kartenspiel"
    # The German edition's title; the English edition was "Asterix: The Card Game".
    name = N_("Asterix: Das Kartenspiel")
    summary = N_(
        "Tricks won with Gauls, Romans in the score piles, pirates letting them escape, "
        "set bonuses and four rounds of totals."
    )
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options_model = KartenspielOptions
    # Moves without phases may be made at any time until the game is over: choosing Gauls,
    # and typing in or correcting piles (which ends the trick taps of the round).
    # A move's scope is the hands and piles it changes: a tap made while another phone tapped
    # a move touching others is still recorded (a menu left half chosen meanwhile too). The
    # deck and the phase are the rules' to check against the table as it is then; a pirate
    # (everyone's Gauls), the last hand and the close touch everything.
    # The phases of a round (``phase``): tricks are tapped while two or more players hold cards;
    # in the last hand one player still holds cards and says how many; drawing: that player
    # takes one card from the deck per card held; scoring: the piles are final (check, correct,
    # name the escape, close the round); over: the last round is closed.
    phases = (
        Phase("tricks", ends=("win_roman", "win_pirate", "idefix_look", "player_out") + _PILES_TYPED,
              then=("last_hand", "scoring")),
        Phase("last_hand", ends=("player_out", "last_player") + _PILES_TYPED, then=("drawing", "scoring")),
        Phase("drawing", ends=("win_roman", "win_pirate") + _PILES_TYPED, then=("scoring",)),
        Phase("scoring", ends=("close_round",), then=("tricks", "over")),
        Phase("over"),
    )
    moves = (
        # Choosing a Gaul another player has swaps the two: every choice touches them all.
        Move(ChooseGaul, choose_gaul, scope=lambda action: frozenset({"gauls"})),
        Move(WinRoman, win_card, phases=("tricks", "drawing"), check=romans_in_deck,
             scope=lambda action: frozenset({("hand", action.player), ("pile", action.player)})),
        Move(WinPirate, win_card, phases=("tricks", "drawing"), check=pirates_in_deck),
        Move(IdefixLook, idefix_look, phases=("tricks",), check=a_dog_can_look,
             scope=lambda action: frozenset({("hand", action.player),
                                             ("pile", action.given_to or action.player)})),
        Move(IdefixClash, idefix_clash, phases=("tricks",), scope=lambda action: frozenset({"clashes"})),
        # Also with one player left: the taps may have missed that this one is empty too.
        Move(PlayerOut, player_out, phases=("tricks", "last_hand"),
             scope=lambda action: frozenset({("hand", action.player)})),
        Move(LastPlayer, last_player, phases=("last_hand",)),
        Move(EnterRomans, enter_romans, scope=_pile),
        Move(AddRoman, add_roman, check=romans_in_deck, scope=_pile),
        Move(RemoveRoman, remove_roman, check=piles_hold_romans, scope=_pile),
        Move(AddPirate, add_pirate, check=pirates_in_deck, scope=_pile),
        Move(RemovePirate, remove_pirate, check=piles_hold_pirates, scope=_pile),
        Move(ChooseEscape, choose_escape, check=choice_pirate_held, seat_check=owns_choice,
             host_too=True, scope=_pile),
        Move(CloseRound, close_round, phases=("scoring",), check=escapes_chosen),
    )
    regions = ("deck", "piles", "scoring", "totals", "entry")
    quick_score_model = QuickScoreRequest

    # -- setup -------------------------------------------------------------------------
    def initial_state(self, players: list[str], options: KartenspielOptions) -> dict:
        state = {
            "players": list(players),
            "deck": options.deck(),
            "ranks": {rank: getattr(options, rank) for rank in RANKS},
            "bonus": {"2": options.pair_bonus, "3": options.three_bonus, "4": options.four_bonus},
            "rounds": options.rounds,
            "gauls": {name: key for name, key in zip(players, GAULS)},
            "round": 1,
            "closed": [],
            "finished": False,
            # "tricks", "drawing", "scoring" or "over"; "last_hand" is derived (see ``phase``).
            "phase": "tricks",
        }
        state.update(self.fresh_round(players))
        return state

    @staticmethod
    def fresh_round(players: list[str]) -> dict:
        """The parts of the state that start over every round."""
        return {
            "piles": {name: {"romans": [], "pirates": [], "choice": None} for name in players},
            "hands": {name: {"gauls": HAND_GAULS, "idefix": True, "out": False} for name in players},
            "last_player": None,
            "draws_left": 0,
            "clashes": 0,
            "typed": [],  # whose Romans were typed in this round (enter_romans)
        }

    # -- the moves: when --------------------------------------------------------------
    def phase(self, state: dict) -> str:
        """The stored phase, except that tricks with one player left holding cards are the last hand."""
        if state["phase"] == "tricks" and len(still_in(state)) == 1:
            return "last_hand"
        return state["phase"]

    def expected(self, state: dict) -> Sentence:
        phase = self.phase(state)
        if phase == "tricks":
            return Sentence(
                "Round %(round)s is still being played (%(cards)s in the deck): %(players)s still "
                "hold cards; finish the tricks or type in the piles.",
                round=state["round"], cards=cards_word(deck_left(state)), players=and_list(still_in(state)),
            )
        if phase == "last_hand":
            return Sentence(
                "Only %(player)s still holds cards; say how many are left to finish the round.",
                player=still_in(state)[0],
            )
        if phase == "drawing":
            return plural_sentence(
                "%(player)s is taking %(count)s more card from the deck; only that one can be recorded now.",
                "%(player)s is taking %(count)s more cards from the deck; only those can be recorded now.",
                state["draws_left"], player=state["last_player"],
            )
        if phase == "scoring" and piles_missing(state):
            return Sentence(
                "Round %(round)s is being typed in: type in the Romans of %(players)s and close "
                "the round, or undo.",
                round=state["round"], players=and_list(piles_missing(state)),
            )
        if phase == "scoring":
            return Sentence(
                "The tricks of round %(round)s are over; correct the piles on the scoring screen "
                "and close the round, or undo.",
                round=state["round"],
            )
        return self.status(state)

    # -- results -----------------------------------------------------------------------
    def scores(self, state: dict) -> dict[str, int]:
        return totals(state)

    def winners(self, state: dict) -> list[str]:
        if not state["finished"]:
            return []
        return self.best(totals(state))

    def status(self, state: dict) -> Sentence:
        winners = self.winners(state)
        if winners:
            best = totals(state)[winners[0]]
            if len(winners) == 1:
                return plural_sentence("%(player)s wins with %(count)s point!",
                                       "%(player)s wins with %(count)s points!", best,
                                       player=winners[0])
            return plural_sentence("%(players)s share the win with %(count)s point each.",
                                   "%(players)s share the win with %(count)s points each.", best,
                                   players=and_list(winners))
        where = {"round": state["round"], "rounds": state["rounds"]}
        if state["phase"] == "scoring" and piles_missing(state):
            return Sentence("Round %(round)s of %(rounds)s · typing in the piles: the Romans of "
                            "%(players)s are still to come.", players=and_list(piles_missing(state)),
                            **where)
        if state["phase"] == "scoring":
            return Sentence("Round %(round)s of %(rounds)s · scoring: check the piles and the escapes, "
                            "then close the round.", **where)
        if state["phase"] == "drawing":
            return plural_sentence("Round %(round)s of %(rounds)s · %(player)s takes %(count)s more card from the deck.",
                                   "Round %(round)s of %(rounds)s · %(player)s takes %(count)s more cards from the deck.",
                                   state["draws_left"], player=state["last_player"], **where)
        holding = still_in(state)
        if len(holding) == 1:
            return Sentence("Round %(round)s of %(rounds)s · only %(player)s still holds cards: say how many are left.",
                            player=holding[0], **where)
        return plural_sentence(
            "Round %(round)s of %(rounds)s · %(count)s card in the deck · who won the face-up card?",
            "Round %(round)s of %(rounds)s · %(count)s cards in the deck · who won the face-up card?",
            deck_left(state), **where)

    def view(self, state: dict) -> dict:
        return table_view(state, self.phase(state), self.winners(state))

    # -- teaching mode ("Our first game", games/coach.py) --------------------------------
    def coach(self, state: dict):
        return coach(state)

    def intro(self, state: dict):
        return intro(state)

    # -- quick score (page and JSON) ---------------------------------------------------
    def quick_score(self, payload: dict) -> dict:
        return quick_score(payload)

    def quick_score_payload(self, form: dict[str, list[str]]) -> dict:
        """The quick-score page's rows (name, Romans, pirates) and settings as a quick_score payload."""
        return quick_score_payload(form)

    # -- for tests that play random games -----------------------------------------------
    def sample_payloads(self, state: dict, kind: str) -> list[dict]:
        """Payloads naming the cards that are really left in the deck or in the piles, which a
        generic guess from the payload models would rarely hit."""
        players = state["players"]
        in_deck = [int(value) for value, count in romans_left(state).items() if count > 0]
        takers = [state["last_player"]] if state["phase"] == "drawing" else still_in(state)
        if kind in ("win_roman", "add_roman"):
            return [{"type": kind, "player": p, "value": v} for p in takers or players for v in in_deck]
        if kind in ("win_pirate", "add_pirate"):
            kinds = pirates_left(state)
            return [{"type": kind, "player": p, "kind": k} for p in takers or players for k in kinds]
        if kind == "idefix_look":
            dogs = [p for p in still_in(state) if state["hands"][p]["idefix"]]
            seen = [{"roman": v} for v in in_deck[:3]] + [{"pirate": k} for k in pirates_left(state)]
            return [{"type": kind, "player": p, **card} for p in dogs for card in seen]
        piles = state["piles"]
        if kind == "remove_roman":
            return [{"type": kind, "player": p, "value": v} for p in players for v in piles[p]["romans"]]
        if kind == "remove_pirate":
            return [{"type": kind, "player": p, "kind": k} for p in players for k in piles[p]["pirates"]]
        if kind == "choose_escape":
            return [{"type": kind, "player": p} for p in players if "choice" in piles[p]["pirates"]]
        return []


__all__ = ["Kartenspiel", "KartenspielOptions", "quick_score", "work_out_pile"]
