"""Asterix & Obelix (Kosmos, 2006): two Gauls attack a 4x4 tortoise of Roman cards.

Pure rules for the table companion: the setup checklist, attacks card by card, the
formation-broken bonus attack, refilling and blocking, card counting with odds,
logged corrections, and the seven victory tokens. ``quick_score`` scores two piles
entered by hand for a game played without tracking.

The package: ``cards`` (the deck and the piles), ``formation`` (questions about the
tortoise), ``attack`` and ``moves`` (each move's payload, rule and check), ``scoring``
(the tokens), ``quick`` (the quick score) and ``view`` (what the page shows).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..base import Game, GameError, Move, Options, Phase
from ..text import N_, Sentence, plural_sentence
from .attack import (BeatCard, ChooseLine, EndAttack, FurtherAttack, LookAtLastCard, NoMatchingCard, RevealCard,
                     beat_card, can_beat, can_end, can_fail, can_further_attack, can_look, can_reveal, choose_line,
                     end_attack, further_attack, look_at_last_card, no_matching_card, reveal_card)
from .cards import FIGHT_CARDS_EACH, FIGHT_CARDS_IN_HAND, GRID_SIZE, SUPPLY_AT_START, card_name, empty_pile
from .coach import coach, intro
from .formation import feast_total, formation_broken, holes, line_label, next_in_line, opponent, pending_card
from .moves import (BlockLine, CorrectFeasts, CorrectPile, FillHole, SkipBlock, StartGame, block_line,
                    correct_feasts, correct_pile, fill_hole, skip_block, start_game)
from .quick import QuickScoreRequest, quick_score
from .scoring import score_piles, scoring
from .view import board_view, quick_score_payload

__all__ = ["AsterixObelix", "AsterixObelixOptions", "QuickScoreRequest", "quick_score", "score_piles"]

# The phases of a turn: choose a line, attack it, place the last supply cards, block a line.
TURN_PHASES = ("choose_line", "attack", "refill", "block")
GAME_OVER = Sentence("The game is over; only a secured pile can still be corrected.")


def supply_cards(count: int) -> Sentence:
    return plural_sentence("%(count)s supply card", "%(count)s supply cards", count)


class AsterixObelixOptions(Options):
    blocking: bool = Field(
        True, strict=True,
        title=N_("Blocking"),
        description=N_("After each attack the attacker blocks one row or column for the "
                       "opponent's next attack. Described by the overview, not by the rulebook; on by default."),
    )
    block_lasts: Literal["attack", "turn"] = Field(
        "attack",
        title=N_("Block lasts"),
        description=N_("How long a block holds: the opponent's next attack only (a further attack "
                       "after breaking the formation may use the line), or the opponent's whole turn. "
                       "The sources do not say; one attack is the assumption."),
        json_schema_extra={"choice_labels": {"attack": N_("The next attack"), "turn": N_("The whole turn")}},
    )
    fight_cards_out: Literal["reshuffle", "end"] = Field(
        "reshuffle",
        title=N_("When a fight-card pile runs out"),
        description=N_("The rulebook does not say. Shuffle the discards: a player whose draw pile cannot "
                       "refill the hand shuffles the discarded fight cards into a new draw pile (the default). "
                       "End the game: the tokens are given out at the end of that attack."),
        json_schema_extra={"choice_labels": {"reshuffle": N_("Shuffle the discards into a new pile"),
                                             "end": N_("End the game")}},
    )


class AsterixObelix(Game):
    id = "asterix-obelix"
    name = N_("Asterix & Obelix")  # the German edition is called "Asterix & Obelix" too
    summary = N_("Two Gauls beat up a 4 × 4 tortoise of Romans card by card; the fifth village "
                 "feast ends the game and seven tokens decide it.")
    min_players = 2
    max_players = 2
    options_model = AsterixObelixOptions
    # Rulebook: "the players take their turns (= attacks) alternately"; everything from
    # placing the figure to blocking a line is the attacker's. Corrections are anyone's.
    has_turns = True
    # A turn: choose a line, attack it, place the last supply cards by hand when they cannot
    # fill every hole, block a line for the opponent. Ending an attack secures its cards, draws
    # the hand back up and refills the holes (turns.finish_attack); the fifth feast (a correction
    # of the feasts too) or, as the table may set, a draw pile that runs out ends the game.
    phases = (
        Phase("setup", ends=("start_game",), then=("choose_line",)),
        Phase("choose_line", ends=("choose_line", "correct_feasts"), then=("attack", "over")),
        Phase("attack", ends=("reveal_card", "beat_card", "no_matching_card", "end_attack", "correct_feasts"),
              then=("refill", "block", "choose_line", "over")),
        Phase("refill", ends=("fill_hole", "correct_feasts"), then=("block", "choose_line", "over")),
        Phase("block", ends=("block_line", "skip_block", "correct_feasts"), then=("choose_line", "over")),
        Phase("over"),
    )
    moves = (
        Move(StartGame, start_game, phases=("setup",)),
        Move(ChooseLine, choose_line, phases=("choose_line",), turn="actor"),
        Move(LookAtLastCard, look_at_last_card, phases=("attack",), check=can_look, turn="actor"),
        Move(RevealCard, reveal_card, phases=("attack",), check=can_reveal, turn="actor"),
        Move(BeatCard, beat_card, phases=("attack",), check=can_beat, turn="actor"),
        Move(NoMatchingCard, no_matching_card, phases=("attack",), check=can_fail, turn="actor"),
        Move(EndAttack, end_attack, phases=("attack",), check=can_end, turn="actor"),
        Move(FurtherAttack, further_attack, phases=("attack",), check=can_further_attack, turn="actor"),
        Move(FillHole, fill_hole, phases=("refill",), turn="actor"),
        Move(BlockLine, block_line, phases=("block",), turn="actor"),
        Move(SkipBlock, skip_block, phases=("block",), turn="actor"),
        Move(CorrectPile, correct_pile, phases=TURN_PHASES + ("over",), after_end=True),
        Move(CorrectFeasts, correct_feasts, phases=TURN_PHASES),
    )
    regions = ("board", "piles", "odds", "scoring", "fix")
    quick_score_model = QuickScoreRequest

    def initial_state(self, players: list[str], options: AsterixObelixOptions) -> dict:
        if len(players) != 2:
            raise GameError(Sentence("Asterix & Obelix is for exactly two players."))
        return {
            "players": list(players),
            "options": options.model_dump(),
            "phase": "setup",
            "starter": None,
            "attacker": None,
            "turn": 0,
            "grid": [[{"state": "down", "card": None} for _ in range(GRID_SIZE)] for _ in range(GRID_SIZE)],
            "supply": SUPPLY_AT_START,
            "attack": None,
            "blocked": None,
            "feasts_set_aside": 0,
            "secured": {name: empty_pile() for name in players},
            "out_of_game": [],
            "revealed": [],
            "finished": False,
            # Each player's fight cards besides the 5 in hand: the draw pile and the discards.
            "fight_cards": {name: {"pile": FIGHT_CARDS_EACH - FIGHT_CARDS_IN_HAND, "discard": 0} for name in players},
            "tidy": None,  # what the table does after the last attack (refill, holes), for the coach
            "ran_out": None,  # whose draw pile ended the game, when the table plays it so
        }

    # -- whose turn, and what the table is expected to do ------------------------------------
    def turn_of(self, state: dict) -> str | None:
        """The attacker, from choosing a line to blocking one; nobody's during setup or after."""
        return state["attacker"] if state["phase"] in TURN_PHASES else None

    def give_turn(self, state: dict, player: str) -> None:
        """The turn under way becomes ``player``'s: they attack on from where the table stands
        (a running attack's cards are secured to them), then block for the other player."""
        state["attacker"] = player

    def expected(self, state: dict) -> Sentence:
        phase, attacker = state["phase"], state["attacker"]
        if phase == "setup":
            return Sentence("Finish the setup first, then tap who attacks first.")
        if phase == "choose_line":
            return Sentence("%(player)s first chooses a row or column to attack.", player=attacker)
        if phase == "attack" and pending_card(state):
            return Sentence("%(player)s first says whether the card just turned is beaten or the attack fails.",
                            player=attacker)
        if phase == "attack":
            return Sentence("%(player)s is in the middle of an attack; turn a card, end the attack "
                            "or say there is no matching card.", player=attacker)
        if phase == "refill":
            return Sentence("%(player)s first puts the last %(cards)s into holes of the formation.",
                            player=attacker, cards=supply_cards(state["supply"]))
        if phase == "block":
            return Sentence("%(player)s first blocks a line for the next attack, or skips the block.",
                            player=attacker)
        return GAME_OVER

    def why_not(self, state: dict, kind: str, player: str | None = None,
                seat: str | None = None) -> str | None:
        # Once over, say what can still be done rather than the general sentence.
        reason = super().why_not(state, kind, player, seat)
        if reason and self.is_over(state) and kind in self._moves and not self._moves[kind].after_end:
            return GAME_OVER
        return reason

    # -- results -----------------------------------------------------------------------------
    def scores(self, state: dict) -> dict[str, int]:
        """Tokens per player: final once over, the tokens as they would fall now while running."""
        return scoring(state)["points"]

    def winners(self, state: dict) -> list[str]:
        if not state["finished"]:
            return []
        return scoring(state)["winners"]

    def status(self, state: dict) -> Sentence:
        phase = state["phase"]
        attacker = state["attacker"]
        if phase == "setup":
            return Sentence("Setup: follow the checklist, then tap who attacks first.")
        if phase == "over" and state.get("ran_out"):
            return Sentence("Game over: %(player)s's draw pile ran out. %(verdict)s", player=state["ran_out"],
                            verdict=scoring(state)["verdict"])
        if phase == "over":
            return Sentence("Game over after the fifth feast: %(verdict)s", verdict=scoring(state)["verdict"])
        fields = {"player": attacker, "feasts": feast_total(state)}
        if phase == "choose_line":
            blocked = state["blocked"]
            if blocked and blocked["for"] == attacker:
                return Sentence("%(player)s's attack: choose a row or column (%(line)s is blocked) · "
                                "feasts %(feasts)s/5", line=line_label(blocked["line"], blocked["number"]),
                                **fields)
            return Sentence("%(player)s's attack: choose a row or column · feasts %(feasts)s/5", **fields)
        if phase == "attack":
            attack = state["attack"]
            label = line_label(attack["line"], attack["number"])
            if pending_card(state):
                return Sentence("%(player)s turned over %(card)s: beaten, or the attack fails · feasts %(feasts)s/5",
                                card=card_name(pending_card(state)), **fields)
            if formation_broken(state):
                return Sentence("%(player)s broke the formation: take a further attack or end and secure · "
                                "feasts %(feasts)s/5", **fields)
            if next_in_line(state) is None:
                return Sentence("%(player)s has turned every card of %(line)s: end the attack · "
                                "feasts %(feasts)s/5", line=label, **fields)
            if not attack["revealed_in_line"]:
                return Sentence("%(player)s stands before %(line)s: turn the first card · feasts %(feasts)s/5",
                                line=label, **fields)
            return Sentence("%(player)s attacks %(line)s: turn the next card or end the attack · "
                            "feasts %(feasts)s/5", line=label, **fields)
        if phase == "refill":
            return Sentence("%(player)s: place the last %(cards)s into %(holes)s holes · feasts %(feasts)s/5",
                            cards=supply_cards(state["supply"]), holes=len(holes(state)), **fields)
        return Sentence("%(player)s: block a line for %(opponent)s's next attack · feasts %(feasts)s/5",
                        opponent=opponent(state, attacker), **fields)

    def view(self, state: dict) -> dict:
        return board_view(self, state)

    def coach(self, state: dict):
        return coach(state)

    def intro(self, state: dict):
        return intro(state)

    def quick_score(self, payload: dict) -> dict:
        """Score two piles entered by hand (see quick.py)."""
        return quick_score(payload)

    def quick_score_payload(self, form: dict[str, list[str]]) -> dict:
        return quick_score_payload(form)
