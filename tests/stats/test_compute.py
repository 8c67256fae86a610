"""Statistics of a hand-written evening series, every number worked out by hand in the comments."""

from __future__ import annotations

import json
import random
import time
from datetime import datetime, timedelta, timezone

import pytest

from companion.service.stats import (game_stats, group_stats, head_to_head, head_to_heads, player_stats, prepare,
                             score_trends, statistics)


def play(uid: str, game: str, start: str, minutes: int, seats: list[tuple], result: str | None = None,
         facts: dict | None = None) -> dict:
    """A play as the group's history records it; ``seats``: (name, score, winner) in seat order."""
    started = datetime.fromisoformat(start + "+00:00")
    return {
        "uid": uid, "game": game,
        "started_at": started.isoformat(), "ended_at": (started + timedelta(minutes=minutes)).isoformat(),
        "players": [{"name": name, "score": score, "winner": winner} for name, score, winner in seats],
        "cooperative": result is not None, "result": result, "facts": facts or {},
    }


# Four Fridays. K = Katrin, B = Ben, C = Cleo; W marks a win.
PLAYS = [
    # 6 Nov: p1 Das Kartenspiel K 120 W, B 80, C 95; p2 Asterix & Obelix K 4 W, B 3.
    play("p1", "kartenspiel", "2026-11-06T19:00:00", 40, [("Katrin", 120, True), ("Ben", 80, False), ("Cleo", 95, False)]),
    play("p2", "asterix-obelix", "2026-11-06T20:00:00", 30, [("Katrin", 4, True), ("Ben", 3, False)]),
    # 13 Nov: p3 A&O B 3, C 4 W (Katrin sits out); p4 Kartenspiel K 100 W and C 100 W share, B 40.
    play("p3", "asterix-obelix", "2026-11-13T19:00:00", 30, [("Ben", 3, False), ("Cleo", 4, True)]),
    play("p4", "kartenspiel", "2026-11-13T20:00:00", 45, [("Katrin", 100, True), ("Cleo", 100, True), ("Ben", 40, False)]),
    # 20 Nov: p5 Kartenspiel K 70, B 110 W, C 60; p6 Zaubertrank won by K, B, C together;
    # p7 A&O after midnight (night of the 20th): K 5 W, C 2.
    play("p5", "kartenspiel", "2026-11-20T19:00:00", 50, [("Katrin", 70, False), ("Ben", 110, True), ("Cleo", 60, False)]),
    play("p6", "zaubertrank", "2026-11-20T20:00:00", 35, [("Katrin", None, True), ("Ben", None, True), ("Cleo", None, True)],
         result="won"),
    play("p7", "asterix-obelix", "2026-11-21T00:30:00", 40, [("Katrin", 5, True), ("Cleo", 2, False)]),
    # 27 Nov: p8 Zaubertrank lost by K and B.
    play("p8", "zaubertrank", "2026-11-27T19:00:00", 30, [("Katrin", None, False), ("Ben", None, False)], result="lost"),
]


def by_name(stats) -> dict:
    return {s.name: s for s in stats}


def test_players_over_all_games():
    stats = player_stats(list(reversed(PLAYS)))  # the order given does not matter: by ended_at
    assert [s.name for s in stats] == ["Katrin", "Cleo", "Ben"]  # 5, 3 and 2 wins
    katrin, cleo, ben = stats
    # Katrin: p1 W, p2 W, (p3 sits out), p4 W, p5 L, p6 W, p7 W, p8 L: 5 of 7.
    # Scores 120, 4, 100, 70, 5 (p6 and p8 have none): average 299 / 5 = 59.8.
    # Streaks: p1 p2 p4 = 3 (the play she sat out does not break it), broken by p5; p6 p7 = 2; p8 lost.
    assert (katrin.plays, katrin.wins, katrin.win_rate) == (7, 5, 0.7143)
    assert (katrin.scored_plays, katrin.average_score, katrin.best_score, katrin.worst_score) == (5, 59.8, 120, 4)
    assert (katrin.longest_streak, katrin.current_streak) == (3, 0)
    assert (katrin.first_played, katrin.last_played) == ("2026-11-06", "2026-11-27")
    # Cleo: p1 L, p3 W, p4 W (shared), p5 L, p6 W, p7 L: 3 of 6; scores 95, 4, 100, 60, 2 = 261 / 5.
    assert (cleo.plays, cleo.wins, cleo.win_rate) == (6, 3, 0.5)
    assert (cleo.average_score, cleo.best_score, cleo.worst_score) == (52.2, 100, 2)
    assert (cleo.longest_streak, cleo.current_streak) == (2, 0)
    # Ben: p1 L, p2 L, p3 L, p4 L, p5 W, p6 W, p8 L: 2 of 7; scores 80, 3, 3, 40, 110 = 236 / 5.
    assert (ben.plays, ben.wins, ben.win_rate) == (7, 2, 0.2857)
    assert (ben.average_score, ben.best_score, ben.worst_score) == (47.2, 110, 3)
    assert (ben.longest_streak, ben.current_streak) == (2, 0)


