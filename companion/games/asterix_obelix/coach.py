"""Asterix & Obelix in teaching mode ("Our first game"): what the table does now, one
function per phase of a turn.

- ``_setup``: the table lays out the tortoise and names who attacks first.
- ``_choose``: the attacker stands the figure before a row or column (after the last
  attacker's tidying up, when no block comes between).
- ``_attack``: the first card, a card just turned that waits for its fight cards (or fails
  the attack), the card beaten, a line turned to its end, a broken formation, an empty hand.
- ``_refill`` and ``_block``: the end of the attack (how it ended, the hand drawn back to 5,
  the holes filled from the supply, the block).
- ``_over``: the fifth feast (or an empty draw pile, as the table may set); the seven tokens.
"""

from __future__ import annotations

from ..coach import Coach, Intro
from ..text import N_, Sentence, plural_sentence
from .attack import FIGHT_CARDS
from .cards import A_FIGHT_CARD, COLOUR_TITLES, FEAST_COUNT, FIGHT_CARD_COST, GRID_SIZE, card_title
from .formation import (cell, defeated_cards, feast_total, formation_broken, holes, in_hand, last_turned,
                        line_label, next_in_line, opponent, pending_card, refill_plan, unseen)
from .scoring import scoring
from .coach_tidy import draw_words, ended, step_list, steps
from .view import BUTTONS, chance, end_button, odds

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


def _then(*parts: Sentence | None) -> Sentence:
    """Sentences said one after the other (the ones that apply)."""
    said = [part for part in parts if part is not None]
    sentence = said[0]
    for part in said[1:]:
        sentence = Sentence("%(first)s %(then)s", first=sentence, then=part)
    return sentence


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
    short = Sentence("%(player)s: choose a line and tap its arrow.", player=player)
    tidy = state.get("tidy")
    if tidy and not state["options"]["blocking"] and not tidy["by_hand"]:
        # No block card came between: the last attacker's tidying up is said here, once, and
        # the one line keeps it, since it is new each time.
        say = _then(ended(tidy), steps(tidy), say)
        short = Sentence("%(before)s: refill, fill the holes. %(player)s: choose a line.",
                         before=tidy["player"], player=player)
        if tidy["reshuffle"]:
            short = Sentence("%(before)s: shuffle discards, refill, fill holes. %(player)s: choose.",
                             before=tidy["player"], player=player)
    return Coach(say=say, player=player, control="choose_line", rule="attack", short=short,
                 scoring=_before_scoring(state), hint=_line_hint(state))


def _attack(state: dict) -> Coach:
    player, attack = state["attacker"], state["attack"]
    line = line_label(attack["line"], attack["number"])
    waiting = pending_card(state)
    if waiting is not None:
        return _to_beat(state, player, waiting)
    if formation_broken(state):
        return _broken(state, player, line)
    last = last_turned(state)
    if last is None:
        return _first_card(state, player, line)
    if next_in_line(state) is None:
        return Coach(
            say=Sentence("%(player)s: every card of %(line)s is turned. End the attack to secure "
                         "what you beat.", player=player, line=line),
            player=player, control="end_attack", rule="end-of-attack",
            short=Sentence("%(player)s: end the attack and secure.", player=player),
            scoring=_before_scoring(state))
    if in_hand(state) == 0:
        return Coach(
            say=Sentence("%(player)s: you have no fight card left, so only a village feast or the "
                         "wild boar can be turned without the attack failing. Tap \"%(end)s\", or "
                         "turn the next card anyway.", player=player,
                         end=end_button(len(defeated_cards(state)))),
            player=player, control="end_attack", rule="end-of-attack",
            short=Sentence("%(player)s: no fight card left: end the attack and secure.",
                           player=player),
            scoring=_before_scoring(state), hint=_risk_hint(state))
    return Coach(
        say=_card_sentence(state, player, last["card"]), player=player, control="reveal_card",
        rule=_card_rule(last["card"]),
        short=_card_short(state, player, last["card"]),
        scoring=_before_scoring(state), hint=_risk_hint(state))


