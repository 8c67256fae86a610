"""An attack, card by card: its moves, what each does to the table, and its log sentence.

Each rule is ``rule(game, state, action, actor) -> sentence``: it changes ``state`` (the
game's own copy) and says what happened; a check returns None or why the move is not
possible now. The phases and whose turn it is are declared in the game's table of moves.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from ..base import Action, GameError
from ..text import N_, Sentence, plural_sentence
from .cards import (COMPOSITION, FEAST_COUNT, FIGHT_CARD_COST, CardKind, Colour, LineKind, LineNumber, LineStart,
                    card_key, card_name, impossible, make_card)
from .formation import (accounted, cell, defeated_cards, feast_total, formation_broken, holes, in_hand,
                        last_in_line, last_turned, line_label, next_in_line, pending_card, refill_plan)
from .turns import draw_fight_cards, end_game, finish_attack, start_line, with_refill_note


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


class BeatCard(Action):
    """Say how the card just turned went: beaten with the fight cards it takes, or not (then
    the attack fails, as with no_matching_card)."""

    type: Literal["beat_card"] = "beat_card"
    beaten: bool = Field(description="true: the attacker discarded the fight card(s) the card takes and beat "
                         "it; false: no matching fight card, the attack fails.")


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
        return Sentence("The last card can only be looked at before the first card of the line is turned.")
    if state["attack"]["looked"]:
        return Sentence("The last card of this line was already looked at.")
    return None


def unpaid(state: dict) -> Sentence | None:
    """Why the card just turned cannot be beaten: the hand lacks the fight cards it takes."""
    card = pending_card(state)
    if card is None or in_hand(state) >= FIGHT_CARD_COST[card["kind"]]:
        return None
    if in_hand(state) == 0:
        return Sentence("%(player)s has no fight card left for %(card)s: the attack fails.",
                        player=state["attacker"], card=card_name(card))
    return Sentence("%(player)s has only one fight card left, and the traitor takes two of one colour: "
                    "the attack fails.", player=state["attacker"])


def can_reveal(game, state: dict) -> str | None:
    if next_in_line(state) is None:
        if formation_broken(state):
            return Sentence("No face-down card is left in %(line)s; end the attack or take the further attack.",
                            line=_label(state))
        return Sentence("No face-down card is left in %(line)s; end the attack.", line=_label(state))
    return None


def can_beat(game, state: dict) -> str | None:
    if pending_card(state) is None:
        return can_fail(game, state)
    return None


def can_fail(game, state: dict) -> str | None:
    if pending_card(state) is not None:
        return None
    last = last_turned(state)
    if last is not None and last["state"] == "feast":
        return Sentence("A village feast needs no fight card, so the attack cannot fail on it.")
    if last is not None and last["state"] == "defeated":
        return Sentence("The card just turned is beaten already; turn the next card or end the attack.")
    return Sentence("Turn over a card first; an attack fails only on a card just turned.")


def can_end(game, state: dict) -> str | None:
    if not state["attack"]["revealed_in_line"]:
        return Sentence("Turn over the first card of %(line)s before ending the attack.", line=_label(state))
    return unpaid(state)


def can_further_attack(game, state: dict) -> str | None:
    if formation_broken(state):
        reason = unpaid(state)
        if reason is None and refill_plan(state, state["attacker"], spent_with_pending(state))["runs_out"]:
            return Sentence("%(player)s's draw pile cannot refill the hand to 5, and this table ends the game "
                            "when that happens: end the attack to secure the cards.", player=state["attacker"])
        return reason
    if next_in_line(state) is not None:
        return Sentence("The line still has face-down cards; a further attack comes only after all four are beaten.")
    if not state["attack"]["full_line"]:
        return Sentence("The line had fewer than four face-down cards when the attack on it began, "
                        "so the formation is not broken.")
    if len(holes(state)) > state["supply"]:
        return Sentence("The supply can no longer fill every hole of the formation, "
                        "so breaking it no longer earns a further attack.")
    return Sentence("No further attack is possible now; end the attack to secure the cards.")


def spent_with_pending(state: dict) -> int:
    """Fight cards this line takes from the hand once the card just turned is beaten."""
    card = pending_card(state)
    return state["attack"]["spent"] + (FIGHT_CARD_COST[card["kind"]] if card else 0)


def settle(state: dict) -> None:
    """The card just turned counts as beaten: its fight cards are paid. Turning the next card,
    ending the attack or a further attack says so without a tap of its own."""
    if pending_card(state) is not None:
        state["attack"]["spent"] = spent_with_pending(state)
        state["attack"]["pending"] = False


# -- rules -------------------------------------------------------------------------------
def choose_line(game, state: dict, action: ChooseLine, actor: str | None) -> str:
    where = start_line(state, action.line, action.number, action.start, 1)
    state["tidy"] = None  # the last attack's tidying up is done by now
    return Sentence("%(player)s attacks %(where)s.", player=state["attacker"], where=where)


def further_attack(game, state: dict, action: FurtherAttack, actor: str | None) -> str:
    settle(state)
    attacker = state["attacker"]
    draw_fight_cards(state, attacker, refill_plan(state, attacker, state["attack"]["spent"]))
    if state["options"]["block_lasts"] == "attack":
        state["blocked"] = None  # the block covered only the first attack of the turn
    where = start_line(state, action.line, action.number, action.start,
                       state["attack"]["attacks_this_turn"] + 1)
    return Sentence("%(player)s broke the formation and took a further attack on %(where)s with a full hand.",
                    player=state["attacker"], where=where)


def look_at_last_card(game, state: dict, action: LookAtLastCard, actor: str | None) -> str:
    attack = state["attack"]
    row, column = last_in_line(state)
    attack["looked"] = {"row": row, "column": column}
    attack["spent"] += 1
    return Sentence("%(player)s gave up a fight card to look at the last card of %(line)s.",
                    player=state["attacker"], line=_label(state))


def reveal_card(game, state: dict, action: RevealCard, actor: str | None) -> str:
    settle(state)
    attacker, attack = state["attacker"], state["attack"]
    index, row, column = next_in_line(state)
    known = cell(state, row, column)["card"]
    if action.kind is None:
        if known is None:
            raise GameError(Sentence("Say what the card is: legionary, centurion, pirate, traitor, boar or feast."))
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
        finish_attack(state, secure=True, how="boar")
    elif kind == "feast":
        state["grid"][row - 1][column - 1] = {"state": "feast", "card": card}
        if feast_total(state) >= FEAST_COUNT:
            end_game(state)
    else:
        # Face up, waiting: beaten with the fight cards it takes, or the attack fails on it.
        state["grid"][row - 1][column - 1] = {"state": "defeated", "card": card}
        attack["pending"] = True

    note: str | Sentence = ""
    if known is not None:
        note = (Sentence(" (turned over again)") if known == card
                else Sentence(" (it had been noted as %(card)s)", card=card_name(known)))
    fields = {"player": attacker, "note": note}
    if state["finished"]:
        if kept:
            return Sentence("%(player)s turned over the fifth village feast%(note)s: the game is over and "
                            "%(player)s keeps %(cards)s of this attack.", **fields,
                            cards=plural_sentence("%(count)s defeated card", "%(count)s defeated cards", kept))
        return Sentence("%(player)s turned over the fifth village feast%(note)s: the game is over and "
                        "nothing was defeated in this attack.", **fields)
    if kind == "boar":
        if kept:
            sentence = Sentence("%(player)s turned over the wild boar%(note)s: the attack ends, the boar leaves "
                                "the game and %(player)s secures %(cards)s.", **fields,
                                cards=plural_sentence("%(count)s defeated card", "%(count)s defeated cards", kept))
        else:
            sentence = Sentence("%(player)s turned over the wild boar%(note)s: the attack ends, the boar leaves "
                                "the game and nothing was defeated before it.", **fields)
        return with_refill_note(sentence, state, supply)
    if kind == "feast":
        sentence = Sentence("%(player)s turned over a village feast%(note)s (%(feasts)s of 5).", **fields,
                            feasts=feast_total(state))
        if formation_broken(state):
            return Sentence("%(sentence)s The formation is broken: a further attack is possible.", sentence=sentence)
        return sentence
    if kind == "traitor":
        return Sentence("%(player)s turned over the traitor%(note)s, to be beaten with two fight cards of "
                        "one colour.", **fields)
    if kind == "pirate":
        return Sentence("%(player)s turned over a pirate%(note)s, to be beaten with any fight card.", **fields)
    return Sentence("%(player)s turned over %(card)s%(note)s, to be beaten with a %(fight_card)s.", **fields,
                    card=card_name(card), fight_card=FIGHT_CARDS[card["colour"]])


def beat_card(game, state: dict, action: BeatCard, actor: str | None) -> str:
    if not action.beaten:
        return no_matching_card(game, state, action, actor)
    reason = unpaid(state)
    if reason:
        raise GameError(reason)
    card = pending_card(state)
    settle(state)
    fields = {"player": state["attacker"]}
    if card["kind"] == "traitor":
        sentence = Sentence("%(player)s beat the traitor with two fight cards of one colour.", **fields)
    elif card["kind"] == "pirate":
        sentence = Sentence("%(player)s beat the pirate with a fight card.", **fields)
    else:
        sentence = Sentence("%(player)s beat %(card)s with a %(fight_card)s.", **fields, card=card_name(card),
                            fight_card=FIGHT_CARDS[card["colour"]])
    if formation_broken(state):
        return Sentence("%(sentence)s The formation is broken: a further attack is possible.", sentence=sentence)
    return sentence


# "a red fight card" / "einer roten Kampfkarte": German declines it after "mit einer".
FIGHT_CARDS = {"red": N_("red fight card"), "blue": N_("blue fight card"), "yellow": N_("yellow fight card"),
               "green": N_("green fight card"), "purple": N_("purple fight card")}


def no_matching_card(game, state: dict, action: NoMatchingCard, actor: str | None) -> str:
    attacker, supply = state["attacker"], state["supply"]
    last = last_turned(state)
    card = last["card"]
    lost = defeated_cards(state)[:-1]
    last["state"] = "down"  # turned back face down where it lay; its face is now known
    state["attack"]["pending"] = False  # not beaten: no fight card was paid for it
    finish_attack(state, secure=False, how="failed")
    if lost:
        sentence = Sentence("%(player)s had no fight card for %(card)s: the attack failed and the card went "
                            "back face down; %(lost)s left the game.", player=attacker, card=card_name(card),
                            lost=plural_sentence("%(count)s defeated card", "%(count)s defeated cards", len(lost)))
    else:
        sentence = Sentence("%(player)s had no fight card for %(card)s: the attack failed and the card went "
                            "back face down.", player=attacker, card=card_name(card))
    return with_refill_note(sentence, state, supply)


def end_attack(game, state: dict, action: EndAttack, actor: str | None) -> str:
    settle(state)
    attacker, supply = state["attacker"], state["supply"]
    won = defeated_cards(state)
    finish_attack(state, secure=True, how="stopped")
    if won:
        sentence = Sentence("%(player)s ended the attack and secured %(cards)s: %(names)s.", player=attacker,
                            cards=plural_sentence("%(count)s card", "%(count)s cards", len(won)),
                            names=[card_name(card) for card in won])
    else:
        sentence = Sentence("%(player)s ended the attack without securing a card.", player=attacker)
    return with_refill_note(sentence, state, supply)