def test_players_in_one_game():
    # Das Kartenspiel: p1, p4, p5.
    stats = by_name(player_stats(PLAYS, "kartenspiel"))
    katrin, ben, cleo = stats["Katrin"], stats["Ben"], stats["Cleo"]
    # Katrin 120 W, 100 W, 70: 2 of 3, average 290 / 3 = 96.67, streak 2 then broken.
    assert (katrin.plays, katrin.wins, katrin.win_rate, katrin.average_score) == (3, 2, 0.6667, 96.67)
    assert (katrin.best_score, katrin.worst_score, katrin.longest_streak, katrin.current_streak) == (120, 70, 2, 0)
    # Ben 80, 40, 110 W: his last play won, so his current streak is 1.
    assert (ben.wins, ben.average_score, ben.best_score, ben.worst_score) == (1, 76.67, 110, 40)
    assert (ben.longest_streak, ben.current_streak) == (1, 1)
    # Cleo 95, 100 W (shared), 60: the shared win counts as hers too.
    assert (cleo.wins, cleo.win_rate, cleo.average_score) == (1, 0.3333, 85)


def test_a_streak_broken_by_a_loss_and_kept_across_plays_sat_out():
    plays = [
        play("a", "scorepad", "2026-01-01T19:00:00", 10, [("Ann", 5, True), ("Bo", 1, False)]),
        play("b", "scorepad", "2026-01-02T19:00:00", 10, [("Bo", 5, True), ("Cy", 1, False)]),  # Ann out
        play("c", "scorepad", "2026-01-03T19:00:00", 10, [("Ann", 5, True), ("Cy", 1, False)]),
        play("d", "scorepad", "2026-01-04T19:00:00", 10, [("Ann", 1, False), ("Bo", 5, True)]),  # broken
        play("e", "scorepad", "2026-01-05T19:00:00", 10, [("Ann", 5, True), ("Bo", 1, False)]),
    ]
    ann = by_name(player_stats(plays))["Ann"]
    assert (ann.longest_streak, ann.current_streak) == (2, 1)  # a, c; then e
    bo = by_name(player_stats(plays))["Bo"]
    assert (bo.longest_streak, bo.current_streak) == (2, 0)  # b, d; then lost e


def test_head_to_head_with_wins_shared_wins_and_neither():
    # Katrin and Ben met in p1, p2, p4, p5, p6, p8.
    # p1 p2 p4: Katrin won; p5: Ben won; p6: both won together; p8: both lost together.
    # Scores both kept: p1 +40, p2 +1, p4 +60, p5 -40: average 61 / 4 = 15.25.
    kb = head_to_head(PLAYS, "Katrin", "Ben")
    assert (kb.plays, kb.a_wins, kb.b_wins, kb.both_won, kb.neither_won) == (6, 3, 1, 1, 1)
    assert (kb.scored_plays, kb.average_difference, kb.a_ahead, kb.b_ahead) == (4, 15.25, 3, 1)
    # The other way round, every number swaps sides.
    bk = head_to_head(PLAYS, "Ben", "Katrin")
    assert (bk.a_wins, bk.b_wins, bk.average_difference, bk.a_ahead) == (1, 3, -15.25, 1)
    # Katrin and Cleo met in p1, p4, p5, p6, p7: p1 and p7 Katrin's; p4 shared and p6 together
    # (both won); p5 went to Ben (neither). Scores: +25, 0, +10, +3: average 9.5; one tie on 100.
    kc = head_to_head(PLAYS, "Katrin", "Cleo")
    assert (kc.plays, kc.a_wins, kc.b_wins, kc.both_won, kc.neither_won) == (5, 2, 0, 2, 1)
    assert (kc.average_difference, kc.a_ahead, kc.b_ahead) == (9.5, 3, 0)
    # Only Das Kartenspiel: p1 Katrin's, p4 shared, p5 neither.
    assert head_to_head(PLAYS, "Katrin", "Cleo", "kartenspiel").as_dict() == {
        "a": "Katrin", "b": "Cleo", "game": "kartenspiel", "plays": 3, "a_wins": 1, "b_wins": 0,
        "both_won": 1, "neither_won": 1, "scored_plays": 3, "average_difference": 11.67, "a_ahead": 2, "b_ahead": 0}
    assert head_to_head(PLAYS, "Katrin", "Nobody").plays == 0


