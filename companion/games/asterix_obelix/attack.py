"""An attack, card by card: its moves, what each does to the table, and its log sentence.

Each rule is ``rule(game, state, action, actor) -> sentence``: it changes ``state`` (the
game's own copy) and says what happened; a check returns None or why the move is not
possible now. The phases and whose turn it is are declared in the game's table of moves.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from ..base import Action, GameError
from .cards import (COMPOSITION, FEAST_COUNT, GRID_SIZE, CardKind, Colour, LineKind, LineNumber, LineStart,
                    add_to_pile, card_key, card_name, impossible, make_card, plural)
from .formation import (accounted, cell, defeated_cards, face_down_in, feast_total, formation_broken, holes,
                        is_blocked, last_in_line, last_turned, line_label, next_in_line)


class ChooseLine(Action):
    """Place the attacker's figure in front of a row or a column."""

    type: Literal["choose_line"] = "choose_line"
    line: LineKind = Field(description="row or column")
    number: LineNumber = Field(description="Rows count from the top, columns from the left (1–4).")
    start: Optional[LineStart] = Field(
        None, description="The end the figure stands at: left/right for a row, top/bottom for a "
        "column. Empty: left or top.",
    )


class LookAtLastCard(Action):
    """Note that the attacker discarded a fight card to peek at the line's last card."""

    type: Literal["look_at_last_card"] = "look_at_last_card"


class RevealCard(Action):
    """Turn over the next face-down card of the attacked line and say what it is."""

    type: Literal["reveal_card"] = "reveal_card"
    kind: Optional[CardKind] = Field(
        None, description="legionary, centurion, pirate, traitor, boar or feast. Empty only for "
        "a card already known from a failed attack.",
    )
    colour: Optional[Colour] = Field(
        None, description="The legion colour of a legionary or centurion (black is purple); "
        "ignored for other cards.",
    )


class NoMatchingCard(Action):
    """The attacker cannot beat the card just turned over: the attack fails."""

    type: Literal["no_matching_card"] = "no_matching_card"


class EndAttack(Action):
    """Stop attacking and secure this attack's defeated cards."""

    type: Literal["end_attack"] = "end_attack"


class FurtherAttack(Action):
    """After breaking the formation, attack a new line with a full hand."""

    type: Literal["further_attack"] = "further_attack"
    line: LineKind = Field(description="row or column")
    number: LineNumber = Field(description="Rows count from the top, columns from the left (1–4).")
    start: Optional[LineStart] = Field(
        None, description="left/right for a row, top/bottom for a column. Empty: left or top.",
    )


# -- checks ---------------------------------------------------------------------------
def _label(state: dict) -> str:
    return line_label(state["attack"]["line"], state["attack"]["number"])


def can_look(game, state: dict) -> str | None:
    if state["attack"]["revealed_in_line"]:
        return "The last card can only be looked at before the first card of the line is turned."
    if state["attack"]["looked"]:
        return "The last card of this line was already looked at."
    return None


def can_reveal(game, state: dict) -> str | None:
    if next_in_line(state) is None:
        return (f"No face-down card is left in {_label(state)}; end the attack"
                + (" or take the further attack." if formation_broken(state) else "."))
    return None


def can_fail(game, state: dict) -> str | None:
    last = last_turned(state)
    if last is not None and last["state"] == "feast":
        return "A village feast needs no fight card, so the attack cannot fail on it."
    if last is None or last["state"] != "defeated":
        return "Turn over a card first; an attack fails only on a card just turned."
    return None


def can_end(game, state: dict) -> str | None:
    if not state["attack"]["revealed_in_line"]:
        return f"Turn over the first card of {_label(state)} before ending the attack."
    return None


def can_further_attack(game, state: dict) -> str | None:
    if formation_broken(state):
        return None
    if next_in_line(state) is not None:
        return "The line still has face-down cards; a further attack comes only after all four are beaten."
    if not state["attack"]["full_line"]:
        return ("The line had fewer than four face-down cards when the attack on it began, "
                "so the formation is not broken.")
    if len(holes(state)) > state["supply"]:
        return ("The supply can no longer fill every hole of the formation, "
                "so breaking it no longer earns a further attack.")
    return "No further attack is possible now; end the attack to secure the cards."


