"""Part 12: a large import while the other tables play."""

from __future__ import annotations

import asyncio
import time

import aiohttp

from bench.households import HAMMER_ADDRESS, loaded_rows, other_sessions, other_tables
from bench.phones import REQUEST_TIMEOUT, create_table, gather_limited
from bench.plays import import_body
from bench.report import by_kind, goal, log, mb, timing_header
from bench.servers import Server, client_connector, loopback_connector, single_database, wait_up
from bench.timing import LoopLag, Window, rss_bytes


async def importing(args) -> list[str]:
    """The other tables' reads and actions (as in hammer), before and while a group imports
    ``--import-plays`` plays of 12 new names each."""
    with Server("import", args.port + 11, args, single_database(args)) as server:
        sessions = other_sessions(args)
        health = aiohttp.ClientSession(connector=client_connector(), timeout=REQUEST_TIMEOUT)
        importer = aiohttp.ClientSession(connector=loopback_connector(HAMMER_ADDRESS),
                                         timeout=aiohttp.ClientTimeout(total=120))
        try:
            await wait_up(health, server)
            seats = ["P1", "P2", "P3", "P4"]
            others = await gather_limited((create_table(session, server.base, "scorepad", seats)
                                           for session in sessions), 8)
            async with importer.post(f"{server.base}/api/groups",
                                     json={"name": "Big import", "players": []}) as answer:
                made = await answer.json()
                code, owner = made["code"], {"Authorization": f"Bearer {made['owner_key']}"}
            body = import_body(args.import_plays, 12)
            await other_tables(server.base, others, sessions, health, 2 * len(others),
                               args.hammer_rate)  # warm up
            log(f"import: {args.hammer_requests} reads and actions, unloaded …")
            quiet, quiet_failed = await other_tables(server.base, others, sessions, health,
                                                     args.hammer_requests, args.hammer_rate)
            took: dict[str, float] = {}

            async def one_import() -> None:
                await asyncio.sleep(1)
                took["rss before"] = took["rss most"] = rss_bytes([server])
                started = time.perf_counter()
                sampling = asyncio.create_task(most_rss())
                async with importer.post(f"{server.base}/api/groups/{code}/plays", data=body,
                                         headers={"Content-Type": "application/json",
                                                  **owner}) as answer:
                    took["answer"] = answer.status
                    took["added"] = (await answer.json()).get("added", 0)
                took["seconds"] = time.perf_counter() - started
                sampling.cancel()

            async def most_rss() -> None:
                while True:
                    took["rss most"] = max(took["rss most"], rss_bytes([server]))
                    await asyncio.sleep(0.05)

            log(f"import: {args.hammer_requests} reads and actions while {args.import_plays} "
                f"plays are imported …")
            with Window([server]) as window, LoopLag() as lag:
                (loaded, loaded_failed), _ = await asyncio.gather(
                    other_tables(server.base, others, sessions, health, args.hammer_requests,
                                 args.hammer_rate), one_import())
            log(f"import: {IMPORTS_AT_ONCE} imports at once …")
            crowd = await imports_at_once(server, importer, body)
        finally:
            await asyncio.gather(*(s.close() for s in sessions), health.close(), importer.close())

    # Only the requests sent while the import ran: before and after it, nothing is loaded.
    began = window.began + 1
    during = {label: [t for t in loaded[label] if began <= t[0] <= began + took["seconds"]]
              for label in loaded}
    lines = [f"12. A group imports {args.import_plays} plays of 12 new names each "
             f"({len(body) / 2**20:.1f} MB, through the API, from {HAMMER_ADDRESS}) while "
             f"{len(others)} other tables read and enter scores {args.hammer_rate:g} times a "
             f"second each, with /healthz",
             f"  the import: answered {took['answer']} in {took['seconds']:.2f} s, "
             f"{took['added']} plays added; server RSS {mb(took['rss before'])} before, at most "
             f"{mb(took['rss most'])} during it (+{mb(took['rss most'] - took['rss before'])})",
             timing_header()]
    rows, ratios, gated = loaded_rows(quiet, during, "during the import")
    lines += rows
    lines.append(goal("import", f"the import of {args.import_plays} plays under 10 s",
                      took["seconds"] < 10 and took["answer"] == 200, f"{took['seconds']:.2f} s"))
    lines.append(goal("import", "other tables' read and action p99 during the import / "
                      "unloaded p99 ≤ 2", max(gated) <= 2 and took["answer"] == 200,
                      ", ".join(ratios)))
    lines.append("  other tables' failures: " + "; ".join(
        f"{label.split(' ')[0]} unloaded {len(quiet_failed[label])}, loaded "
        f"{len(loaded_failed[label])}{by_kind(loaded_failed[label])}" for label in quiet))
    lines += [f"  the server over the loaded stretch ({window.seconds:.0f} s): {window.text()}",
              f"  measuring client {lag.text()}"]
    answers = ", ".join(f"{status} × {crowd['answers'].count(status)}"
                        for status in sorted(set(crowd["answers"]), key=str))
    lines.append(f"  then {IMPORTS_AT_ONCE} connections send the same file at once to a new "
                 f"group: {answers}; server RSS {mb(crowd['before'])} before, at most "
                 f"{mb(crowd['most'])} (+{mb(crowd['most'] - crowd['before'])})")
    lines.append(goal("import", f"{IMPORTS_AT_ONCE} imports at once raise the server's memory "
                      "by < 50 MB", crowd["most"] - crowd["before"] < 50 * 2**20
                      and crowd["answers"].count(200) >= 1,
                      mb(crowd["most"] - crowd["before"])))
    return lines


IMPORTS_AT_ONCE = 150


async def imports_at_once(server: "Server", session: aiohttp.ClientSession, body: bytes) -> dict:
    """The server's memory while IMPORTS_AT_ONCE connections send an import at once (one is
    read, the others are refused before their bodies are)."""
    async with session.post(f"{server.base}/api/groups", json={"name": "Crowd", "players": []}) as answer:
        made = await answer.json()
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {made['owner_key']}"}
    found: dict = {"answers": [], "before": rss_bytes([server])}
    found["most"] = found["before"]

    async def one(client: aiohttp.ClientSession) -> None:
        try:
            async with client.post(f"{server.base}/api/groups/{made['code']}/plays", data=body,
                                   headers=headers) as answer:
                await answer.read()
                found["answers"].append(answer.status)
        except (aiohttp.ClientError, asyncio.TimeoutError) as error:
            found["answers"].append(type(error).__name__)

    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0),
                                     timeout=aiohttp.ClientTimeout(total=120)) as client:
        sending = asyncio.gather(*(one(client) for _ in range(IMPORTS_AT_ONCE)))
        while not sending.done():
            found["most"] = max(found["most"], rss_bytes([server]))
            await asyncio.sleep(0.05)
        await sending
    return found
