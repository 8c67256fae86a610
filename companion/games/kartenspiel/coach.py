"""Asterix: Das Kartenspiel in teaching mode ("Our first game"): what the table does now, one
function per moment of a round.

- ``_setup``: nothing tapped yet in round 1; everyone lays out the game, then the first trick.
- ``_new_round``: a round was just closed; why everyone scored what they did, then deal again.
- ``_trick``: two or more players still hold cards; the whole table plays the next trick.
- ``_last_hand``: only one player still holds cards; that player counts them.
- ``_drawing``: that player takes one card from the deck per card held.
- ``_typing``: the round is typed in, not tapped; the piles still missing, by name.
- ``_scoring`` and ``_choice``: every pile is in; its owner chooses the pirate of choice's
  escape, then everyone checks the piles and closes the round.
- ``_over``: the last round is closed.

Everyone plays a trick at once and the companion hears of a card only once it is won, so
during the tricks the card speaks to the whole table: the set-up card already says how a trick
works, and each trick's card names the special cards (pirate, Dogmatix, Dogmatix clashing, a
tie of equal Gauls) in turn, by the number of cards already taken.
"""

from __future__ import annotations

from ..coach import Coach, Intro
from ..text import Sentence, plural_sentence
from .cards import (
    HAND_GAULS,
    PIRATE_KINDS,
    RANK_NAMES,
    RANKS,
    cards_word,
    and_list,
    deck_left,
    dog,
    gaul_name,
    piles_missing,
    pirates_in_deck,
    romans_in_deck,
    still_in,
)
from .scoring import choice_pending, escape_cost, left_for_choice, totals, working

SEE = "ks-sheet"  # the points-per-round table of the page


def coach(state: dict) -> Coach:
    if state["finished"]:
        return _over(state)
    phase = state["phase"]
    holding = still_in(state)
    if phase == "tricks" and len(holding) == 1:
        return _last_hand(state, holding[0])
    if phase == "drawing":
        return _drawing(state, state["last_player"])
    if phase == "scoring":
        return _scoring(state)
    if _untouched(state):
        return _setup(state) if not state["closed"] else _new_round(state)
    return _trick(state)


# -- the moments of a round -----------------------------------------------------------------


def _setup(state: dict) -> Coach:
    return Coach(
        # How a trick goes is the introduction's (folded under "How the game goes"): the card
        # stays a third of a small phone's screen.
        say=Sentence("Everyone: shuffle the %(cards)s Roman cards, turn up the top one and play "
                     "the trick as in \"How the game goes\". Then tap its value and the winner.",
                     cards=deck_left(state)),
        control=_trick_control(state), rule="setup",
        short=Sentence("Everyone: set up and turn up the first card."),
        scoring=_before_scoring(state))


def _new_round(state: dict) -> Coach:
    return Coach(
        say=Sentence("Round %(round)s: everyone takes all ten Gauls and %(dog)s back into hand. "
                     "Shuffle all %(cards)s Roman cards again, turn up the top one and play the "
                     "trick as before; tap the value and the winner (a pirate under ☠, a %(dog)s "
                     "played under “%(dog)s looked at the top card”).",
                     round=state["round"], dog=dog(state), cards=deck_left(state)),
        control=_trick_control(state), rule="turn",
        short=Sentence("Everyone: new round, turn up the first card."),
        scoring=_before_scoring(state), after=_after_round(state), see=SEE)


def _trick(state: dict) -> Coach:
    alone = _dogmatix_alone(state)
    if alone is not None:
        note, rule = Sentence(
            "%(player)s has one Gaul and %(dog)s left. %(dog)s may never be the last card "
            "played: once that Gaul is gone, %(player)s discards %(dog)s and sits out the rest "
            "of the round.", player=alone, dog=dog(state)), "idefix"
        short = Sentence("%(player)s: %(dog)s may never be your last card.", player=alone,
                         dog=dog(state))
    else:
        (note, rule), short = _reminder(state), Sentence(
            "Everyone: next card, play face down, tap the winner.")
    return Coach(
        say=Sentence("Everyone: turn up the next card, each lay one Gaul face down and reveal "
                     "together. Tap the value and the winner (a pirate under ☠, a %(dog)s played "
                     "under “%(dog)s looked at the top card”): the winning Gaul is discarded, the "
                     "others go back into your hands. %(note)s", note=note, dog=dog(state)),
        control=_trick_control(state), rule=rule, short=short,
        scoring=_before_scoring(state))