def _to_beat(state: dict, player: str, card: dict) -> Coach:
    """A card just turned that takes fight cards: beaten (and paid), or the attack fails."""
    hand, kind = in_hand(state), card["kind"]
    fields = dict(player=player, fails=BUTTONS["fails"], beaten=BUTTONS["beaten"])
    if hand < FIGHT_CARD_COST[kind]:
        if hand == 0:
            say = Sentence("%(player)s: %(card)s, and you have no fight card left: the attack fails. "
                           "Tap \"%(fails)s\".", card=card_title(card), **fields)
        else:
            say = Sentence("%(player)s: the traitor takes two fight cards of one colour and you have "
                           "only one left: the attack fails. Tap \"%(fails)s\".", **fields)
        short = (Sentence("%(player)s: no fight card left: the attack fails.", player=player) if hand == 0
                 else Sentence("%(player)s: no pair for the traitor: the attack fails.", player=player))
        return Coach(say=say, player=player, control="beat_card", rule="failed-attack", short=short,
                     scoring=_before_scoring(state), hint=_stake_hint(state))
    if kind == "pirate":
        say = Sentence("%(player)s: a pirate! Discard any fight card and tap \"%(beaten)s\".", **fields)
        short = Sentence("%(player)s: pirate: any fight card, then \"%(beaten)s\".", **fields)
    elif kind == "traitor":
        say = Sentence("%(player)s: the traitor! Discard two fight cards of one colour and tap "
                       "\"%(beaten)s\". Without a pair, tap \"%(fails)s\".", **fields)
        short = Sentence("%(player)s: traitor: two of one colour, or the attack fails.",
                         player=player)
    else:
        say = Sentence("%(player)s: %(card)s! Discard %(fight_card)s and tap \"%(beaten)s\". Without "
                       "one in your hand, tap \"%(fails)s\".", card=card_title(card),
                       fight_card=A_FIGHT_CARD[card["colour"]], **fields)
        short = Sentence("%(player)s: %(card)s: %(fight_card)s, or the attack fails.",
                         player=player, card=card_title(card), fight_card=A_FIGHT_CARD[card["colour"]])
    if formation_broken(state):  # the fourth card of a full line: beaten, it breaks the formation
        say = _then(say, Sentence("If you beat it, that would break the formation."))
    return Coach(say=say, player=player, control="beat_card", rule=_card_rule(card), short=short,
                 scoring=_before_scoring(state), hint=_stake_hint(state))


def _broken(state: dict, player: str, line: Sentence) -> Coach:
    plan = refill_plan(state, player, state["attack"]["spent"])
    fields = dict(player=player, line=line)
    if plan["runs_out"]:
        return Coach(
            say=Sentence("%(player)s: all four cards of %(line)s are beaten, the formation is broken! "
                         "But your draw pile cannot refill your hand to 5, and this table ends the "
                         "game when that happens: end the attack to secure your catch.", **fields),
            player=player, control="end_attack", rule="fight-cards-run-out",
            short=Sentence("%(player)s: your draw pile is empty: end and secure.", player=player),
            scoring=_before_scoring(state))
    return Coach(
        say=Sentence("%(player)s: all four cards of %(line)s are beaten, the formation is broken! "
                     "For a further attack, %(draw)s and tap an arrow; or tap \"%(end)s\".",
                     draw=draw_words(plan), end=end_button(len(defeated_cards(state))), **fields),
        player=player, control="further_attack", rule="formation-broken",
        short=(Sentence("%(player)s: formation broken! Shuffle your discards, refill, attack on.",
                        player=player) if plan["reshuffle"] else
               Sentence("%(player)s: further attack, or \"%(end)s\".", player=player,
                        end=end_button(len(defeated_cards(state))))),
        scoring=_before_scoring(state), hint=_stake_hint(state))


def _first_card(state: dict, player: str, line: Sentence) -> Coach:
    if state["attack"]["attacks_this_turn"] > 1:
        say = Sentence("%(player)s: further attack on %(line)s with a full hand. Turn over the "
                       "first card and tap what it is.", player=player, line=line)
    elif state["attack"]["looked"]:
        say = Sentence("%(player)s: you peeked at the last card. Turn over the first card of "
                       "%(line)s and tap what it is.", player=player, line=line)
    else:
        say = Sentence("%(player)s: turn over the first card of %(line)s and tap what it is. You "
                       "may first discard a fight card, look at the last card in secret and tap "
                       "\"%(peek)s\".", player=player, line=line, peek=BUTTONS["peek"])
    return Coach(say=say, player=player, control="reveal_card", rule="attack",
                 short=Sentence("%(player)s: turn the first card and tap it.", player=player),
                 scoring=_before_scoring(state), hint=_risk_hint(state))


def _refill(state: dict) -> Coach:
    player, tidy = state["attacker"], state.get("tidy")
    places = Sentence("%(player)s: the supply holds only %(cards)s for %(holes)s holes. Put them "
                      "into holes of your choice and tap each one.", player=player,
                      cards=plural_sentence("%(count)s card", "%(count)s cards", state["supply"]),
                      holes=len(holes(state)))
    # How the attack ended and the hand to refill: said once, before the first card is placed.
    first = tidy and tidy.get("to_place") == state["supply"]
    say = _then(ended(tidy), steps(tidy), places) if first else places
    return Coach(
        say=say, player=player, control="fill_hole", rule="end-of-attack",
        short=Sentence("%(player)s: tap the holes you fill.", player=player),
        scoring=_before_scoring(state))


