"""The score pad's newcomer robot: a family keeps the score of a dice game on the sheet.

The physical game: every round each player rolls three dice and scores their sum, a triple
scoring double. Papa (the host) and Lena have phones; Mama and Jonas have none, so Papa enters
theirs. Each enters a round's points once everyone has rolled it, earliest round first, with
the sheet's cell where the sheet shows one and the "Enter a score" form otherwise (a new round
of an open sheet has no row yet): the robot leaves a field as the form shows it unless it has to
change it, as a hand would."""

from __future__ import annotations

import json
import random

from tests.robots.harness import Form, Lost, Physical, Tap, Turn


class DiceNight(Physical):
    game = "scorepad"
    players = ("Papa", "Mama", "Lena", "Jonas")
    phones = ("Papa", "Lena")

    def __init__(self, seed: int, rounds: int, planned: bool):
        self.random = random.Random(seed)
        self.rounds = rounds  # how long the dice game lasts at the table
        self.planned = planned  # the sheet knows the number of rounds and ends by itself
        self.options = {"rounds": str(rounds)} if planned else {}
        self.rolled: dict[str, list[int]] = {name: [] for name in self.players}
        self.entered: dict[tuple[str, int], int] = {}  # what the family typed into the phones
        self.finished = False

    def roll(self) -> int:
        dice = [self.random.randint(1, 6) for _ in range(3)]
        return sum(dice) * (2 if len(set(dice)) == 1 else 1)

    def waiting(self) -> tuple[str, int] | None:
        """The next score the table has rolled and not entered: earliest round, in seat order;
        a round is rolled by everyone once the one before is entered in full."""
        for number in range(1, self.rounds + 1):
            for name in self.players:
                if (name, number) not in self.entered:
                    if len(self.rolled[name]) < number:
                        for each in self.players:
                            self.rolled[each].append(self.roll())
                    return name, number
        return None

    def actor(self, card) -> str | None:
        waiting = self.waiting()
        return waiting[0] if waiting else "Papa"

    def over(self) -> bool:
        return self.waiting() is None and (self.planned or self.finished)

    def tap(self, turn: Turn) -> Tap:
        if turn.card.control == "finish_game" or self.waiting() is None:
            # The card ends the game (the family trusts it), or the dice game is over and the
            # card must say how to finish.
            form = next((form for form in turn.marked if form.action == "finish_game"), None)
            form = form or turn.named("finish_game")
            self.finished = True
            return Tap(form)
        player, number = self.waiting()
        points = self.rolled[player][number - 1]
        self.entered[(player, number)] = points
        cell = next((form for form in turn.marked if "score-cell-form" in form.classes), None)
        shown = next(iter(turn.page.root.xpath("//*[@data-edit-score and @data-player=$player and @data-round=$round]",
                                               player=player, round=str(number))), None)
        # The sheet's cell where it shows one (on a planned sheet in odd rounds, to use both).
        if cell is not None and shown is not None and not (self.planned and number % 2 == 0):
            return Tap(cell, {"player": player, "round": str(number), "points": str(points)},
                       opener=f'[data-edit-score][data-player="{player}"][data-round="{number}"]')
        entry = next((form for form in turn.marked if "score-entry" in form.classes), None)
        if entry is None:
            raise Lost(f"no entry form is marked for {player}'s round {number}")
        return self.enter(entry, turn, player, points)

    def enter(self, entry: Form, turn: Turn, player: str, points: int) -> Tap:
        """The "Enter a score" form: the player chosen if the form names another (the page
        then suggests that player's next round), the points typed, the round as it reads."""
        values = {"points": str(points)}
        if entry.fields.get("player") != player:
            values["player"] = player
            sheet = turn.page.root.xpath("//*[@data-next-rounds]")[0]
            values["round"] = str(json.loads(sheet.get("data-next-rounds"))[player])
        return Tap(entry, values)

    def check_end(self, snapshot: dict) -> None:
        if not self.over():
            raise Lost(f"the companion ended the game while the dice game went on: {snapshot['scores']}")
        totals = {name: sum(self.rolled[name]) for name in self.players}
        assert snapshot["finished"], snapshot
        assert snapshot["scores"] == totals, (snapshot["scores"], totals)
