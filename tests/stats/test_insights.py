"""Per-game insights summed over the plays' facts, worked out by hand in the comments."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from companion.service.stats import game_insights


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


def ao(uid: str, day: str, seats: list[tuple], tokens_won: dict | None, fifth_feast: bool = True) -> dict:
    facts = {} if tokens_won is None else {"tokens_won": tokens_won, "fifth_feast_ended": fifth_feast}
    return play(uid, "asterix-obelix", f"2026-11-{day}T19:00:00", 30, seats, facts=facts)


def test_asterix_obelix_tokens_by_kind_and_fifth_feast_endings():
    plays = [
        ao("a1", "06", [("Katrin", 4, True), ("Ben", 3, False)],
           {"Katrin": ["traitor", "red", "blue", "green"], "Ben": ["pirates", "yellow", "purple"]}),
        ao("a2", "13", [("Ben", 3, False), ("Cleo", 4, True)],
           {"Ben": ["red", "blue", "purple"], "Cleo": ["traitor", "pirates", "yellow", "green"]}),
        ao("a3", "20", [("Katrin", 5, True), ("Cleo", 2, False)],
           {"Katrin": ["traitor", "pirates", "red", "blue", "yellow"], "Cleo": ["green", "purple"]},
           fifth_feast=False),
        ao("a4", "27", [("Katrin", 4, True), ("Ben", 3, False)], None),  # quick-scored: no facts
        play("k1", "kartenspiel", "2026-11-27T20:00:00", 30, [("Katrin", 9, True)], facts={"rounds": []}),
    ]
    insight = game_insights("asterix-obelix", plays)
    # Three plays with facts, two ended by the fifth feast: 2 / 3.
    assert (insight.plays, insight.fifth_feast_endings, insight.fifth_feast_share) == (3, 2, 0.6667)
    players = {p.name: p for p in insight.players}
    # Katrin (a1, a3): traitor 2, pirates 1, red 2, blue 2, yellow 1, green 1: 9 in 2 plays.
    assert players["Katrin"].tokens == {"traitor": 2, "pirates": 1, "red": 2, "blue": 2, "yellow": 1,
                                        "green": 1, "purple": 0}
    assert (players["Katrin"].plays, players["Katrin"].total, players["Katrin"].per_play) == (2, 9, 4.5)
    # Ben (a1, a2): pirates, yellow, purple; red, blue, purple: 6.
    assert players["Ben"].tokens == {"traitor": 0, "pirates": 1, "red": 1, "blue": 1, "yellow": 1,
                                     "green": 0, "purple": 2}
    # Cleo (a2, a3): traitor, pirates, yellow, green; green, purple: 6.
    assert players["Cleo"].tokens == {"traitor": 1, "pirates": 1, "red": 0, "blue": 0, "yellow": 1,
                                      "green": 2, "purple": 1}
    assert [(p.name, p.total) for p in insight.players] == [("Katrin", 9), ("Ben", 6), ("Cleo", 6)]
    assert insight.token_kinds == ["traitor", "pirates", "red", "blue", "yellow", "green", "purple"]
    assert json.loads(json.dumps(insight.as_dict())) == insight.as_dict()


def ks(uid: str, day: str, rounds: list[dict] | None) -> dict:
    seats = [("Katrin", 50, True), ("Ben", 40, False), ("Cleo", 30, False)]
    return play(uid, "kartenspiel", f"2026-11-{day}T19:00:00", 45, seats,
                facts={} if rounds is None else {"rounds": rounds})


def test_kartenspiel_points_lost_to_pirates_per_round():
    plays = [
        ks("k1", "06", [{"round": 1, "lost_to_pirates": {"Katrin": 0, "Ben": 5, "Cleo": 10}},
                        {"round": 2, "lost_to_pirates": {"Katrin": 3, "Ben": 0, "Cleo": 0}}]),
        ks("k2", "13", [{"round": 1, "lost_to_pirates": {"Katrin": 0, "Ben": 7, "Cleo": 0}},
                        {"round": 2, "lost_to_pirates": {"Katrin": 4, "Ben": 0, "Cleo": 2}}]),
        ks("k3", "20", None),  # typed in afterwards: no facts
    ]
    insight = game_insights("kartenspiel", plays)
    # 2 plays × 2 rounds × 3 players = 12 player-rounds; 15 + 7 + 9 = 31 points: 31 / 12 = 2.58.
    assert (insight.plays, insight.player_rounds, insight.lost, insight.per_round) == (2, 12, 31, 2.58)
    # Katrin 0 + 3 + 0 + 4 = 7 in 4 rounds: 1.75; Ben 5 + 7 = 12: 3.0; Cleo 10 + 2 = 12: 3.0.
    assert [(p.name, p.plays, p.rounds, p.lost, p.per_round) for p in insight.players] == [
        ("Ben", 2, 4, 12, 3.0), ("Cleo", 2, 4, 12, 3.0), ("Katrin", 2, 4, 7, 1.75)]
    # Round 1: 0 + 5 + 10 + 0 + 7 + 0 = 22 over 6: 3.67; round 2: 3 + 4 + 2 = 9 over 6: 1.5.
    assert [(r.round, r.player_rounds, r.lost, r.per_player) for r in insight.by_round] == [
        (1, 6, 22, 3.67), (2, 6, 9, 1.5)]


def co(uid: str, day: str, sesterces: dict) -> dict:
    totals = {name: sum(parts) for name, parts in sesterces.items()}
    seats = [(name, total, total == max(totals.values())) for name, total in totals.items()]
    facts = {"sesterces": {name: dict(zip(("albums", "centurion_helmets", "legionary_helmets"), parts))
                           for name, parts in sesterces.items()},
             "albums_won": {name: parts[0] // 15 for name, parts in sesterces.items()}}
    return play(uid, "asterix-co", f"2026-11-{day}T19:00:00", 60, seats, facts=facts)


def test_asterix_co_sesterces_by_source_and_albums_won():
    plays = [
        co("c1", "06", {"Ann": (45, 3, 2), "Bob": (15, 0, 1)}),
        co("c2", "13", {"Ann": (30, 6, 1), "Bob": (45, 3, 4)}),
        co("c3", "20", {"Ann": (15, 0, 0), "Bob": (0, 0, 3), "Cid": (45, 3, 2)}),
    ]
    insight = game_insights("asterix-co", plays)
    assert (insight.plays, insight.sources) == (3, ["albums", "centurion_helmets", "legionary_helmets"])
    players = {p.name: p for p in insight.players}
    # Ann: albums 45 + 30 + 15 = 90 (6 albums), centurion 3 + 6 = 9, legionary 2 + 1 = 3, in 3 plays.
    ann = players["Ann"]
    assert ann.sesterces == {"albums": 90, "centurion_helmets": 9, "legionary_helmets": 3}
    assert ann.per_play == {"albums": 30.0, "centurion_helmets": 3.0, "legionary_helmets": 1.0}
    assert (ann.albums_won, ann.albums_per_play, ann.total_per_play) == (6, 2.0, 34.0)
    # Bob: 15 + 45 = 60 (4 albums), 3, 1 + 4 + 3 = 8: 71 / 3 = 23.67 a play.
    bob = players["Bob"]
    assert bob.per_play == {"albums": 20.0, "centurion_helmets": 1.0, "legionary_helmets": 2.67}
    assert (bob.albums_won, bob.albums_per_play, bob.total_per_play) == (4, 1.33, 23.67)
    # Cid played once: 50.
    assert [(p.name, p.total_per_play) for p in insight.players] == [("Cid", 50.0), ("Ann", 34.0), ("Bob", 23.67)]


def zt(uid: str, day: str, difficulty: str, result: str, spaces: int, challenge: bool = False) -> dict:
    seats = [("Ann", None, result == "won"), ("Bob", None, result == "won")]
    facts = {"difficulty": difficulty, "challenge": challenge, "result": result, "roman_spaces_left": spaces}
    return play(uid, "zaubertrank", f"2026-11-{day}T19:00:00", 40, seats, result=result, facts=facts)


def test_zaubertrank_win_rate_by_difficulty_and_spaces_left():
    plays = [
        zt("z1", "06", "one Roman", "won", 7),
        zt("z2", "07", "one Roman", "lost", 0),
        zt("z3", "13", "a cohort", "won", 4),
        zt("z4", "14", "a cohort", "lost", 0, challenge=True),
        zt("z5", "20", "one Roman", "won", 3),
    ]
    insight = game_insights("zaubertrank", plays)
    # 3 of 5 won; spaces left (7 + 0 + 4 + 0 + 3) / 5 = 2.8, over the wins (7 + 4 + 3) / 3 = 4.67.
    assert (insight.plays, insight.wins, insight.win_rate) == (5, 3, 0.6)
    assert (insight.spaces_left, insight.spaces_left_when_won) == (2.8, 4.67)
    # One Roman (4 cards): 2 of 3, (7 + 3) / 2 = 5 left; a cohort (6): 1 of 1, 4; with the
    # challenge (7 cards): 0 of 1, no win to count spaces on.
    assert [(d.label, d.task_cards, d.plays, d.wins, d.win_rate, d.spaces_left_when_won)
            for d in insight.by_difficulty] == [
        ("one Roman", 4, 3, 2, 0.6667, 5.0),
        ("a cohort", 6, 1, 1, 1.0, 4.0),
        ("a cohort + challenge", 7, 1, 0, 0.0, None),
    ]


def test_no_insights_for_the_score_pad_and_none_from_no_plays():
    assert game_insights("scorepad", []) is None
    empty = game_insights("asterix-obelix", [])
    assert (empty.plays, empty.fifth_feast_share, empty.players) == (0, None, [])
    assert game_insights("zaubertrank", []).win_rate is None
