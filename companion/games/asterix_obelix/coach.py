"""Asterix & Obelix in teaching mode ("Our first game"): what the table does now, one
function per phase of a turn.

- ``_setup``: the table lays out the tortoise and names who attacks first.
- ``_choose``: the attacker stands the figure before a row or column.
- ``_attack``: the first card, the card just turned (soldier, pirate, traitor, feast), a
  line turned to its end, a broken formation.
- ``_refill`` and ``_block``: the end of the attack (how it ended: stopped, failed, the boar).
- ``_over``: the fifth feast; the seven tokens.
"""

from __future__ import annotations

from ..coach import Coach, Intro
from ..text import N_, Sentence, plural_sentence
from .attack import FIGHT_CARDS
from .cards import COLOUR_TITLES, FEAST_COUNT, FIGHT_CARDS_IN_HAND, GRID_SIZE, card_title
from .formation import (cell, feast_total, formation_broken, holes, last_turned, line_label, next_in_line,
                        opponent, unseen)
from .scoring import scoring
from .view import odds

TOKEN_NAMES = {"traitor": N_("Traitor"), "pirates": N_("Pirates"), **COLOUR_TITLES}


def coach(state: dict) -> Coach:
    phase = state["phase"]
    if phase == "setup":
        return _setup(state)
    if phase == "over":
        return _over(state)
    if phase == "choose_line":
        return _choose(state)
    if phase == "attack":
        return _attack(state)
    if phase == "refill":
        return _refill(state)
    return _block(state)


# -- the phases of a turn --------------------------------------------------------------------


def _setup(state: dict) -> Coach:
    return Coach(
        say=Sentence("Set up together as the checklist on the board says, then tap who attacks "
                     "first."),
        control="start_game", rule="setup")


def _choose(state: dict) -> Coach:
    player, blocked = state["attacker"], state["blocked"]
    if state["turn"] == 1:
        say = Sentence("%(player)s: you attack first. Stand your figure before a row or column and "
                       "tap the arrow where it stands.", player=player)
    elif blocked and blocked["for"] == player:
        say = Sentence("%(player)s: your attack. Stand your figure before a row or column (not "
                       "%(line)s, it is blocked) and tap the arrow where it stands.", player=player,
                       line=line_label(blocked["line"], blocked["number"]))
    else:
        say = Sentence("%(player)s: your attack. Stand your figure before a row or column and tap "
                       "the arrow where it stands.", player=player)
    return Coach(say=say, player=player, control="choose_line", rule="attack",
                 short=Sentence("%(player)s: choose a line and tap its arrow.", player=player),
                 scoring=_before_scoring(state), hint=_line_hint(state))


def _attack(state: dict) -> Coach:
    player, attack = state["attacker"], state["attack"]
    line = line_label(attack["line"], attack["number"])
    fields = dict(player=player, line=line)
    if formation_broken(state):
        return Coach(
            say=Sentence("%(player)s: all four cards of %(line)s are beaten, the formation is "
                         "broken! Draw back to 5 fight cards and tap an arrow for a further "
                         "attack, or end the attack and secure your catch.", **fields),
            player=player, control="further_attack", rule="formation-broken",
            short=Sentence("%(player)s: further attack, or end and secure.", player=player),
            scoring=_before_scoring(state), hint=_risk_hint(state))
    last = last_turned(state)
    if last is None:
        return _first_card(state, player, line)
    if next_in_line(state) is None:
        return Coach(
            say=Sentence("%(player)s: every card of %(line)s is turned. End the attack to secure "
                         "what you beat.", **fields),
            player=player, control="end_attack", rule="end-of-attack",
            short=Sentence("%(player)s: end the attack and secure.", player=player),
            scoring=_before_scoring(state))
    return Coach(
        say=_card_sentence(state, player, last["card"]), player=player, control="reveal_card",
        rule=_card_rule(last["card"]),
        short=_card_short(state, player, last["card"]),
        scoring=_before_scoring(state), hint=_risk_hint(state))


def _first_card(state: dict, player: str, line: Sentence) -> Coach:
    if state["attack"]["attacks_this_turn"] > 1:
        say = Sentence("%(player)s: further attack on %(line)s with a full hand. Turn over the "
                       "first card and tap what it is.", player=player, line=line)
    elif state["attack"]["looked"]:
        say = Sentence("%(player)s: you peeked at the last card. Turn over the first card of "
                       "%(line)s and tap what it is.", player=player, line=line)
    else:
        say = Sentence("%(player)s: turn over the first card of %(line)s and tap what it is. You "
                       "may first give up a fight card to peek at the last one.", player=player,
                       line=line)
    return Coach(say=say, player=player, control="reveal_card", rule="attack",
                 short=Sentence("%(player)s: turn the first card and tap it.", player=player),
                 scoring=_before_scoring(state), hint=_risk_hint(state))


