"""Plays of a group as an export holds them, and a group made with them (group, import, stats)."""

from __future__ import annotations

import json
import random
import time

import aiohttp


def generated_plays(count: int) -> list[dict]:
    """``count`` plays of a group of six over the games, as an export holds them (seeded:
    the same plays in every run)."""
    chooser = random.Random(20261201)
    people = ["Katrin", "Ben", "Cem", "Dana", "Emil", "Frieda"]
    games = [("asterix-obelix", 2, 2), ("kartenspiel", 2, 5), ("asterix-co", 2, 4),
             ("zaubertrank", 2, 4), ("scorepad", 2, 6)]
    plays = []
    start = 1_700_000_000
    for number in range(count):
        game, least, most = chooser.choice(games)
        seated = chooser.sample(people, chooser.randint(least, most))
        began = start + number * 7 * 86400 // 3
        if game == "zaubertrank":
            won = chooser.random() < 0.5
            players = [{"name": n, "score": None, "winner": won} for n in seated]
            result, facts = ("won" if won else "lost"), {
                "difficulty": chooser.choice(["easy", "normal", "hard"]),
                "roman_spaces_left": chooser.randint(0, 12)}
        else:
            scores = [chooser.randint(0, 60) for _ in seated]
            players = [{"name": n, "score": s, "winner": s == max(scores)}
                       for n, s in zip(seated, scores)]
            result, facts = None, {}
        plays.append({"uid": f"bench-{number}", "game": game,
                      "started_at": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(began)),
                      "ended_at": time.strftime("%Y-%m-%dT%H:%M:%S+00:00",
                                                time.gmtime(began + chooser.randint(900, 5400))),
                      "players": players, "cooperative": game == "zaubertrank", "result": result,
                      "facts": facts})
    return plays


def import_body(plays: int, names: int) -> bytes:
    """An export of ``plays`` score-pad plays, each of ``names`` players no other play has."""
    day = 86400
    return json.dumps({"plays": [{
        "uid": f"import-{number}", "game": "scorepad",
        "started_at": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(1_700_000_000 + number * day)),
        "ended_at": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(1_700_003_600 + number * day)),
        "players": [{"name": f"P{number}-{seat}", "score": seat, "winner": seat == 0}
                    for seat in range(names)]} for number in range(plays)]}).encode()


async def imported_group(session: aiohttp.ClientSession, base: str, name: str, body: bytes) -> str:
    """A new group holding the plays of ``body`` (an export), imported by its owner."""
    async with session.post(f"{base}/api/groups", json={"name": name, "players": []}) as answer:
        made = await answer.json()
    async with session.post(f"{base}/api/groups/{made['code']}/plays", data=body, headers={
            "Content-Type": "application/json",
            "Authorization": f"Bearer {made['owner_key']}"}) as answer:
        imported = await answer.json()
        assert answer.status == 200, imported
    return made["code"]