def test_every_pair_that_met():
    pairs = {(h.a, h.b): h for h in head_to_heads(PLAYS)}
    # Ben-Cleo: p1, p3, p4, p5, p6 = 5; Ben-Katrin 6; Cleo-Katrin 5 (names in alphabetical order).
    assert [(h.a, h.b, h.plays) for h in head_to_heads(PLAYS)] == [
        ("Ben", "Katrin", 6), ("Ben", "Cleo", 5), ("Cleo", "Katrin", 5)]
    assert pairs[("Ben", "Katrin")].as_dict() == head_to_head(PLAYS, "Ben", "Katrin").as_dict()
    # Ben-Cleo: p1 neither (Katrin), p3 Cleo, p4 Cleo, p5 Ben, p6 both.
    bc = pairs[("Ben", "Cleo")]
    assert (bc.a_wins, bc.b_wins, bc.both_won, bc.neither_won) == (1, 2, 1, 1)


def test_lowest_total_wins_turns_best_and_worst_round():
    golf = {"winning": "lowest"}
    plays = [
        play("g1", "scorepad", "2026-02-01T19:00:00", 60, [("Ann", 72, True), ("Bo", 80, False)], facts=golf),
        play("g2", "scorepad", "2026-02-08T19:00:00", 60, [("Ann", 85, False), ("Bo", 70, True)], facts=golf),
    ]
    ann = by_name(player_stats(plays))["Ann"]
    assert (ann.best_score, ann.worst_score, ann.average_score) == (72, 85, 78.5)
    ab = head_to_head(plays, "Ann", "Bo")
    # g1 Ann 8 strokes better, g2 Bo 15 better: the raw difference is (-8 + 15) / 2 = 3.5.
    assert (ab.a_ahead, ab.b_ahead, ab.average_difference) == (1, 1, 3.5)
    assert game_stats(plays, "scorepad").high_score.as_dict() == {
        "player": "Bo", "score": 70, "date": "2026-02-08", "uid": "g2", "players": ["Bo"]}


def test_an_equal_best_score_names_everyone_who_made_it():
    plays = [
        play("t1", "scorepad", "2026-12-01T19:00:00", 30, [("Mama", 29, True), ("Lena", 12, False)]),
        play("t2", "scorepad", "2026-12-03T19:00:00", 30, [("Lena", 29, True), ("Mama", 29, True)]),
    ]
    high = game_stats(plays, "scorepad").high_score
    assert (high.score, high.player, high.players) == (29, "Mama", ["Mama", "Lena"])


def test_score_trends_per_player_per_game():
    trends = score_trends(PLAYS, "kartenspiel")
    assert [line.player for line in trends] == ["Ben", "Cleo", "Katrin"]  # three scores each: by name
    katrin = trends[2]
    assert [(p.index, p.date, p.score, p.won) for p in katrin.points] == [
        (0, "2026-11-06", 120, True), (1, "2026-11-13", 100, True), (2, "2026-11-20", 70, False)]
    # A&O: p2, p3, p7; Katrin sat out p3, so her points are plays 0 and 2.
    ao = {line.player: line for line in score_trends(PLAYS, "asterix-obelix")}
    assert [(p.index, p.score) for p in ao["Katrin"].points] == [(0, 4), (2, 5)]
    assert score_trends(PLAYS, "zaubertrank") == []  # no scores in a cooperative game


def test_one_game():
    ks = game_stats(PLAYS, "kartenspiel")
    # Three plays of 40, 45 and 50 minutes; the best score Katrin's 120 in p1.
    assert (ks.name, ks.plays, ks.cooperative, ks.average_minutes) == ("Asterix: Das Kartenspiel", 3, False, 45.0)
    assert ks.high_score.as_dict() == {"player": "Katrin", "score": 120, "date": "2026-11-06", "uid": "p1",
                                      "players": ["Katrin"]}
    assert (ks.won, ks.lost, ks.win_rate) == (None, None, None)
    zt = game_stats(PLAYS, "zaubertrank")
    # p6 won, p8 lost; Cleo played only the won one.
    assert (zt.cooperative, zt.plays, zt.won, zt.lost, zt.win_rate, zt.high_score) == (True, 2, 1, 1, 0.5, None)
    assert [(p.name, p.plays, p.wins, p.win_rate, p.average_score) for p in zt.players] == [
        ("Cleo", 1, 1, 1.0, None), ("Ben", 2, 1, 0.5, None), ("Katrin", 2, 1, 0.5, None)]


