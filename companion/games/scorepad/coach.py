"""The score pad in teaching mode: it has no turns of its own, so the coach says which
scores the sheet still lacks and how the game ends."""

from __future__ import annotations

from ..coach import Coach, Intro
from ..text import Sentence


def coach(state: dict) -> Coach:
    players, entries = state["players"], state["entries"]
    highest = state["winning"] == "highest"
    if state["finished"]:
        totals = {name: sum(entries[name].values()) for name in players}
        best = (max if highest else min)(totals.values())
        leaders = ", ".join(name for name in players if totals[name] == best)
        return Coach(
            say=Sentence("The game is over: %(players)s, with %(points)d points.",
                         players=leaders, points=best),
            rule="winning",
            after=(Sentence("The highest total wins; the totals are under the sheet.") if highest
                   else Sentence("The lowest total wins; the totals are under the sheet.")),
            see="scoresheet")
    played = max((int(number) for cells in entries.values() for number in cells), default=0)
    if played == 0:
        return Coach(say=Sentence("After the first round, each of you taps the box under "
                                  "their name and enters the points they made."),
                     control="enter_score", rule="entering-scores",
                     short=Sentence("Enter your points for round 1."))
    missing = [name for name in players if str(played) not in entries[name]]
    if missing:
        return Coach(say=Sentence("Round %(round)d still lacks the points of %(players)s.",
                                  round=played, players=", ".join(missing)),
                     control="enter_score", rule="entering-scores",
                     short=Sentence("Round %(round)d: points missing.", round=played))
    if state["rounds"] and played < state["rounds"]:
        return Coach(say=Sentence("Round %(round)d is complete. Play round %(next)d of %(rounds)d, "
                                  "then enter its points.", round=played, next=played + 1,
                                  rounds=state["rounds"]),
                     control="enter_score", rule="rounds",
                     short=Sentence("Play round %(next)d.", next=played + 1))
    return Coach(say=Sentence("Round %(round)d is complete. Play another round, or tap "
                              "\"Finish the game\" when your game has ended.", round=played),
                 control="finish_game", rule="winning",
                 short=Sentence("Another round, or finish the game."))


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
