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
* The pirate of choice takes the Roman whose loss costs its owner the fewest points (value plus
  the set bonus it breaks; the lower value on a tie) unless the owner names another value.
* When two or more Idefixes clash, nobody looks and no card leaves the deck; the face-up Roman
  still goes to the highest Gaul played, tapped as usual. If every player still in the round
  played Idefix, no Gaul was played, so that Roman stays face up for the next trick.
"""

from __future__ import annotations

from ..base import Game, Move
from .cards import (
    GAULS,
    HAND_GAULS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RANKS,
    and_list,
    deck_left,
    pirates_in_deck,
    pirates_left,
    plural,
    romans_in_deck,
    romans_left,
    still_in,
)
from .options import LANGUAGES, KartenspielOptions
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

# The phases of a round (``Kartenspiel.phase``):
#   "tricks"    tricks are tapped while two or more players still hold cards;
#   "last_hand" only one player still holds cards and says how many;
#   "drawing"   that player takes one card from the deck per card held;
#   "scoring"   the piles are final: check, correct, name the escape, close the round;
#   "over"      the last round is closed.


class Kartenspiel(Game):
    id = "kartenspiel"
    name = "Asterix: Das Kartenspiel"
    summary = (
        "Tricks won with Gauls, Romans in the score piles, pirates letting them escape, "
        "set bonuses and four rounds of totals."
    )
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options_model = KartenspielOptions
    # Moves without phases may be made at any time until the game is over: choosing Gauls,
    # and typing in or correcting piles (which ends the trick taps of the round).
    moves = (
        Move(ChooseGaul, choose_gaul),
        Move(WinRoman, win_card, phases=("tricks", "drawing"), check=romans_in_deck),
        Move(WinPirate, win_card, phases=("tricks", "drawing"), check=pirates_in_deck),
        Move(IdefixLook, idefix_look, phases=("tricks",), check=a_dog_can_look),
        Move(IdefixClash, idefix_clash, phases=("tricks",)),
        # Also with one player left: the taps may have missed that this one is empty too.
        Move(PlayerOut, player_out, phases=("tricks", "last_hand")),
        Move(LastPlayer, last_player, phases=("last_hand",)),
        Move(EnterRomans, enter_romans),
        Move(AddRoman, add_roman, check=romans_in_deck),
        Move(RemoveRoman, remove_roman, check=piles_hold_romans),
        Move(AddPirate, add_pirate, check=pirates_in_deck),
        Move(RemovePirate, remove_pirate, check=piles_hold_pirates),
        Move(ChooseEscape, choose_escape, check=choice_pirate_held),
        Move(CloseRound, close_round, phases=("scoring",)),
    )
    regions = ("deck", "piles", "scoring", "totals", "entry")
    quick_score_model = QuickScoreRequest

    # -- setup -------------------------------------------------------------------------
    def initial_state(self, players: list[str], options: KartenspielOptions) -> dict:
        state = {
            "players": list(players),
            "language": LANGUAGES[options.language],
            "deck": options.deck(),
            "ranks": {rank: getattr(options, rank) for rank in RANKS},
            "bonus": {"2": options.pair_bonus, "3": options.three_bonus, "4": options.four_bonus},
            "rounds": options.rounds,
            "gauls": {name: key for name, key in zip(players, GAULS)},
            "round": 1,
            "closed": [],
            "finished": False,
        }
        state.update(self.fresh_round(players))
        return state

    @staticmethod
    def fresh_round(players: list[str]) -> dict:
        """The parts of the state that start over every round."""
        return {
            # "tricks", "drawing" or "scoring"; "last_hand" is derived (see ``phase``).
            "phase": "tricks",
            "piles": {name: {"romans": [], "pirates": [], "choice": None} for name in players},
            "hands": {name: {"gauls": HAND_GAULS, "idefix": True, "out": False} for name in players},
            "last_player": None,
            "draws_left": 0,
            "clashes": 0,
        }

    # -- the moves: when --------------------------------------------------------------
    def phase(self, state: dict) -> str:
        """The stored phase, except that tricks with one player left holding cards are the last hand."""
        if state["phase"] == "tricks" and len(still_in(state)) == 1:
            return "last_hand"
        return state["phase"]

    def expected(self, state: dict) -> str:
        phase = self.phase(state)
        if phase == "tricks":
            cards = plural(deck_left(state), "card")
            return (
                f"Round {state['round']} is still being played ({cards} in the deck): "
                f"{and_list(still_in(state))} still hold cards; finish the tricks or type in the piles."
            )
        if phase == "last_hand":
            return f"Only {still_in(state)[0]} still holds cards; say how many are left to finish the round."
        if phase == "drawing":
            return (
                f"{state['last_player']} is taking {plural(state['draws_left'], 'more card')} from the deck; "
                "only those can be recorded now."
            )
        if phase == "scoring":
            return (
                f"The tricks of round {state['round']} are over; correct the piles on the scoring screen "
                "and close the round, or undo."
            )
        return self.status(state)

    # -- results -----------------------------------------------------------------------
    def scores(self, state: dict) -> dict[str, int]:
        return totals(state)

    def winners(self, state: dict) -> list[str]:
        if not state["finished"]:
            return []
        return self.best(totals(state))

    def status(self, state: dict) -> str:
        winners = self.winners(state)
        if winners:
            best = totals(state)[winners[0]]
            if len(winners) == 1:
                return f"{winners[0]} wins with {best} point{'' if abs(best) == 1 else 's'}!"
            return (f"{and_list(winners)} share the win with {best} "
                    f"point{'' if abs(best) == 1 else 's'} each.")
        where = f"Round {state['round']} of {state['rounds']}"
        if state["phase"] == "scoring":
            return f"{where} · scoring: check the piles and the escapes, then close the round."
        if state["phase"] == "drawing":
            draws = plural(state["draws_left"], "more card")
            return f"{where} · {state['last_player']} takes {draws} from the deck."
        holding = still_in(state)
        if len(holding) == 1:
            return f"{where} · only {holding[0]} still holds cards: say how many are left."
        return f"{where} · {plural(deck_left(state), 'card')} in the deck · who won the face-up card?"

    def view(self, state: dict) -> dict:
        return table_view(state, self.phase(state), self.winners(state))

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