# -- rules -------------------------------------------------------------------------------
def choose_line(game, state: dict, action: ChooseLine, actor: str | None) -> str:
    where = start_line(state, action.line, action.number, action.start, 1)
    return f"{state['attacker']} attacks {where}."


def further_attack(game, state: dict, action: FurtherAttack, actor: str | None) -> str:
    if state["options"]["block_lasts"] == "attack":
        state["blocked"] = None  # the block covered only the first attack of the turn
    where = start_line(state, action.line, action.number, action.start,
                       state["attack"]["attacks_this_turn"] + 1)
    return f"{state['attacker']} broke the formation and took a further attack on {where} with a full hand."


def look_at_last_card(game, state: dict, action: LookAtLastCard, actor: str | None) -> str:
    attack = state["attack"]
    row, column = last_in_line(state)
    attack["looked"] = {"row": row, "column": column}
    attack["spent"] += 1
    return f"{state['attacker']} gave up a fight card to look at the last card of {_label(state)}."


def reveal_card(game, state: dict, action: RevealCard, actor: str | None) -> str:
    attacker, attack = state["attacker"], state["attack"]
    index, row, column = next_in_line(state)
    known = cell(state, row, column)["card"]
    if action.kind is None:
        if known is None:
            raise GameError("Say what the card is: legionary, centurion, pirate, traitor, boar or feast.")
        card = dict(known)
    else:
        card = make_card(action.kind, action.colour)
    seen = accounted(state)
    if known is not None:
        seen[card_key(known)] -= 1  # the same physical card, not a second one
    if seen[card_key(card)] >= COMPOSITION[card_key(card)]:
        raise GameError(impossible(card))
    kept, supply = len(defeated_cards(state)), state["supply"]

    state["revealed"].append({"player": attacker, "card": card, "row": row, "column": column,
                              "again": known is not None})
    attack["position"] = index
    attack["revealed_in_line"] += 1
    attack["last"] = {"row": row, "column": column}
    kind = card["kind"]
    if kind == "boar":
        state["grid"][row - 1][column - 1] = {"state": "empty", "card": None}
        state["out_of_game"].append({"card": card, "reason": "wild boar", "player": attacker})
        finish_attack(state, secure=True)
    elif kind == "feast":
        state["grid"][row - 1][column - 1] = {"state": "feast", "card": card}
        if feast_total(state) >= FEAST_COUNT:
            end_game(state)
    else:
        state["grid"][row - 1][column - 1] = {"state": "defeated", "card": card}
        attack["spent"] += 2 if kind == "traitor" else 1

    note = ""
    if known is not None:
        note = " (turned over again)" if known == card else f" (it had been noted as {card_name(known)})"
    if state["finished"]:
        ending = (f"{attacker} keeps {plural(kept, 'defeated card')} of this attack" if kept
                  else "nothing was defeated in this attack")
        return f"{attacker} turned over the fifth village feast{note}: the game is over and {ending}."
    if kind == "boar":
        ending = (f"{attacker} secures {plural(kept, 'defeated card')}" if kept
                  else "nothing was defeated before it")
        return (f"{attacker} turned over the wild boar{note}: the attack ends, the boar leaves "
                f"the game and {ending}." + refill_note(state, supply))
    if kind == "feast":
        sentence = f"{attacker} turned over a village feast{note} ({feast_total(state)} of 5)."
    elif kind == "traitor":
        sentence = f"{attacker} turned over the traitor{note} and beat him with two fight cards of one colour."
    elif kind == "pirate":
        sentence = f"{attacker} turned over a pirate{note} and beat him with a fight card."
    else:
        sentence = f"{attacker} turned over {card_name(card)}{note} and beat him with a {card['colour']} fight card."
    if formation_broken(state):
        sentence += " The formation is broken: a further attack is possible."
    return sentence


