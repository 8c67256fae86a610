"""Part 11: a long game (10,000 log entries) against a short one."""

from __future__ import annotations

import time

import aiohttp

from bench.phones import REQUEST_TIMEOUT
from bench.report import goal, log, timing_header, timing_row
from bench.servers import Server, client_connector, single_database, wait_up
from bench.timing import median


async def long_games(args) -> list[str]:
    """An action, a snapshot and an undo + redo on a table of 10 log entries and on one of
    10,000 (score pad), alternately with /healthz on the same server."""
    with Server("long", args.port + 8, args, single_database(args)) as server:
        async with aiohttp.ClientSession(connector=client_connector(), timeout=REQUEST_TIMEOUT) as plain:
            await wait_up(plain, server)

            async def call(method: str, path: str, token: str | None = None,
                           body: dict | None = None) -> dict:
                headers = {"Authorization": f"Bearer {token}"} if token else {}
                async with plain.request(method, server.base + path, json=body,
                                         headers=headers) as answer:
                    data = await answer.json()
                    assert answer.status in (200, 201), (path, answer.status, data)
                    return data

            async def table_of(entries: int) -> tuple[str, str]:
                made = await call("POST", "/api/tables", body={"game": "scorepad",
                                                               "players": ["Ann", "Ben"]})
                for number in range(entries):
                    await call("POST", f"/api/tables/{made['code']}/actions", made["token"], {
                        "type": "enter_score", "player": "Ann" if number % 2 else "Ben",
                        "round": 1 + number % 30, "points": number})
                return made["code"], made["token"]

            sizes = (10, args.long_entries)
            log(f"long: entering {args.long_entries} scores …")
            tables = {size: await table_of(size) for size in sizes}
            timings: dict[tuple[str, int], list[float]] = {}
            health: list[float] = []
            for round_number in range(args.long_rounds + 3):
                for size, (code, token) in tables.items():
                    steps = {
                        "action": [("POST", f"/api/tables/{code}/actions", {
                            "type": "enter_score", "player": "Ann", "round": 1 + round_number % 30,
                            "points": round_number})],
                        "snapshot": [("GET", f"/api/tables/{code}", None)],
                        "undo + redo": [("POST", f"/api/tables/{code}/undo", {}),
                                        ("POST", f"/api/tables/{code}/redo", {})]}
                    for label, requests in steps.items():
                        started = time.perf_counter()
                        async with plain.get(server.base + "/healthz") as answer:
                            await answer.read()
                        took = time.perf_counter() - started
                        if round_number >= 3:  # the first rounds warm the server up
                            health.append(took)
                        started = time.perf_counter()
                        for method, path, body in requests:
                            await call(method, path, token, body)
                        if round_number >= 3:
                            timings.setdefault((label, size), []).append(time.perf_counter() - started)
    lines = [f"11. Long games: a score pad with {sizes[0]:,} log entries and one with {sizes[1]:,}, "
             f"{args.long_rounds} rounds of an action, a snapshot and an undo + redo on each, "
             f"alternating with /healthz",
             timing_header(),
             timing_row("/healthz", health, health)]
    for label in ("action", "snapshot", "undo + redo"):
        lines += [timing_row(f"{label}, {size:,} entries", timings[(label, size)], health)
                  for size in sizes]
    ratios = {label: median(timings[(label, sizes[1])]) / median(timings[(label, sizes[0])])
              for label in ("action", "snapshot", "undo + redo")}
    lines.append(goal("long", "the long game / the short one, p50 ≤ 2", max(ratios.values()) <= 2,
                      ", ".join(f"{label} {ratio:.2f}×" for label, ratio in ratios.items())))
    return lines
