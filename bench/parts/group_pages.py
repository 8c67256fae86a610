"""Part 8: a group's pages and statistics with 200 plays."""

from __future__ import annotations

import time

import aiohttp

from bench.phones import REQUEST_TIMEOUT
from bench.plays import generated_plays
from bench.report import timing_header, timing_row
from bench.servers import Server, client_connector, single_database, wait_up


async def group_pages(args) -> list[str]:
    """A group with 200 plays: its page and its statistics page (and their JSON), as ratios
    to /healthz measured alternately on the same server."""
    with Server("group", args.port + 5, args, single_database(args)) as server:
        async with aiohttp.ClientSession(connector=client_connector(), timeout=REQUEST_TIMEOUT) as plain:
            await wait_up(plain, server)
            async with plain.post(f"{server.base}/api/groups",
                                  json={"name": "Bench night", "players": []}) as answer:
                code = (await answer.json())["code"]
            plays = generated_plays(args.group_plays)
            async with plain.post(f"{server.base}/api/groups/{code}/plays",
                                  json={"plays": plays}) as answer:
                imported = await answer.json()
            assert imported.get("plays") == len(plays), imported
            pages = {"group page /g/<code>": f"/g/{code}",
                     "statistics page /g/<code>/stats": f"/g/{code}/stats",
                     "statistics JSON /api/groups/<code>/stats": f"/api/groups/{code}/stats",
                     "export JSON /g/<code>/plays.json": f"/g/{code}/plays.json"}
            timings: dict[str, list[float]] = {label: [] for label in pages}
            health: list[float] = []
            sizes: dict[str, int] = {}
            for round_number in range(args.group_rounds + 3):
                for label, path in pages.items():
                    for target, into in (("/healthz", health), (path, timings[label])):
                        started = time.perf_counter()
                        async with plain.get(server.base + target,
                                             headers={"Accept-Encoding": "gzip"}) as answer:
                            body = await answer.read()
                            assert answer.status == 200, (target, answer.status)
                        if round_number >= 3:  # the first rounds warm the server up
                            into.append(time.perf_counter() - started)
                        if target == path:
                            sizes[label] = answer.content_length or len(body)
    lines = [f"8. A group with {len(plays)} plays: pages and statistics, each fetched "
             f"{args.group_rounds} times alternating with /healthz",
             timing_header(),
             timing_row("/healthz", health, health)]
    lines += [timing_row(label, values, health) for label, values in timings.items()]
    lines.append("  sizes (gzip as sent): " + ", ".join(f"{label.split(' ')[0]} {label.split(' ')[1]} "
                                                          f"{size / 1024:.1f} KB"
                                                          for label, size in sizes.items()))
    return lines