def _dogmatix_alone(state: dict) -> str | None:
    """A player whose last Gaul would leave Dogmatix alone, to be discarded."""
    for name in still_in(state):
        hand = state["hands"][name]
        if hand["idefix"] and hand["gauls"] == 1:
            return name
    return None


def _reminder(state: dict) -> tuple[Sentence, str]:
    """The special cards in turn (a tie, a pirate, Dogmatix, Dogmatix clashing), by the cards
    taken so far."""
    notes = [(Sentence("Two Gauls of the same value on top: the one showing more magic-potion "
                       "flasks wins. If the flasks are equal too, the rulebook says nothing: "
                       "agree between you who gets the Roman."), "ties-flasks")]
    if pirates_in_deck(None, state) is None:
        notes.append((Sentence("A pirate face up? Nobody may play %(dog)s on it. Its winner takes "
                               "the Gaul back into hand and every other Gaul played is discarded: "
                               "tap ☠ and the winner.", dog=dog(state)), "pirates"))
    dogs = [name for name in still_in(state) if state["hands"][name]["idefix"]]
    if dogs:
        notes.append((Sentence("Play %(dog)s instead of a Gaul and you cannot win this Roman, "
                               "but you look at the top card of the deck: keep it and %(dog)s is "
                               "discarded, give it to another player and %(dog)s comes back to "
                               "you (for a pirate, the other way round).", dog=dog(state)),
                      "idefix"))
    if len(dogs) >= 2:
        notes.append((Sentence("Two or more %(dog)s cards in one trick: nobody looks, and each "
                               "%(dog)s goes back into its owner's hand.", dog=dog(state)),
                      "idefix"))
    taken = sum(len(pile["romans"]) + len(pile["pirates"]) for pile in state["piles"].values())
    return notes[(taken + state["clashes"]) % len(notes)]


def _last_hand(state: dict, player: str) -> Coach:
    hand = state["hands"][player]
    held = hand["gauls"] + (1 if hand["idefix"] else 0)
    draws = min(0 if hand["idefix"] and held == 1 else held, deck_left(state))
    if hand["idefix"]:
        hint = Sentence("By the taps you hold %(held)s, %(dog)s among them: %(draws)s to take, "
                        "%(left)s in the deck.", held=cards_word(held), dog=dog(state),
                        draws=draws, left=deck_left(state))
    else:
        hint = Sentence("By the taps you hold %(held)s: %(draws)s to take, %(left)s in the deck.",
                        held=cards_word(held), draws=draws, left=deck_left(state))
    return Coach(
        say=Sentence("%(player)s: only you still hold cards. Count them and tap the number: you "
                     "take that many from the deck (%(dog)s counts unless it is alone).",
                     player=player, dog=dog(state)),
        player=player, control="last_player", rule="end-of-round",
        short=Sentence("%(player)s: count your cards and tap the number.", player=player),
        scoring=_before_scoring(state), hint=hint)


def _drawing(state: dict, player: str) -> Coach:
    control = "win_roman" if romans_in_deck(None, state) is None else "win_pirate"
    return Coach(
        say=plural_sentence(
            "%(player)s: take the top card of the deck and tap its value, a pirate under ☠ "
            "(%(count)s card still to take, this one included). A pirate drawn now stays in "
            "your pile and counts as one of your cards.",
            "%(player)s: take the top card of the deck and tap its value, a pirate under ☠ "
            "(%(count)s cards still to take, this one included). A pirate drawn now stays in "
            "your pile and counts as one of your cards.",
            state["draws_left"], player=player),
        player=player, control=control, rule="end-of-round",
        # The draw's taps are the tricks' too: a player who tapped tricks has seen no draw, so
        # the one line keeps the pirate's rule.
        short=Sentence("%(player)s: draw and tap; a pirate (☠) drawn now is yours to keep.",
                       player=player),
        scoring=_before_scoring(state))


