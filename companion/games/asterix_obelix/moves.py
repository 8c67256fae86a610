"""The moves around the attacks: the start, refilling the last holes, blocking a line, and
the logged corrections. Same shape as attack.py: payload, rule, check."""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from ..base import Action, GameError, Whole
from .attack import after_refill, end_game, pass_turn
from .cards import (COLOUR_LIST, COMPOSITION, FEAST_COUNT, LEGIONARIES_PER_COLOUR, PIRATE_COUNT,
                    SUPPLY_AT_START, Colour, LineKind, LineNumber, PileItem, Reason, card_key, make_card,
                    plural)
from .formation import accounted, cell, feast_total, line_label, opponent


class StartGame(Action):
    """The setup checklist is done; name who makes the first attack."""

    type: Literal["start_game"] = "start_game"
    starter: str = Field(description="The player who attacks first.")


class FillHole(Action):
    """Put one of the last supply cards into a hole of the formation."""

    type: Literal["fill_hole"] = "fill_hole"
    row: LineNumber = Field(description="The hole's row (1–4, from the top).")
    column: LineNumber = Field(description="The hole's column (1–4, from the left).")


class BlockLine(Action):
    """Block a row or column for the opponent's next attack."""

    type: Literal["block_line"] = "block_line"
    line: LineKind = Field(description="row or column")
    number: LineNumber = Field(description="Rows count from the top, columns from the left (1–4).")


class SkipBlock(Action):
    """End the turn without blocking a line."""

    type: Literal["skip_block"] = "skip_block"


class CorrectPile(Action):
    """Fix a mis-tap: set how many cards of one sort a player's secured pile holds."""

    type: Literal["correct_pile"] = "correct_pile"
    player: str = Field(description="Whose secured pile to change.")
    item: PileItem = Field(description="legionary, centurion, pirate or traitor")
    colour: Optional[Colour] = Field(None, description="Needed for legionaries and centurions.")
    count: Whole = Field(ge=0, le=LEGIONARIES_PER_COLOUR, description="The right number of cards.")
    reason: Reason = Field(description="Why; shown in the log.")


class CorrectFeasts(Action):
    """Fix a mis-tap: set how many village feasts lie beside the formation."""

    type: Literal["correct_feasts"] = "correct_feasts"
    count: Whole = Field(ge=0, le=FEAST_COUNT, description="Feasts set aside beside the formation.")
    reason: Reason = Field(description="Why; shown in the log.")


# -- the start, the last holes and the block -------------------------------------------------
def start_game(game, state: dict, action: StartGame, actor: str | None) -> str:
    if action.starter not in state["players"]:
        raise GameError(f"There is no player called '{action.starter}' at this table.")
    state["starter"] = action.starter
    state["attacker"] = action.starter
    state["turn"] = 1
    state["phase"] = "choose_line"
    return (f"The setup is done: 16 cards form the tortoise, {SUPPLY_AT_START} wait in the "
            f"supply, and {action.starter} attacks first.")


def fill_hole(game, state: dict, action: FillHole, actor: str | None) -> str:
    if cell(state, action.row, action.column)["state"] != "empty":
        raise GameError(f"Row {action.row}, column {action.column} is not a hole; pick an empty place.")
    attacker = state["attacker"]
    state["grid"][action.row - 1][action.column - 1] = {"state": "down", "card": None}
    state["supply"] -= 1
    if state["supply"] == 0:
        after_refill(state)
    return f"{attacker} put a supply card into row {action.row}, column {action.column}."


def block_line(game, state: dict, action: BlockLine, actor: str | None) -> str:
    # Every card lies in a row and a column, so a block never leaves the opponent stuck.
    attacker = state["attacker"]
    blocked_for = opponent(state, attacker)
    state["blocked"] = {"line": action.line, "number": action.number, "for": blocked_for}
    pass_turn(state)
    return f"{attacker} blocked {line_label(action.line, action.number)} for {blocked_for}'s next attack."


def skip_block(game, state: dict, action: SkipBlock, actor: str | None) -> str:
    attacker = state["attacker"]
    pass_turn(state)
    return f"{attacker} blocked no line."


# -- corrections ---------------------------------------------------------------------------
def item_words(item: str, colour: str | None) -> str:
    """The pile entry a correction changes, as the log names it."""
    return {"legionary": f"{colour} legionaries", "centurion": f"{colour} centurion",
            "pirate": "pirates", "traitor": "traitor"}[item]


def correct_pile(game, state: dict, action: CorrectPile, actor: str | None) -> str:
    if action.player not in state["players"]:
        raise GameError(f"There is no player called '{action.player}' at this table.")
    pile = state["secured"][action.player]
    item, colour, count = action.item, action.colour, action.count
    if item in ("legionary", "centurion") and colour is None:
        raise GameError(f"Say which colour of {item} to correct: {COLOUR_LIST}.")
    limit = {"legionary": LEGIONARIES_PER_COLOUR, "centurion": 1, "pirate": PIRATE_COUNT, "traitor": 1}[item]
    if count > limit:
        raise GameError(f"A pile can hold at most {limit} of the {item_words(item, colour)}.")
    if item == "legionary":
        before, pile["legionaries"][colour] = pile["legionaries"][colour], count
    elif item == "centurion":
        before, pile["centurions"][colour] = pile["centurions"][colour], count
    elif item == "pirate":
        before, pile["pirates"] = pile["pirates"], count
    else:
        before, pile["traitor"] = pile["traitor"], count
    key = card_key(make_card(item, colour))
    seen = accounted(state)[key]
    if seen > COMPOSITION[key]:
        elsewhere = seen - count
        raise GameError(
            f"{action.player} cannot hold {count} of the {item_words(item, colour)}: "
            f"{elsewhere} more {'is' if elsewhere == 1 else 'are'} already accounted for elsewhere "
            f"and only {COMPOSITION[key]} exist."
        )
    return (f"{actor or 'The host'} corrected {action.player}'s {item_words(item, colour)} "
            f"from {before} to {count} (reason: {action.reason}).")


def correct_feasts(game, state: dict, action: CorrectFeasts, actor: str | None) -> str:
    before = state["feasts_set_aside"]
    turned = feast_total(state) - before
    if action.count + turned > FEAST_COUNT:
        raise GameError(
            f"With {plural(turned, 'feast')} turned in this attack, at most "
            f"{FEAST_COUNT - turned} can lie beside the formation."
        )
    state["feasts_set_aside"] = action.count
    sentence = (f"{actor or 'The host'} corrected the feasts beside the formation from "
                f"{before} to {action.count} (reason: {action.reason}).")
    if feast_total(state) >= FEAST_COUNT:
        # The fifth feast was missed: the game ends, keeping a running attack's cards.
        end_game(state)
        sentence += " That makes five feasts: the game is over."
    return sentence