def test_the_group():
    group = group_stats(PLAYS)
    assert (group.plays, group.first_played, group.last_played) == (8, "2026-11-06", "2026-11-27")
    # 40 + 30 + 30 + 45 + 50 + 35 + 40 + 30 minutes.
    assert group.total_minutes == 300
    # Three plays each of A&O (30, 30, 40) and Kartenspiel (40, 45, 50), two of Zaubertrank (35, 30).
    assert [(g.game, g.plays, g.last_played, g.average_minutes) for g in group.games] == [
        ("asterix-obelix", 3, "2026-11-21", 33.3),
        ("kartenspiel", 3, "2026-11-20", 45.0),
        ("zaubertrank", 2, "2026-11-27", 32.5),
    ]
    # The play at half past midnight belongs to the night of the 20th.
    assert [night.as_dict() for night in group.nights] == [
        {"date": "2026-11-06", "plays": 2, "games": ["kartenspiel", "asterix-obelix"],
         "players": ["Katrin", "Ben", "Cleo"], "minutes": 70},
        {"date": "2026-11-13", "plays": 2, "games": ["asterix-obelix", "kartenspiel"],
         "players": ["Ben", "Cleo", "Katrin"], "minutes": 75},
        {"date": "2026-11-20", "plays": 3, "games": ["kartenspiel", "zaubertrank", "asterix-obelix"],
         "players": ["Katrin", "Ben", "Cleo"], "minutes": 125},
        {"date": "2026-11-27", "plays": 1, "games": ["zaubertrank"], "players": ["Katrin", "Ben"], "minutes": 30},
    ]
    assert [p.name for p in group.players] == ["Katrin", "Cleo", "Ben"]


def test_nights_in_the_group_time_zone():
    # 23:30 UTC on the 6th is 00:30 on the 7th in Berlin: still the night of the 6th. A play at
    # 05:30 UTC (06:30 Berlin) on the 7th starts a new day.
    from zoneinfo import ZoneInfo

    plays = [play("a", "scorepad", "2026-11-06T23:30:00", 20, [("Ann", 1, True)]),
             play("b", "scorepad", "2026-11-07T05:30:00", 20, [("Ann", 1, True)])]
    assert [n.date for n in group_stats(plays, tz=ZoneInfo("Europe/Berlin")).nights] == ["2026-11-06", "2026-11-07"]


def test_everything_at_once_is_json_ready():
    everything = statistics(PLAYS)
    data = everything.as_dict()
    assert json.loads(json.dumps(data)) == data
    assert [g["game"] for g in data["games"]] == ["asterix-obelix", "kartenspiel", "zaubertrank"]
    assert data["games"][0]["insights"]["game"] == "asterix-obelix"
    assert data["group"]["players"][0]["name"] == "Katrin"
    assert len(data["head_to_heads"]) == 3


def test_odd_input_is_counted_or_skipped_never_a_crash():
    plays = [
        {"uid": "x", "game": "scorepad", "players": [{"name": "Ann", "score": "7", "winner": True},
                                                      {"name": None, "score": 3}, {"name": "Ann", "score": 9}]},
        {"uid": "y", "game": "mystery", "started_at": "not a date", "ended_at": "2026-11-06T20:00:00Z",
         "players": [{"name": "Ann", "score": 3.5, "winner": False}]},
        {"uid": "z", "game": "zaubertrank", "cooperative": True, "result": "won",
         "players": [{"name": "Ann", "winner": False}], "facts": "broken"},
    ]
    ann = player_stats(plays)[0]
    # x: one seat for Ann (a text score is no score), y: 3.5; z: the cooperative result rules.
    assert (ann.plays, ann.wins, ann.scored_plays, ann.average_score) == (3, 2, 1, 3.5)
    everything = statistics(plays)
    assert [g.name for g in everything.group.games] == ["Mission Zaubertrank!", "mystery", "Score pad"]
    assert statistics([]).as_dict()["group"] == {
        "plays": 0, "first_played": None, "last_played": None, "total_minutes": 0,
        "games": [], "nights": [], "players": []}


