"""The moves around the attacks: the start, refilling the last holes, blocking a line, and
the logged corrections. Same shape as attack.py: payload, rule, check."""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from ..base import Action, GameError, Whole, enter_phase, no_such_player
from ..text import N_, Sentence, plural_sentence
from .turns import after_refill, end_game, pass_turn
from .cards import (COLOUR_LIST, COMPOSITION, FEAST_COUNT, LEGIONARIES_PER_COLOUR, PIRATE_COUNT,
                    SUPPLY_AT_START, Colour, LineKind, LineNumber, PileItem, Reason, card_key, make_card)
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
def start_game(game, state: dict, action: StartGame, actor: str | None) -> Sentence:
    if action.starter not in state["players"]:
        raise no_such_player(action.starter)
    state["starter"] = action.starter
    state["attacker"] = action.starter
    state["turn"] = 1
    enter_phase(state, "choose_line")
    return Sentence("The setup is done: 16 cards form the tortoise, %(supply)s wait in the supply, "
                    "and %(player)s attacks first.", supply=SUPPLY_AT_START, player=action.starter)


def fill_hole(game, state: dict, action: FillHole, actor: str | None) -> Sentence:
    if cell(state, action.row, action.column)["state"] != "empty":
        raise GameError(Sentence("Row %(row)s, column %(column)s is not a hole; pick an empty place.",
                                 row=action.row, column=action.column))
    attacker = state["attacker"]
    state["grid"][action.row - 1][action.column - 1] = {"state": "down", "card": None}
    state["supply"] -= 1
    if state["supply"] == 0:
        after_refill(state)
    return Sentence("%(player)s put a supply card into row %(row)s, column %(column)s.", player=attacker,
                    row=action.row, column=action.column)


def block_line(game, state: dict, action: BlockLine, actor: str | None) -> Sentence:
    # Every card lies in a row and a column, so a block never leaves the opponent stuck.
    attacker = state["attacker"]
    blocked_for = opponent(state, attacker)
    state["blocked"] = {"line": action.line, "number": action.number, "for": blocked_for}
    pass_turn(state)
    return Sentence("%(player)s blocked %(line)s for %(opponent)s's next attack.", player=attacker,
                    line=line_label(action.line, action.number), opponent=blocked_for)


def skip_block(game, state: dict, action: SkipBlock, actor: str | None) -> Sentence:
    attacker = state["attacker"]
    pass_turn(state)
    return Sentence("%(player)s blocked no line.", player=attacker)


# -- corrections ---------------------------------------------------------------------------
# The pile entry a correction changes, as the log names it: "Ann's red legionaries".
ITEM_WORDS = {
    "legionary:red": N_("red legionaries"), "legionary:blue": N_("blue legionaries"),
    "legionary:yellow": N_("yellow legionaries"), "legionary:green": N_("green legionaries"),
    "legionary:purple": N_("purple legionaries"),
    "centurion:red": N_("red centurion"), "centurion:blue": N_("blue centurion"),
    "centurion:yellow": N_("yellow centurion"), "centurion:green": N_("green centurion"),
    "centurion:purple": N_("purple centurion"),
    "pirate": N_("pirates"), "traitor": N_("traitor"),
}


def item_words(item: str, colour: str | None) -> Sentence:
    """The pile entry a correction changes, as the log names it."""
    return ITEM_WORDS[f"{item}:{colour}" if item in ("legionary", "centurion") else item]


def correct_pile(game, state: dict, action: CorrectPile, actor: str | None) -> Sentence:
    if action.player not in state["players"]:
        raise no_such_player(action.player)
    pile = state["secured"][action.player]
    item, colour, count = action.item, action.colour, action.count
    if item in ("legionary", "centurion") and colour is None:
        if item == "legionary":
            raise GameError(Sentence("Say which colour of legionary to correct: %(colours)s.", colours=COLOUR_LIST))
        raise GameError(Sentence("Say which colour of centurion to correct: %(colours)s.", colours=COLOUR_LIST))
    limit = {"legionary": LEGIONARIES_PER_COLOUR, "centurion": 1, "pirate": PIRATE_COUNT, "traitor": 1}[item]
    if count > limit:
        raise GameError(Sentence("A pile can hold at most %(limit)s of the %(item)s.", limit=limit,
                                 item=item_words(item, colour)))
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
        raise GameError(plural_sentence(
            "%(player)s cannot hold %(held)s of the %(item)s: %(count)s more is already accounted for "
            "elsewhere and only %(exist)s exist.",
            "%(player)s cannot hold %(held)s of the %(item)s: %(count)s more are already accounted for "
            "elsewhere and only %(exist)s exist.",
            elsewhere, player=action.player, held=count, item=item_words(item, colour), exist=COMPOSITION[key]))
    fields = {"player": action.player, "item": item_words(item, colour), "before": before, "after": count,
              "reason": action.reason}
    if actor:
        return Sentence("%(actor)s corrected %(player)s's %(item)s from %(before)s to %(after)s "
                        "(reason: %(reason)s).", actor=actor, **fields)
    return Sentence("The host corrected %(player)s's %(item)s from %(before)s to %(after)s "
                    "(reason: %(reason)s).", **fields)


def correct_feasts(game, state: dict, action: CorrectFeasts, actor: str | None) -> Sentence:
    before = state["feasts_set_aside"]
    turned = feast_total(state) - before
    if action.count + turned > FEAST_COUNT:
        raise GameError(plural_sentence(
            "With %(count)s feast turned in this attack, at most %(most)s can lie beside the formation.",
            "With %(count)s feasts turned in this attack, at most %(most)s can lie beside the formation.",
            turned, most=FEAST_COUNT - turned))
    state["feasts_set_aside"] = action.count
    fields = {"before": before, "after": action.count, "reason": action.reason}
    if actor:
        sentence = Sentence("%(actor)s corrected the feasts beside the formation from %(before)s to %(after)s "
                            "(reason: %(reason)s).", actor=actor, **fields)
    else:
        sentence = Sentence("The host corrected the feasts beside the formation from %(before)s to %(after)s "
                            "(reason: %(reason)s).", **fields)
    if feast_total(state) >= FEAST_COUNT:
        # The fifth feast was missed: the game ends, keeping a running attack's cards.
        end_game(state)
        return Sentence("%(sentence)s That makes five feasts: the game is over.", sentence=sentence)
    return sentence
