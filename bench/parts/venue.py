"""Part 13: a game café behind one public address, with the default limits."""

from __future__ import annotations

import asyncio
import random
import time

import aiohttp

from bench.phones import CSRF, PHONES, Phone, REQUEST_TIMEOUT, close_phones, open_streams
from bench.report import goal, log
from bench.servers import Server, client_connector, single_database, wait_up
from bench.timing import Window


VENUE_ADDRESS = "203.0.113.50"  # the café's one public address, as its router shows it


async def venue(args) -> list[str]:
    """Every phone of a café behind one address, with the default limits (see the docstring)."""
    defaults = {"RATE_LIMITS": None, "JOIN_LIMIT": None, "STREAMS_PER_CLIENT": None,
                "TRUSTED_PROXIES": "1"}
    behind = {"X-Forwarded-For": VENUE_ADDRESS}
    answers: dict[str, list[int]] = {"table created": [], "join page": [], "seat taken": [],
                                     "stream": [], "tap": []}
    with Server("venue", args.port + 12, args, single_database(args), env=defaults) as server:
        async with aiohttp.ClientSession(connector=client_connector(), headers=behind,
                                         timeout=REQUEST_TIMEOUT) as host:
            await wait_up(host, server)
            seats = [f"P{i + 1}" for i in range(args.venue_phones)]
            tables = []
            for _ in range(args.venue_tables):
                async with host.post(f"{server.base}/api/tables",
                                     json={"game": "scorepad", "players": seats}) as answer:
                    answers["table created"].append(answer.status)
                    if answer.status == 201:
                        tables.append((await answer.json())["code"])
        phones = [Phone(aiohttp.ClientSession(
            connector=client_connector(), headers=behind, cookie_jar=aiohttp.CookieJar(unsafe=True),
            timeout=REQUEST_TIMEOUT), server.base, code, seat) for code in tables for seat in seats]
        PHONES.append(phones)

        async def join(phone: Phone, delay: float) -> None:
            await asyncio.sleep(delay)  # the phones come in over two minutes, as people sit down
            async with phone.session.get(f"{phone.base}/j/{phone.code}") as answer:
                answers["join page"].append(answer.status)
                page = await answer.text()
            if answer.status != 200:
                return
            phone.token = CSRF.search(page).group(1)
            async with phone.session.post(f"{phone.base}/j/{phone.code}",
                                          data={"csrf_token": phone.token, "seat": phone.seat}) as answer:
                answers["seat taken"].append(answer.status)
                if answer.status == 200:
                    phone.show_page(await answer.text())

        log(f"venue: {len(phones)} phones join over {args.venue_join_seconds} s …")
        began = time.perf_counter()
        await asyncio.gather(*(join(phone, random.random() * args.venue_join_seconds)
                               for phone in phones))
        joined = [phone for phone in phones if phone.version >= 0]
        took = await open_streams(joined, 60)
        answers["stream"] = [200 if p.ready_at else 429 if "429" in p.stream_error else 0
                             for p in joined]
        log(f"venue: every phone taps every 5 s for {args.venue_seconds} s …")
        stop_at = time.perf_counter() + args.venue_seconds

        async def taps(phone: Phone) -> None:
            await asyncio.sleep(random.random() * 5)
            while time.perf_counter() < stop_at:
                status, *_ = await phone.act(random.randint(-20, 50), True)
                answers["tap"].append(status)
                await asyncio.sleep(5)

        with Window([server]) as window:
            await asyncio.gather(*(taps(phone) for phone in joined))
        await close_phones([phones])
        PHONES.clear()
    refused = {kind: statuses.count(429) for kind, statuses in answers.items()}
    others = {kind: len([s for s in statuses if s not in (200, 201, 429)])
              for kind, statuses in answers.items()}
    lines = [f"13. A café behind one address ({VENUE_ADDRESS} in X-Forwarded-For, "
             f"TRUSTED_PROXIES=1, default limits): {args.venue_tables} tables × "
             f"{args.venue_phones} phones joining within {args.venue_join_seconds} s, streams "
             f"open, every phone tapping every 5 s for {args.venue_seconds} s",
             f"  joined {len(joined)} of {len(phones)} phones in {time.perf_counter() - began:.0f} s "
             f"in all; streams ready in {took:.1f} s: {sum(1 for p in joined if p.ready_at)}",
             "  requests by kind (answered 429 / other failures / all): " + ", ".join(
                 f"{kind} {refused[kind]} / {others[kind]} / {len(statuses)}"
                 for kind, statuses in answers.items()),
             f"  the server over the taps ({window.seconds:.0f} s): {window.text()}"]
    lines.append(goal("venue", "no 429 for a café's phones behind one address",
                      sum(refused.values()) == 0 and len(joined) == len(phones),
                      f"{sum(refused.values())} answered 429, {len(joined)} of {len(phones)} "
                      f"phones seated"))
    return lines
