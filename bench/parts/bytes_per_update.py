"""Part 6: the bytes on the wire of one update event and of a table page's first load, per game."""

from __future__ import annotations

import asyncio
import contextlib
import time
import zlib
from html import unescape
from html.parser import HTMLParser

import aiohttp
import brotli

from bench.phones import Phone, REQUEST_TIMEOUT, create_table
from bench.report import goal, log
from bench.servers import Server, client_connector, wait_up


FOUR = ["Ann", "Bob", "Cid", "Dee"]


def play(player, album, strength, character_type, colour, name=None):
    payload = dict(type="play_character", player=player, album=album, strength=strength,
                   character_type=character_type, colour=colour)
    return {**payload, "name": name} if name else payload


async def long_battle(act, snapshot) -> None:
    """As long_battle() in tests/web/test_asterix_co_web.py: 40 characters played in turn
    order on the four albums (14 a side: no album falls), 3 K.O.'d, a Potion; Cid to play."""
    names = iter(["Asterix", "Obelix", "Getafix", "Cacofonix", "Vitalstatistix", "Fulliautomatix",
                  "Unhygienix", "Geriatrix", "Impedimenta", "Bacteria"] * 4)
    strengths = (2, 3, 2, 3, 4)
    for index in range(10):
        for position, player in enumerate(FOUR):
            strength, plain = strengths[index // 2], (index // 2) % 2 == 0
            if index % 2 == 0:  # the Gaul side of the album on the player's left
                await act(play(player, position + 1, strength, "Hero", "Gaul" if plain else "Neutral",
                               f"{next(names)} {position + 1}"))
            else:  # the Roman side of the album on the player's right
                await act(play(player, (position - 1) % 4 + 1, strength, "Legionary",
                               "Roman" if plain else "Neutral"))
    slots = (await snapshot())["state"]["slots"]

    def nth(album, faction, index):
        return [c["id"] for c in slots[album - 1]["characters"] if c["faction"] == faction][index]

    for album, faction, index in ((1, "gaul", 1), (2, "roman", 1), (3, "gaul", 2)):
        await act({"type": "knock_out", "character": nth(album, faction, index)})
    await act({"type": "gain_bonus", "player": "Ann", "bonus": "potion"})
    await act({"type": "use_potion", "player": "Ann", "character": nth(1, "gaul", 0)})
    await act({"type": "reinforce_hand", "player": "Bob"})  # Cid's turn


def moves(*payloads: dict):
    async def opening(act, _snapshot) -> None:
        for payload in payloads:
            await act(payload)
    return opening


# (label, game, players, the moves before, the one move measured); payloads as in tests/web and
# tests/games, made with the host's token.
GAMES = [
    ("scorepad (3 rounds in)", "scorepad", FOUR,
     moves(*({"type": "enter_score", "player": p, "round": r, "points": 7 * r}
             for r in (1, 2, 3) for p in FOUR)),
     {"type": "enter_score", "player": "Ann", "round": 4, "points": 17}),
    ("asterix-obelix (an attack)", "asterix-obelix", ["Ann", "Bob"],
     moves({"type": "start_game", "starter": "Ann"},
           {"type": "choose_line", "line": "row", "number": 1}),
     {"type": "reveal_card", "kind": "legionary", "colour": "red"}),
    ("kartenspiel (tricks)", "kartenspiel", ["Ann", "Bob", "Cid"],
     moves({"type": "win_roman", "player": "Ann", "value": 10},
           {"type": "win_roman", "player": "Bob", "value": 10}),
     {"type": "win_roman", "player": "Cid", "value": 5}),
    ("asterix-co (2 characters out)", "asterix-co", FOUR,
     moves(play("Ann", 1, 3, "Chief", "Gaul", "Getafix"), play("Bob", 1, 4, "Legionary", "Roman")),
     play("Cid", 3, 2, "Hero", "Gaul", "Asterix")),
    ("asterix-co (long battle, 40 out)", "asterix-co", FOUR, long_battle,
     play("Cid", 2, 2, "Legionary", "Roman")),
    ("zaubertrank (a turn)", "zaubertrank", ["Ann", "Bob"],
     moves({"type": "draw_mishap", "symbol": "lightning"}, {"type": "place_mishap", "location": 2},
           {"type": "draw_mishap", "symbol": "knife"}, {"type": "place_mishap", "location": 3},
           {"type": "begin_play"}),
     {"type": "move", "location": 4}),
]


class Assets(HTMLParser):
    """The scripts and style sheets a page loads, and the service worker it registers over
    HTTPS (``worker``: browsers allow none over plain HTTP)."""

    def __init__(self, page: str):
        super().__init__()
        self.urls: list[str] = []
        self.worker: str | None = None
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script" and attrs.get("src"):
            self.urls.append(attrs["src"])
        elif tag == "link" and "stylesheet" in (attrs.get("rel") or "") and attrs.get("href"):
            self.urls.append(attrs["href"])
        elif tag == "meta" and attrs.get("name") == "offline-worker" and attrs.get("content"):
            self.worker = attrs["content"]


HTTPS_ACCEPT = "gzip, deflate, br"


async def raw_get(session: aiohttp.ClientSession, url: str,
                  accept: str = "gzip, deflate") -> tuple[int, bytes]:
    """The body as it came over the wire (with what a browser asks for: over plain HTTP
    "gzip, deflate"; over HTTPS "gzip, deflate, br") and inflated."""
    async with session.get(url, headers={"Accept-Encoding": accept}, auto_decompress=False) as r:
        body = await r.read()
        assert r.status == 200, (url, r.status)
        coding = r.headers.get("Content-Encoding")
        if coding == "gzip":
            return len(body), zlib.decompress(body, 16 + zlib.MAX_WBITS)
        if coding == "br":
            return len(body), brotli.decompress(body)
        return len(body), body


async def measure_game(plain, base, label, game, players, before, move
                       ) -> tuple[str, int | None, int]:
    """The game's report row, its update event's gzip bytes (None: none came) and its first
    load's."""
    created = await create_table(plain, base, game, players)
    code, bearer = created["code"], {"Authorization": f"Bearer {created['token']}"}

    async def act(payload: dict) -> None:
        async with plain.post(f"{base}/api/tables/{code}/actions", json=payload, headers=bearer) as r:
            assert r.status == 200, (payload, await r.text())

    async def snapshot() -> dict:
        async with plain.get(f"{base}/api/tables/{code}") as r:
            return await r.json()

    await before(act, snapshot)
    async with aiohttp.ClientSession(connector=client_connector(),
                                     cookie_jar=aiohttp.CookieJar(unsafe=True),
                                     timeout=REQUEST_TIMEOUT) as session:
        phone = Phone(session, base, code, players[0])
        await phone.join()
        page_wire, page = await raw_get(session, f"{base}/t/{code}")
        page_br, _ = await raw_get(session, f"{base}/t/{code}", HTTPS_ACCEPT)
        html = page.decode()
        phone.show_page(html)
        assets_wire = assets_br = assets_plain = 0
        loaded = Assets(html)
        for url in loaded.urls:
            wire, body = await raw_get(session, base + unescape(url))
            assets_wire, assets_plain = assets_wire + wire, assets_plain + len(body)
            assets_br += (await raw_get(session, base + unescape(url), HTTPS_ACCEPT))[0]
        if loaded.worker:  # fetched over HTTPS only, where browsers ask for brotli
            assets_br += (await raw_get(session, base + unescape(loaded.worker), HTTPS_ACCEPT))[0]
        phone.stream_task = asyncio.get_running_loop().create_task(phone.stream())
        await asyncio.wait_for(phone.ready.wait(), 30)
        await asyncio.sleep(0.3)  # anything the stream sends on opening has arrived
        before_move = phone.raw_bytes
        events_before = len(phone.events)
        async with plain.post(f"{base}/api/tables/{code}/actions", json=move, headers=bearer) as r:
            answer = await r.json()
            assert r.status == 200, (move, answer)
        deadline = time.perf_counter() + 10
        while phone.version < answer["version"] and time.perf_counter() < deadline:
            await asyncio.sleep(0.01)
        update = [e for e in phone.events[events_before:] if e[0] == "regions"]
        phone.stream_task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await phone.stream_task
    if not update:
        return (f"  {label:<34} no update event arrived ({phone.stream_error or 'timeout'})",
                None, page_wire + assets_wire)
    wire = update[-1][3] - before_move
    decoded = sum(e[2] for e in update)
    return (f"  {label:<34}{wire:>9,}{decoded:>10,}{page_wire:>10,}{page_br:>9,}{len(page):>10,}"
            f"{page_wire + assets_wire:>12,}{page_br + assets_br:>9,}{len(page) + assets_plain:>10,}"
            + ("" if len(update) == 1 else f"  ({len(update)} events)"), wire, page_wire + assets_wire)


async def bytes_per_update(args) -> list[str]:
    with Server("bytes", args.port + 5, args) as server:
        async with aiohttp.ClientSession(connector=client_connector(), timeout=REQUEST_TIMEOUT) as plain:
            await wait_up(plain, server)
            log("bytes: one move per game …")
            rows, events, loads = [], [], []
            for label, game, players, before, move in GAMES:
                try:
                    row, event, first_load = await measure_game(plain, server.base, label, game,
                                                                players, before, move)
                except (AssertionError, aiohttp.ClientError, asyncio.TimeoutError) as exc:
                    row, event, first_load = f"  {label:<34} FAILED: {str(exc)[:240]}", None, None
                rows.append(row)
                events.append(event)
                loads.append(first_load)
    complete = None not in events and None not in loads
    return [
        "6. Bytes per update and first load, compressed (a seated phone's stream, one ordinary move made through the API; "
        "bytes are HTTP bodies as received: without headers and chunk framing)",
        f"  {'game':<34}{'event':>9}{'inflated':>10}{'page':>10}{'br':>9}{'inflated':>10}"
        f"{'first load':>12}{'br':>9}{'inflated':>10}",
        *rows,
        "  event/page: gzip bytes received; br: the same with brotli (what browsers ask for "
        "over HTTPS); inflated: their size unpacked; first load: the page and every script "
        "and style sheet it loads (minified), as received; its br column also the service "
        "worker, which a page registers over HTTPS only",
        goal("bytes", "first load ≤ 40 KB gzip per game", complete and max(loads) <= 40 * 1024,
             f"largest {max(filter(None, loads), default=0) / 1024:.1f} KB"
             + ("" if complete else "; some games FAILED")),
        goal("bytes", "an update ≤ 8 KB gzip", complete and max(events) <= 8 * 1024,
             f"largest {max(filter(None, events), default=0) / 1024:.1f} KB"
             + ("" if complete else "; some games FAILED")),
    ]