def _scoring(state: dict) -> Coach:
    missing = piles_missing(state)
    if missing:
        return _typing(state, missing)
    for name in state["players"]:
        if choice_pending(state, name):
            return _choice(state, name)
    if state["round"] >= state["rounds"]:
        step = Sentence("Everyone: the tricks are over and every pile is in. Check each pile "
                        "against the cards on the table, then close the last round.")
    else:
        step = Sentence("Everyone: the tricks are over and every pile is in. Check each pile "
                        "against the cards on the table, then close round %(round)s.",
                        round=state["round"])
    unset = _unset_rank(state)
    if unset is not None:
        step = Sentence("%(step)s No value is set for the %(rank)s: its pirate lets nothing "
                        "escape.", step=step, rank=RANK_NAMES[unset])
    return Coach(
        say=step, control="close_round", rule="pirates" if unset else "scoring",
        short=Sentence("Everyone: check the piles and close the round."),
        scoring=_before_scoring(state))


def _typing(state: dict, missing: list[str]) -> Coach:
    """The round is typed in rather than tapped: every pile must be in before the close."""
    typed = [name for name in state["players"] if name not in missing]
    if typed:
        say = Sentence("Everyone: the Romans of %(typed)s are in. Type in those of %(missing)s "
                       "too (no Romans: type 0) and add each pirate to its pile.",
                       typed=and_list(typed), missing=and_list(missing))
    else:
        say = Sentence("Everyone: the tricks are not tapped any more this round. When it ends at "
                       "the table, type in the Romans of %(missing)s (no Romans: type 0) and add "
                       "each pirate to its pile.", missing=and_list(missing))
    return Coach(say=say, control="enter_romans", rule="scoring",
                 short=Sentence("Everyone: type in the missing piles."),
                 scoring=_before_scoring(state))


def _choice(state: dict, player: str) -> Coach:
    left = left_for_choice(state, player)
    whole = working(state)[player]["total"]  # nothing has escaped for the choice yet
    costs = [Sentence("the %(value)s costs %(cost)s (round: %(total)s)", value=value,
                      cost=escape_cost(left, value, state["bonus"]),
                      total=whole - escape_cost(left, value, state["bonus"]))
             for value in sorted(set(left))]
    return Coach(
        say=Sentence("%(player)s: your pirate of choice lets one Roman of your pile escape, and "
                     "you choose which. Tap its value under your scoring; then the round can be "
                     "closed.", player=player),
        player=player, control="choose_escape", rule="pirates",
        short=Sentence("%(player)s: choose the Roman your pirate lets escape.", player=player),
        scoring=_before_scoring(state),
        hint=Sentence("What each escape costs you: %(costs)s.", costs=costs))


def _over(state: dict) -> Coach:
    scores = totals(state)
    best = max(scores.values())
    winners = [name for name in state["players"] if scores[name] == best]
    rounds = len(state["closed"])
    if len(winners) == 1:
        say = plural_sentence(
            "%(player)s wins with %(points)s points, the highest total after %(count)s round.",
            "%(player)s wins with %(points)s points, the highest total after %(count)s rounds.",
            rounds, player=winners[0], points=best)
    else:
        say = plural_sentence(
            "%(players)s share the win with %(points)s points each after %(count)s round.",
            "%(players)s share the win with %(points)s points each after %(count)s rounds.",
            rounds, players=and_list(winners), points=best)
    sums = [Sentence("%(player)s %(round_points)s = %(total)s", player=name, total=scores[name],
                     round_points=" + ".join(str(closed["totals"][name]) for closed in state["closed"]))
            for name in state["players"]]
    return Coach(
        say=say, rule="winning",
        after=Sentence("Each round's points added up: %(sums)s.", sums=sums), see=SEE)


# -- scoring: what is about to count, and why each got what they got -------------------------