def _refill(state: dict) -> Coach:
    player = state["attacker"]
    return Coach(
        say=Sentence("%(player)s: the supply holds only %(cards)s for %(holes)s holes. Put them "
                     "into holes of your choice and tap each one.", player=player,
                     cards=plural_sentence("%(count)s card", "%(count)s cards", state["supply"]),
                     holes=len(holes(state))),
        player=player, control="fill_hole", rule="end-of-attack",
        short=Sentence("%(player)s: tap the holes you fill.", player=player),
        scoring=_before_scoring(state))


def _block(state: dict) -> Coach:
    player = state["attacker"]
    fields = dict(player=player, opponent=opponent(state, player))
    ended = _how_it_ended(state)
    if ended == "boar":
        say = Sentence("The wild boar ended %(player)s's attack: the catch is secured, the boar "
                       "leaves the game. %(player)s: block a line for %(opponent)s's next attack.",
                       **fields)
    elif ended == "failed":
        say = Sentence("%(player)s's attack failed: its beaten cards left the game. %(player)s: "
                       "block a line for %(opponent)s's next attack.", **fields)
    else:
        say = Sentence("%(player)s: refill your hand to 5, then block a row or column for "
                       "%(opponent)s's next attack (or block nothing).", **fields)
    return Coach(say=say, player=player, control="block_line", rule="blocking",
                 short=Sentence("%(player)s: block a line for %(opponent)s.", **fields),
                 scoring=_before_scoring(state))


def _over(state: dict) -> Coach:
    score = scoring(state)
    taken = {name: [TOKEN_NAMES[token] for token, holder in score["tokens"].items() if holder == name]
             for name in state["players"]}
    nobody = [TOKEN_NAMES[token] for token, holder in score["tokens"].items() if holder is None]
    first, second = (Sentence("%(player)s: %(tokens)s", player=name,
                              tokens=taken[name] or Sentence("no token"))
                     for name in state["players"])
    if nobody:
        after = Sentence("Tokens taken: %(first)s; %(second)s; nobody: %(nobody)s. Each line of the "
                         "final scoring says why.", first=first, second=second, nobody=nobody)
    else:
        after = Sentence("Tokens taken: %(first)s; %(second)s. Each line of the final scoring says "
                         "why.", first=first, second=second)
    return Coach(
        say=Sentence("The fifth village feast ended the game. %(verdict)s", verdict=score["verdict"]),
        rule="scoring",
        after=after, see="ao-tokens")


# -- what just happened ----------------------------------------------------------------------


def _card_sentence(state: dict, player: str, card: dict) -> Sentence:
    kind = card["kind"]
    if kind == "feast" and feast_total(state) == FEAST_COUNT - 1:
        return Sentence("%(player)s: the fourth village feast costs no fight card; the fifth ends "
                        "the game at once. Turn the next card, or end the attack to secure your "
                        "catch.", player=player)
    if kind == "feast":
        return Sentence("%(player)s: a village feast (%(feasts)s of 5) costs no fight card. Turn "
                        "the next card, or end the attack to secure your catch.", player=player,
                        feasts=feast_total(state))
    if kind == "pirate":
        return Sentence("%(player)s: a pirate! Discard any fight card and turn the next card, or "
                        "stop. No card left? Tap \"the attack fails\".", player=player)
    if kind == "traitor":
        return Sentence("%(player)s: the traitor! Discard two fight cards of one colour and turn "
                        "the next card, or stop. Without a pair, tap \"the attack fails\".",
                        player=player)
    return Sentence("%(player)s: %(card)s! Beat it with a %(fight_card)s and turn the next card, "
                    "or stop. Without one, tap \"the attack fails\".", player=player,
                    card=card_title(card), fight_card=FIGHT_CARDS[card["colour"]])


def _card_short(state: dict, player: str, card: dict) -> Sentence:
    """One line that still names what the card asks for: the card's rule is the lesson."""
    kind = card["kind"]
    if kind == "feast":
        return Sentence("%(player)s: feast %(feasts)s of 5, no fight card. Next card or stop.",
                        player=player, feasts=feast_total(state))
    if kind == "pirate":
        return Sentence("%(player)s: pirate, any fight card. Next card or stop.", player=player)
    if kind == "traitor":
        return Sentence("%(player)s: traitor, two of one colour. Next card or stop.",
                        player=player)
    return Sentence("%(player)s: %(card)s, with a %(fight_card)s. Next card or stop.",
                    player=player, card=card_title(card), fight_card=FIGHT_CARDS[card["colour"]])


