"""How an attack begins and ends: the figure placed before a line; at the end the cards
cleared off the formation, the hand drawn back to 5, the holes filled from the supply, the
turn passed on (or the game over). Rules of attack.py and moves.py call these."""

from __future__ import annotations

from ..base import GameError, enter_phase
from ..text import N_, Sentence, plural_sentence
from .cards import GRID_SIZE, add_to_pile
from .formation import (defeated_cards, face_down_in, feast_total, fight_cards, holes, is_blocked, line_label,
                        line_title, refill_plan)


SIDES = {"left": N_("left"), "right": N_("right"), "top": N_("top"), "bottom": N_("bottom")}


def start_line(state: dict, line: str, number: int, start: str | None, attack_number: int) -> Sentence:
    """Stand the figure before a line; returns 'row 3 from the right' for the log."""
    if start is None:
        start = "left" if line == "row" else "top"
    if (line == "row") != (start in ("left", "right")):
        if line == "row":
            raise GameError(Sentence("A row is attacked from the left or right, not from the %(side)s.",
                                     side=SIDES[start]))
        raise GameError(Sentence("A column is attacked from the top or bottom, not from the %(side)s.",
                                 side=SIDES[start]))
    if is_blocked(state, line, number):
        raise GameError(Sentence("%(line)s is blocked for %(player)s's attack; choose another line.",
                                 line=line_title(line, number), player=state["attacker"]))
    face_down = face_down_in(state, line, number)
    if not face_down:
        raise GameError(Sentence("%(line)s has no face-down card left; choose another line.",
                                 line=line_title(line, number)))
    state["attack"] = {
        "line": line,
        "number": number,
        "start": start,
        "position": -1,
        "full_line": face_down == GRID_SIZE,
        "revealed_in_line": 0,
        "looked": None,
        "spent": 0,
        "pending": False,
        "last": None,
        "attacks_this_turn": attack_number,
    }
    enter_phase(state, "attack")
    return line_from(line, number, start)


def line_from(line: str, number: int, start: str) -> Sentence:
    """'row 3 from the right' / 'Zeile 3 von rechts'."""
    label = line_label(line, number)
    return {"left": Sentence("%(line)s from the left", line=label),
            "right": Sentence("%(line)s from the right", line=label),
            "top": Sentence("%(line)s from the top", line=label),
            "bottom": Sentence("%(line)s from the bottom", line=label)}[start]


def clear_attack_cells(state: dict, secure: bool) -> None:
    """Secure (or discard) this attack's defeated cards and set its feasts aside."""
    attacker = state["attacker"]
    for row in state["grid"]:
        for index, place in enumerate(row):
            if place["state"] == "defeated":
                if secure:
                    add_to_pile(state["secured"][attacker], place["card"])
                else:
                    state["out_of_game"].append({"card": place["card"], "reason": "failed attack",
                                                 "player": attacker})
                row[index] = {"state": "empty", "card": None}
            elif place["state"] == "feast":
                state["feasts_set_aside"] += 1
                row[index] = {"state": "empty", "card": None}
    state["attack"] = None


def finish_attack(state: dict, secure: bool, how: str) -> None:
    """End of an attack (``how``: stopped, failed or boar): cards off the formation, the hand
    refilled, the holes filled from the supply, then the block. What the table does is kept
    in ``tidy`` for the coach to say."""
    attacker, attack = state["attacker"], state["attack"]
    spent = attack["spent"]
    catch = len(defeated_cards(state))
    # The boar as the fourth card of a full line breaks the formation, yet earns no further attack.
    fourth = how == "boar" and attack["full_line"] and attack["revealed_in_line"] == GRID_SIZE
    feasts = feast_total(state) - state["feasts_set_aside"]
    clear_attack_cells(state, secure)
    state["blocked"] = None  # a block held only for the turn that just ended
    plan = refill_plan(state, attacker, spent)
    gaps = holes(state)
    state["tidy"] = {"player": attacker, "how": how, "cards": catch, "feasts": feasts, "fourth": fourth, **plan,
                     "filled": 0, "open": 0, "by_hand": False}
    if plan["runs_out"]:
        end_game(state, ran_out=attacker)
        return
    draw_fight_cards(state, attacker, plan)
    if len(gaps) <= state["supply"]:
        for row, column in gaps:
            state["grid"][row - 1][column - 1] = {"state": "down", "card": None}
        state["supply"] -= len(gaps)
        state["tidy"]["filled"] = len(gaps)
        after_refill(state)
    elif state["supply"] == 0:
        state["tidy"]["open"] = len(gaps)
        after_refill(state)
    else:
        state["tidy"].update(by_hand=True, to_place=state["supply"])
        enter_phase(state, "refill")  # fewer supply cards than holes: the attacker places them


def draw_fight_cards(state: dict, player: str, plan: dict) -> None:
    """The fight cards paid go onto the discard pile; the hand is drawn back to 5 (the
    discards shuffled into a new draw pile first when the table plays it so)."""
    piles = dict(fight_cards(state, player))
    piles["discard"] += plan["draw"]
    piles["pile"] -= plan["from_pile"]
    if plan["reshuffle"]:
        piles["pile"], piles["discard"] = piles["discard"] - (plan["draw"] - plan["from_pile"]), 0
    state.setdefault("fight_cards", {})[player] = piles


def after_refill(state: dict) -> None:
    if state["options"]["blocking"]:
        enter_phase(state, "block")
    else:
        pass_turn(state)


def pass_turn(state: dict) -> None:
    first, second = state["players"]
    state["attacker"] = second if state["attacker"] == first else first
    state["turn"] += 1
    enter_phase(state, "choose_line")


def end_game(state: dict, ran_out: str | None = None) -> None:
    """The fifth feast (or, as the table may set, a draw pile that cannot refill the hand of
    ``ran_out``): the attack stops, its defeated cards are kept, scoring follows."""
    clear_attack_cells(state, secure=True)
    enter_phase(state, "over")
    state["finished"] = True
    state["ran_out"] = ran_out


def with_refill_note(sentence: Sentence, state: dict, supply_before: int) -> Sentence:
    """A log sentence followed by what the end of the attack did with the supply."""
    if state["phase"] == "refill":
        return Sentence("%(sentence)s The supply holds only %(cards)s for %(holes)s holes.", sentence=sentence,
                        cards=plural_sentence("%(count)s card", "%(count)s cards", state["supply"]),
                        holes=len(holes(state)))
    used = supply_before - state["supply"]
    if used:
        return Sentence("%(sentence)s %(cards)s refilled the formation (%(left)s left).", sentence=sentence,
                        cards=plural_sentence("%(count)s supply card", "%(count)s supply cards", used),
                        left=state["supply"])
    return sentence