def no_matching_card(game, state: dict, action: NoMatchingCard, actor: str | None) -> str:
    attacker, supply = state["attacker"], state["supply"]
    last = last_turned(state)
    card = last["card"]
    lost = defeated_cards(state)[:-1]
    last["state"] = "down"  # turned back face down where it lay; its face is now known
    finish_attack(state, secure=False)
    sentence = (f"{attacker} had no fight card for {card_name(card)}: the attack failed "
                "and the card went back face down")
    if lost:
        sentence += f"; {plural(len(lost), 'defeated card')} left the game"
    return sentence + "." + refill_note(state, supply)


def end_attack(game, state: dict, action: EndAttack, actor: str | None) -> str:
    attacker, supply = state["attacker"], state["supply"]
    won = defeated_cards(state)
    finish_attack(state, secure=True)
    if won:
        sentence = (f"{attacker} ended the attack and secured {plural(len(won), 'card')}: "
                    + ", ".join(card_name(card) for card in won) + ".")
    else:
        sentence = f"{attacker} ended the attack without securing a card."
    return sentence + refill_note(state, supply)


# -- how an attack begins and ends --------------------------------------------------------
def start_line(state: dict, line: str, number: int, start: str | None, attack_number: int) -> str:
    """Stand the figure before a line; returns 'row 3 from the right' for the log."""
    if start is None:
        start = "left" if line == "row" else "top"
    if (line == "row") != (start in ("left", "right")):
        sides = "left or right" if line == "row" else "top or bottom"
        raise GameError(f"A {line} is attacked from the {sides}, not from the {start}.")
    label = line_label(line, number)
    if is_blocked(state, line, number):
        raise GameError(f"{label.capitalize()} is blocked for {state['attacker']}'s attack; choose another line.")
    face_down = face_down_in(state, line, number)
    if not face_down:
        raise GameError(f"{label.capitalize()} has no face-down card left; choose another line.")
    state["attack"] = {
        "line": line,
        "number": number,
        "start": start,
        "position": -1,
        "full_line": face_down == GRID_SIZE,
        "revealed_in_line": 0,
        "looked": None,
        "spent": 0,
        "last": None,
        "attacks_this_turn": attack_number,
    }
    state["phase"] = "attack"
    return f"{label} from the {start}"


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


def finish_attack(state: dict, secure: bool) -> None:
    """End of an attack: cards off the formation, refill from the supply, then the block."""
    clear_attack_cells(state, secure)
    state["blocked"] = None  # a block held only for the turn that just ended
    gaps = holes(state)
    if len(gaps) <= state["supply"]:
        for row, column in gaps:
            state["grid"][row - 1][column - 1] = {"state": "down", "card": None}
        state["supply"] -= len(gaps)
        after_refill(state)
    elif state["supply"] == 0:
        after_refill(state)
    else:
        state["phase"] = "refill"  # fewer supply cards than holes: the attacker places them


def after_refill(state: dict) -> None:
    if state["options"]["blocking"]:
        state["phase"] = "block"
    else:
        pass_turn(state)


def pass_turn(state: dict) -> None:
    first, second = state["players"]
    state["attacker"] = second if state["attacker"] == first else first
    state["turn"] += 1
    state["phase"] = "choose_line"


def end_game(state: dict) -> None:
    """The fifth feast: the attack stops, its defeated cards are kept, scoring follows."""
    clear_attack_cells(state, secure=True)
    state["phase"] = "over"
    state["finished"] = True


def refill_note(state: dict, supply_before: int) -> str:
    """What the end of an attack did with the supply, for the end of a log sentence."""
    if state["phase"] == "refill":
        return (f" The supply holds only {plural(state['supply'], 'card')} for "
                f"{len(holes(state))} holes.")
    used = supply_before - state["supply"]
    if used:
        return f" {plural(used, 'supply card')} refilled the formation ({state['supply']} left)."
    return ""