def _card_rule(card: dict) -> str:
    return {"feast": "village-feast", "pirate": "pirates", "traitor": "traitor"}.get(card["kind"],
                                                                                   "soldiers")


def _how_it_ended(state: dict) -> str:
    """How the attack that just ended ended: on the boar, failed, or stopped by the attacker."""
    last = state["revealed"][-1]
    if last["card"]["kind"] == "boar":
        return "boar"
    place = cell(state, last["row"], last["column"])
    if place["state"] == "down" and place["card"] == last["card"]:
        return "failed"  # the card that beat the attacker lies face down again, its face known
    return "stopped"


# -- scoring: what the fifth feast will count, as things stand -------------------------------


def _before_scoring(state: dict) -> Sentence | None:
    """Shown on the second attack (the first catch is on a pile) and once the end draws near."""
    if state["turn"] != 2 and feast_total(state) < FEAST_COUNT - 2:
        return None
    points = scoring(state)["points"]
    return Sentence("When the fifth feast turns up, seven tokens are given out: one per colour "
                    "for more cards of it (a tie goes to its centurion), one for more pirates, "
                    "one for the traitor. As things stand: %(standing)s.",
                    standing=[_standing(name, points[name]) for name in state["players"]])


def _standing(name: str, tokens: int) -> Sentence:
    return plural_sentence("%(player)s %(count)s token", "%(player)s %(count)s tokens", tokens,
                           player=name)


# -- hints for the attacker's own phone: figures from the table, never an order --------------


def _risk_hint(state: dict) -> Sentence | None:
    """What the next card may be, against the fight cards left and the catch at stake."""
    attack = state["attack"]
    upcoming = next_in_line(state)
    if upcoming is None:
        return None
    hand = max(FIGHT_CARDS_IN_HAND - attack["spent"], 0)
    known = cell(state, upcoming[1], upcoming[2])["card"]
    beaten = sum(1 for row in state["grid"] for place in row if place["state"] == "defeated")
    if known is not None:
        return Sentence("Hand: %(hand)s of 5 fight cards. The next card is known: %(card)s.",
                        hand=hand, card=card_title(known))
    chances = [Sentence("%(kind)s %(count)s", kind=row["label"], count=row["unseen"])
               for row in odds(unseen(state)) if row["unseen"]]
    fields = dict(hand=hand, odds=chances, total=sum(unseen(state).values()))
    if beaten:
        return Sentence("Hand: %(hand)s of 5 fight cards. Lost if the attack fails: %(beaten)s. "
                        "Unseen: %(odds)s (of %(total)s).", beaten=plural_sentence(
                            "%(count)s beaten card", "%(count)s beaten cards", beaten), **fields)
    return Sentence("Hand: %(hand)s of 5 fight cards. Unseen: %(odds)s (of %(total)s).",
                    **fields)


def _line_hint(state: dict) -> Sentence | None:
    """Known face-down cards, or that breaking the formation no longer earns a further attack."""
    known = [Sentence("%(card)s (row %(row)s, column %(column)s)", card=card_title(place["card"]),
                      row=r + 1, column=c + 1)
             for r, row in enumerate(state["grid"]) for c, place in enumerate(row)
             if place["state"] == "down" and place["card"] is not None]
    if known:
        return Sentence("Turned back face down after a failed attack, so known: %(cards)s.",
                        cards=known)
    if len(holes(state)) + GRID_SIZE > state["supply"]:
        return Sentence("The supply (%(supply)s) can no longer refill a broken line: breaking the "
                        "formation earns no further attack now.", supply=state["supply"])
    return None


# -- the introduction ------------------------------------------------------------------------


def intro(state: dict) -> Intro:
    if state["starter"] is None:
        start = Sentence("The rulebook lets the stronger player start; agree on who that is and "
                         "tap the name on the board.")
    else:
        start = Sentence("%(player)s attacked first, as the table chose: the rulebook lets the "
                         "stronger player start. Then you take turns.", player=state["starter"])
    return Intro(
        goal=Sentence("Beat the Roman cards of the tortoise with fight cards of their colour and "
                      "keep what you secure. When the fifth village feast turns up, seven tokens "
                      "go to whoever holds more of each colour, more pirates and the traitor."),
        need=Sentence("Each of you: a figure (Asterix on red, Obelix on blue) and its 15 fight "
                      "cards, shuffled face down, 5 of them in hand. Between you: 16 Roman cards "
                      "face down as a 4 × 4 tortoise, the other 24 as the supply, the 7 tokens "
                      "aside."),
        start=start)