def _block(state: dict) -> Coach:
    player = state["attacker"]
    fields = dict(player=player, opponent=opponent(state, player))
    tidy = state.get("tidy")
    steps = step_list(tidy) if tidy and not tidy["by_hand"] else []
    if steps:
        block = Sentence("%(player)s: %(steps)s, then block a row or column for %(opponent)s's next "
                         "attack, or tap \"%(skip)s\".", steps=steps, skip=BUTTONS["skip"], **fields)
    else:
        block = Sentence("%(player)s: block a row or column for %(opponent)s's next attack, or tap "
                         "\"%(skip)s\".", skip=BUTTONS["skip"], **fields)
    say = _then(ended(tidy), block) if tidy and not tidy["by_hand"] else block
    if tidy and tidy["reshuffle"] and not tidy["by_hand"]:
        short = Sentence("%(player)s: shuffle your discards, refill to 5, fill the holes, block.",
                         **fields)
    else:
        short = Sentence("%(player)s: refill to 5, fill the holes, block a line for %(opponent)s.",
                         **fields)
    return Coach(say=say, player=player, control="block_line", rule="blocking", short=short,
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
    if state.get("ran_out"):
        say = _then(ended(state["tidy"]),
                    Sentence("%(player)s's draw pile cannot refill the hand to 5, so the game ends "
                             "here, as this table set. %(verdict)s", player=state["ran_out"],
                             verdict=score["verdict"]))
        rule = "fight-cards-run-out"
    else:
        say = Sentence("The fifth village feast ended the game. %(verdict)s", verdict=score["verdict"])
        rule = "scoring"
    return Coach(say=say, rule=rule, after=after, see="ao-tokens")


# -- what just happened ----------------------------------------------------------------------


def _card_sentence(state: dict, player: str, card: dict) -> Sentence:
    kind, end = card["kind"], end_button(len(defeated_cards(state)))
    if kind == "feast" and feast_total(state) == FEAST_COUNT - 1:
        return Sentence("%(player)s: the fourth village feast costs no fight card; the fifth ends "
                        "the game at once. Turn the next card, or tap \"%(end)s\".", player=player,
                        end=end)
    if kind == "feast":
        return Sentence("%(player)s: a village feast (%(feasts)s of 5) costs no fight card. Turn "
                        "the next card, or tap \"%(end)s\".", player=player,
                        feasts=feast_total(state), end=end)
    return Sentence("%(player)s: %(card)s beaten. Turn the next card and tap what it is, or tap "
                    "\"%(end)s\".", player=player, card=card_title(card), end=end)


def _card_short(state: dict, player: str, card: dict) -> Sentence:
    """One line that keeps what the full card warns of (and names the button that stops)."""
    end = end_button(len(defeated_cards(state)))
    if card["kind"] == "feast" and feast_total(state) == FEAST_COUNT - 1:
        return Sentence("%(player)s: feast 4 of 5: the fifth ends the game. Next or stop.",
                        player=player)
    if card["kind"] == "feast":
        return Sentence("%(player)s: feast %(feasts)s of 5. Next card, or \"%(end)s\".",
                        player=player, feasts=feast_total(state), end=end)
    return Sentence("%(player)s: next card, or \"%(end)s\".", player=player, end=end)


def _card_rule(card: dict) -> str:
    return {"feast": "village-feast", "pirate": "pirates", "traitor": "traitor"}.get(card["kind"],
                                                                                   "soldiers")


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


def _stake_hint(state: dict) -> Sentence:
    """The hand, and what a failure would cost, while the card just turned waits."""
    beaten = len(defeated_cards(state)) - (1 if pending_card(state) else 0)
    hand = Sentence("Hand: %(hand)s of 5 fight cards.", hand=in_hand(state))
    if not beaten:
        return hand
    return _then(hand, Sentence("Lost if the attack fails: %(beaten)s.", beaten=plural_sentence(
        "%(count)s beaten card", "%(count)s beaten cards", beaten)))


def _risk_hint(state: dict) -> Sentence | None:
    """The chance to beat the next card with this hand (from the odds table), and the stake."""
    upcoming = next_in_line(state)
    if upcoming is None:
        return None
    hand = in_hand(state)
    known = cell(state, upcoming[1], upcoming[2])["card"]
    if known is not None:
        return _then(_stake_hint(state), Sentence("The next card is known: %(card)s.",
                                                  card=card_title(known)))
    rows = odds(unseen(state))
    if not hand:
        count, total, percent = chance(rows, ("feast",))
        return _then(_stake_hint(state), Sentence(
            "Only a village feast costs nothing: %(count)s of %(total)s (%(percent)s%%).", count=count,
            total=total, percent=percent))
    count, total, percent = chance(rows, ("feast", "pirate"))
    colours = [Sentence("%(colour)s %(percent)s%%", colour=row["label"], percent=chance(rows, (row["key"],))[2])
               for row in rows if row["key"] in COLOUR_TITLES and row["unseen"]]
    said = Sentence("The next card is beaten whatever you hold: %(count)s of %(total)s (%(percent)s%%). "
                    "Each colour in your hand adds: %(colours)s.", count=count, total=total,
                    percent=percent, colours=colours)
    traitor = chance(rows, ("traitor",))
    if hand >= 2 and traitor[0]:
        said = _then(said, Sentence("And a pair adds the traitor (%(percent)s%%).", percent=traitor[2]))
    return _then(_stake_hint(state), said)


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