def generated(count: int, seed: int = 14) -> list[dict]:
    """``count`` plays of every game among six friends, with facts as facts_of gives them."""
    rnd = random.Random(seed)
    names = ["Ann", "Ben", "Cleo", "Dan", "Eve", "Fritz"]
    plays = []
    for index in range(count):
        game = rnd.choice(["asterix-obelix", "kartenspiel", "asterix-co", "zaubertrank", "scorepad"])
        seated = rnd.sample(names, 2 if game == "asterix-obelix" else rnd.randint(2, 4))
        start = datetime(2026, 1, 2, 19, tzinfo=timezone.utc) + timedelta(days=index // 3, minutes=50 * (index % 3))
        facts: dict = {}
        if game == "zaubertrank":
            result = rnd.choice(["won", "lost"])
            seats = [(name, None, result == "won") for name in seated]
            facts = {"difficulty": rnd.choice(["one Roman", "a cohort"]), "challenge": False,
                     "roman_spaces_left": rnd.randint(1, 8) if result == "won" else 0, "result": result}
        else:
            result = None
            scores = {name: rnd.randint(0, 100) for name in seated}
            seats = [(name, scores[name], scores[name] == max(scores.values())) for name in seated]
            if game == "asterix-obelix":
                facts = {"tokens_won": {name: rnd.sample(["traitor", "red", "blue"], 1) for name in seated},
                         "fifth_feast_ended": True}
            elif game == "kartenspiel":
                facts = {"rounds": [{"round": r, "lost_to_pirates": {n: rnd.randint(0, 9) for n in seated}}
                                    for r in range(1, 5)]}
            elif game == "asterix-co":
                facts = {"sesterces": {n: {"albums": 15, "centurion_helmets": 3, "legionary_helmets": 1}
                                       for n in seated}, "albums_won": {n: 1 for n in seated}}
        plays.append(play(f"g{index}", game, start.isoformat()[:19], 40, seats, result, facts))
    return plays


def test_two_hundred_plays_take_a_few_milliseconds():
    plays = generated(200)
    statistics(plays)  # imports and first-call costs apart
    best = float("inf")
    for _ in range(5):
        began = time.process_time()
        everything = statistics(plays)
        everything.as_dict()
        best = min(best, time.process_time() - began)
    assert everything.group.plays == 200
    assert best < 0.03, f"{best * 1000:.1f} ms of processor time for 200 plays"


def test_prepared_rows_are_reused_as_they_are():
    rows = prepare(PLAYS)
    assert prepare(rows) == rows and prepare(rows)[0] is rows[0]
    assert player_stats(rows)[0].as_dict() == player_stats(PLAYS)[0].as_dict()


@pytest.mark.parametrize("game", ["kartenspiel", "asterix-obelix", "zaubertrank"])
def test_a_game_stats_players_add_up_to_its_plays(game):
    stats = game_stats(PLAYS, game)
    seats = sum(len(p["players"]) for p in PLAYS if p["game"] == game)
    assert sum(p.plays for p in stats.players) == seats


def test_the_answer_has_a_json_schema_for_the_api():
    """pydantic reads the dataclasses: the OpenAPI document can describe what as_dict() sends."""
    import jsonschema
    from pydantic import BaseModel

    from companion.service.stats import Statistics

    class StatisticsReply(BaseModel):
        statistics: Statistics

    schema = StatisticsReply.model_json_schema(mode="serialization")
    assert {"GameStats", "PlayerStats", "ZaubertrankInsights", "AsterixObelixInsights"} <= set(schema["$defs"])
    jsonschema.validate({"statistics": statistics(generated(60)).as_dict()}, schema)


def test_one_players_page():
    from companion.service.stats import player_profile

    cleo = player_profile(PLAYS, "Cleo")
    # Overall as in test_players_over_all_games; per game: Kartenspiel p1 p4 p5 (1 win), A&O p3 p7
    # (1 win), Zaubertrank p6 (won).
    assert (cleo.overall.plays, cleo.overall.wins) == (6, 3)
    assert [(g.game, g.stats.plays, g.stats.wins) for g in cleo.games] == [
        ("kartenspiel", 3, 1), ("asterix-obelix", 2, 1), ("zaubertrank", 1, 1)]
    # Opponents, Cleo always first: Ben 5 plays together (Cleo won p3 p4, Ben p5, both p6, neither p1),
    # Katrin 5 (Katrin won p1 p7, both p4 p6, neither p5).
    assert [(h.a, h.b, h.plays, h.a_wins, h.b_wins, h.both_won, h.neither_won) for h in cleo.opponents] == [
        ("Cleo", "Ben", 5, 2, 1, 1, 1), ("Cleo", "Katrin", 5, 0, 2, 2, 1)]
    assert player_profile(PLAYS, "Nobody") is None
