"""The score pad in teaching mode: it has no turns of its own, so the coach says which
scores the sheet still lacks and how the game ends."""

from __future__ import annotations

from ..coach import Coach, Intro
from ..text import Sentence, and_list, plural_sentence


def coach(state: dict) -> Coach:
    players, entries = state["players"], state["entries"]
    highest = state["winning"] == "highest"
    if state["finished"]:
        return _over(state, highest)
    played = max((int(number) for cells in entries.values() for number in cells), default=0)
    if played == 0:
        return Coach(say=Sentence("After the first round, each of you taps the box under "
                                  "their name and enters the points they made."),
                     control="enter_score", rule="entering-scores",
                     short=Sentence("Enter your points for round 1."))
    # Every round still lacking points, earliest first (a round may be left half empty).
    missing = [(number, [name for name in players if str(number) not in entries[name]])
               for number in range(1, played + 1)]
    missing = [(number, names) for number, names in missing if names]
    if missing:
        rounds = [Sentence("round %(round)d from %(players)s", round=number, players=and_list(names))
                  for number, names in missing]
        return Coach(
            say=Sentence("Points still missing: %(rounds)s.", rounds=rounds),
            control="enter_score", rule="entering-scores",
            short=Sentence("Round %(round)d: points missing.", round=missing[0][0]))
    if state["rounds"] and played < state["rounds"]:
        return Coach(say=Sentence("Round %(round)d is complete. Play round %(next)d of %(rounds)d, "
                                  "then enter its points.", round=played, next=played + 1,
                                  rounds=state["rounds"]),
                     control="enter_score", rule="rounds",
                     short=Sentence("Play round %(next)d.", next=played + 1))
    # An open sheet: the next round is the usual step; finishing is said, never marked.
    return Coach(say=Sentence("Round %(round)d is complete. Play round %(next)d and enter its "
                              "points. Once your game has ended, tap \"Finish the game\" under "
                              "the sheet.", round=played, next=played + 1),
                 control="enter_score", rule="rounds",
                 short=Sentence("Round %(next)d next, or \"Finish the game\".", next=played + 1))


def _over(state: dict, highest: bool) -> Coach:
    entries, players = state["entries"], state["players"]
    totals = {name: sum(entries[name].values()) for name in players}
    best = (max if highest else min)(totals.values())
    leaders = [name for name in players if totals[name] == best]
    if len(leaders) == 1:
        say = plural_sentence("%(player)s wins with %(count)s point!",
                              "%(player)s wins with %(count)s points!", best, player=leaders[0])
    else:
        say = plural_sentence("%(players)s share the win with %(count)s point each.",
                              "%(players)s share the win with %(count)s points each.", best,
                              players=and_list(leaders))
    return Coach(say=say, rule="winning",
                 after=(Sentence("The highest total wins; the totals are under the sheet.") if highest
                        else Sentence("The lowest total wins; the totals are under the sheet.")),
                 see="scoresheet")


def intro(state: dict) -> Intro:
    return Intro(
        goal=(Sentence("The score pad is the score sheet of any game you play. Every phone "
                       "sees the same totals, and whoever has the most points wins.")
              if state["winning"] == "highest" else
              Sentence("The score pad is the score sheet of any game you play. Every phone "
                       "sees the same totals, and whoever has the fewest points wins.")),
        need=Sentence("The game itself on the table, and a phone for anyone who wants to enter "
                      "their own points."),
        start=Sentence("Start the way your game's rules say; the sheet has no order of turns."))