def _before_scoring(state: dict) -> Sentence | None:
    """Before the first round is closed (and while any round is being scored): what counts."""
    if state["closed"] and state["phase"] != "scoring":
        return None
    bonus = state["bonus"]
    standing = [plural_sentence("%(player)s %(count)s point", "%(player)s %(count)s points",
                                scored["total"], player=name)
                for name, scored in working(state).items()]
    return Sentence("At the end of the round pirates first let Romans escape; then each Roman "
                    "scores its value, plus %(pair)s, %(three)s or %(four)s for a pair, three "
                    "or four alike. Piles now: %(standing)s.", pair=bonus["2"],
                    three=bonus["3"], four=bonus["4"], standing=standing)


def _after_round(state: dict) -> Sentence:
    closed = state["closed"][-1]
    lines = []
    for name in state["players"]:
        scored = closed["working"][name]
        fields = dict(player=name, kept=scored["points"], set_bonus=scored["bonus"],
                      total=scored["total"])
        if scored["escaped"]:
            lines.append(Sentence("%(player)s %(kept)s + %(set_bonus)s = %(total)s "
                                  "(%(escaped)s escaped)", escaped=", ".join(map(str, scored["escaped"])),
                                  **fields))
        else:
            lines.append(Sentence("%(player)s %(kept)s + %(set_bonus)s = %(total)s", **fields))
    return Sentence("Round %(round)s, Romans kept + set bonus: %(lines)s.",
                    round=closed["round"], lines=lines)


# -- reading the table -----------------------------------------------------------------------


def _untouched(state: dict) -> bool:
    """Nothing tapped yet this round: full hands, empty piles, no clash."""
    return (state["phase"] == "tricks" and not state["clashes"]
            and all(not pile["romans"] and not pile["pirates"]
                    for pile in state["piles"].values())
            and all(hand["gauls"] == HAND_GAULS and hand["idefix"] and not hand["out"]
                    for hand in state["hands"].values()))


def _trick_control(state: dict) -> str | None:
    if romans_in_deck(None, state) is None:
        return "win_roman"
    return "win_pirate" if pirates_in_deck(None, state) is None else None


def _unset_rank(state: dict) -> str | None:
    """A rank whose pirate is in a pile while the table has set no value for it."""
    for pile in state["piles"].values():
        for kind in pile["pirates"]:
            if kind in RANKS and state["ranks"][kind] is None:
                return kind
    return None


# -- the introduction ------------------------------------------------------------------------


def intro(state: dict) -> Intro:
    players = state["players"]
    high = sorted(int(value) for value in state["deck"] if int(value) > 10)
    gauls = [Sentence("%(player)s as %(gaul)s", player=name, gaul=gaul_name(state, name))
             for name in players]
    return Intro(
        goal=Sentence("Win Roman cards with your Gauls: in each trick the highest Gaul takes the "
                      "Roman on show. After %(rounds)s rounds the most points win: Roman values "
                      "and set bonuses, less what pirates let escape.", rounds=state["rounds"]),
        need=Sentence("Each of you: the ten cards of your Gaul (%(gauls)s), one %(dog)s and a "
                      "scoring aid. In the middle: the %(cards)s Roman cards, shuffled face down; "
                      "the single high Romans here are %(high)s (a table setting).",
                      gauls=gauls,
                      dog=dog(state), cards=sum(state["deck"].values()) + len(PIRATE_KINDS),
                      high=", ".join(map(str, high))),
        start=Sentence("Nobody starts: everyone plays each trick at the same time. %(player)s "
                       "(first seat) turns up the first card; the rulebook names nobody for it. "
                       "Each trick: all lay one Gaul face down and reveal together; the highest "
                       "Gaul wins the Roman and is discarded, the other Gauls go back into their "
                       "owners' hands (for a pirate it is the other way round). Equal Gauls: the "
                       "one with more magic-potion flasks wins; equal flasks too: agree between "
                       "you who gets it. Tap the Roman's value, then the winner; a pirate under ☠.",
                       player=players[0]))
