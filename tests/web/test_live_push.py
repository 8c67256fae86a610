"""The live stream every table page holds: changes pushed at commit, what each phone is sent,
catching up, faults; and the compressed, cached answers around it."""

from __future__ import annotations

import gzip
import os
import re
import time
import zlib

import brotli
import pytest
from flask import url_for

from companion.games import GAMES
from tests.conftest import api_table


@pytest.fixture
def app(make_app):
    # Short heartbeats: a test reading a quiet stream gets a comment instead of waiting 20 s.
    return make_app(LIVE_HEARTBEAT_SECONDS=0.2, STREAMS_PER_CLIENT=3)


class Stream:
    """One phone's open event stream, read event by event."""

    def __init__(self, phone, code, query="", headers=None):
        self.response = phone.client.get(f"/t/{code}/events{query}", buffered=False,
                                         headers=headers or {},
                                         environ_base={"REMOTE_ADDR": phone.address})
        self.chunks = iter(self.response.response)
        self.raw = b""

    def next_event(self, wanted=None, seconds=5.0) -> dict:
        """The next event (of type ``wanted``), skipping heartbeats; fails after ``seconds``."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            chunk = next(self.chunks)
            self.raw += chunk
            event = parse(chunk.decode())
            if event and (wanted is None or event["event"] == wanted):
                return event
        raise AssertionError(f"no {wanted or 'event'} within {seconds} s")

    def close(self):
        self.response.close()


def parse(chunk: str) -> dict | None:
    """An SSE chunk as {"event", "id", "data"}; None for a comment or the retry line."""
    fields = {"event": None, "id": None, "data": []}
    for line in chunk.split("\n"):
        name, _, value = line.partition(": ")
        if name == "data":
            fields["data"].append(value)
        elif name in ("event", "id"):
            fields[name] = value
    if fields["event"] is None:
        return None
    return {**fields, "data": "\n".join(fields["data"])}


def regions_sent(event: dict) -> set[str]:
    return set(re.findall(r'data-region="(\w+)"', event["data"]))


def table_with(phone, players=("Ann", "Ben")):
    host = phone()
    code = host.start(players=players)
    return host, code


def test_a_change_reaches_an_open_stream_with_only_the_regions_that_changed(phone):
    host, code = table_with(phone)
    ben = phone("10.0.0.3")
    ben.join(code, "Ben")
    page = ben.get(f"/t/{code}").get_data(as_text=True)
    version = re.search(r'id="live-meta"[^>]*data-version="(\d+)"', page).group(1)
    have = ",".join(f"{n}:{h}" for n, h in re.findall(r'data-region="(\w+)" data-hash="(\w+)"', page))
    stream = Stream(ben, code, f"?v={version}&have={have}")
    ready = stream.next_event("ready")
    assert ready["data"] == version
    host.act(type="enter_score", player="Ann", round=1, points=7)
    event = stream.next_event("regions")
    assert int(event["id"]) == host.snapshot()["version"]
    # The score sheet and the log changed; the seats and the host's panel did not.
    assert {"scoresheet", "history"} <= regions_sent(event)
    assert "seats" not in regions_sent(event) and "host" not in regions_sent(event)
    assert ">7<" in event["data"].replace(" ", "").replace("\n", "")
    assert f'data-version="{event["id"]}"' in event["data"]
    stream.close()


def open_stream(phone, code) -> Stream:
    """A stream opened as the phone's page opens it: from its version, with its regions."""
    page = phone.get(f"/t/{code}").get_data(as_text=True)
    version = re.search(r'id="live-meta"[^>]*data-version="(\d+)"', page).group(1)
    have = ",".join(f"{n}:{h}" for n, h in re.findall(r'data-region="(\w+)" data-hash="(\w+)"', page))
    stream = Stream(phone, code, f"?v={version}&have={have}")
    assert stream.next_event("ready")["data"] == version
    return stream


def test_counting_a_table_in_a_group_reaches_every_phone_like_a_move(phone):
    """Linking a table to a group changes what its phones show: the other phones' logs say so,
    and the host's panel stops offering it, then and after the next move."""
    host, code = table_with(phone)
    ben = phone("10.0.0.3")
    ben.join(code, "Ben")
    bens, hosts = open_stream(ben, code), open_stream(host, code)
    assert host.post(f"/t/{code}/group", {"group_name": "Friday"}).status_code == 303
    seen = bens.next_event("regions")
    assert "The host counted this table in the plays of Friday." in seen["data"]
    assert int(seen["id"]) == host.snapshot()["version"]
    linked = hosts.next_event("regions")
    assert "host" in regions_sent(linked) and "Count this game in a group" not in linked["data"]
    host.act(type="enter_score", player="Ann", round=1, points=7)
    moved = hosts.next_event("regions")
    assert ">7<" in moved["data"].replace(" ", "").replace("\n", "")
    assert "Count this game in a group" not in host.get(f"/t/{code}").get_data(as_text=True)
    bens.close()
    hosts.close()


def test_a_play_deleted_from_the_group_and_brought_back_reaches_its_tables_phones(phone):
    """Deleting an ended table's play on the group page takes the table out of the group's
    plays: its phones' logs say so and the host's panel offers the link again; the undo puts
    it back, said the same way (issue 41: every write a table's phones see is a change)."""
    host, code = table_with(phone)
    ben = phone("10.0.0.3")
    ben.join(code, "Ben")
    assert host.post(f"/t/{code}/group", {"group_name": "Friday"}).status_code == 303
    host.act(type="enter_score", player="Ann", round=1, points=7)
    host.act(type="finish_game")
    group_code = re.search(r'href="/g/(\w+)"', host.get("/").get_data(as_text=True)).group(1)
    uid = host.client.get(f"/api/groups/{group_code}").get_json()["plays"][0]["uid"]
    bens = open_stream(ben, code)
    assert host.post(f"/g/{group_code}/plays/{uid}/delete", {}).status_code == 303
    out = bens.next_event("regions")
    assert "This table no longer counts in the plays of Friday." in out["data"]
    assert "Count this game in a group" in host.get(f"/t/{code}").get_data(as_text=True)
    assert host.post(f"/g/{group_code}/undo", {}).status_code == 303
    back = bens.next_event("regions")
    assert "This table counts in the plays of Friday again." in back["data"]
    assert "Count this game in a group" not in host.get(f"/t/{code}").get_data(as_text=True)
    bens.close()


def test_the_page_carries_the_stream_and_the_poll_as_its_fallback(phone):
    host, code = table_with(phone)
    page = host.get(f"/t/{code}").get_data(as_text=True)
    assert 'hx-ext="sse"' in page and f'sse-connect="/t/{code}/events?v=' in page
    # The page's one script is its game's bundle, htmx's SSE extension in it after htmx.
    script = re.search(r'<script src="(/static/bundle/scorepad\.js\?v=\w+)" defer>', page)
    assert script and page.count("<script src=") == 1
    bundle = host.client.get(script.group(1)).get_data(as_text=True)
    assert (bundle.index('version:"2.') < bundle.index('defineExtension("sse"')
            < bundle.index("companion-unsent:"))  # htmx, its extension, then app/
    assert f'hx-get="/t/{code}/live"' in page


def test_a_phone_that_comes_back_after_a_gap_gets_everything_it_missed_in_one_event(phone):
    host, code = table_with(phone)
    for points in (3, 4, 5):
        host.act(type="enter_score", player="Ann", round=points - 2, points=points)
    # The browser reconnecting by itself names the last event it saw, not what it shows.
    stream = Stream(host, code, "?v=1", headers={"Last-Event-ID": "2"})
    stream.next_event("ready")
    event = stream.next_event("regions")
    assert int(event["id"]) == host.snapshot()["version"]
    assert {"status", "me", "seats", "history", "host", "scoresheet"} <= regions_sent(event)
    # Nothing else is missing: what follows is a heartbeat, not a second catch-up.
    assert next(stream.chunks).decode().startswith(":")
    stream.close()


def test_a_phone_that_is_up_to_date_is_sent_nothing_but_ready(phone):
    host, code = table_with(phone)
    version = host.snapshot()["version"]
    stream = Stream(host, code, f"?v={version}")
    stream.next_event("ready")
    chunk = next(stream.chunks)  # the next thing is a heartbeat comment
    assert chunk.decode().startswith(":")
    stream.close()


def test_a_watchers_stream_carries_no_controls(phone):
    host, code = table_with(phone)
    watcher = phone("10.0.0.5")
    watcher.join(code)
    stream = Stream(watcher, code, "?v=0")
    stream.next_event("ready")
    caught_up = stream.next_event("regions")
    host.act(type="enter_score", player="Ann", round=1, points=2)
    update = stream.next_event("regions")
    for event in (caught_up, update):
        assert "<form" not in event["data"] and "csrf_token" not in event["data"]
        assert "/act" not in event["data"] and "You are watching" in caught_up["data"]
    stream.close()


def test_streams_carry_no_csrf_token_and_the_page_does(phone):
    host, code = table_with(phone)
    stream = Stream(host, code, "?v=0")
    stream.next_event("ready")
    event = stream.next_event("regions")
    assert '<form' in event["data"]  # the host may act...
    assert re.search(r'name="csrf_token" value=""', event["data"])  # ...with the page's token
    page = host.get(f"/t/{code}").get_data(as_text=True)
    assert re.search(r'<meta name="csrf-token" content="[^"]+">', page)
    stream.close()


def test_phones_that_poll_share_the_renders_of_a_version(phone, monkeypatch):
    """Without a stream (the fallback), the polls of a table's phones at one version are
    drawn once, as for streams; asking again and again for a version the table never had
    draws nothing again; a change is drawn once more, and seen."""
    host, code = table_with(phone, players=("Ann", "Ben", "Cy"))
    guests = []
    for number, seat in enumerate(("Ben", "Cy")):
        guest = phone(f"10.0.2.{number}")
        guest.join(code, seat)
        guests.append(guest)
    import companion.live.regions

    rendered = []
    real = companion.live.regions.render_block
    monkeypatch.setattr(companion.live.regions, "render_block",
                        lambda template, name, **context: rendered.append(name) or real(template, name, **context))

    def poll(who, version):
        answer = who.get(f"/t/{code}/live?v={version}", headers={"HX-Request": "true"})
        assert answer.status_code == 200
        return answer.get_data(as_text=True)

    for _round in range(3):
        for guest in guests:
            poll(guest, 999_999)  # a version this table never had: everything is sent
    assert rendered.count("scoresheet") == 1 and rendered.count("history") == 1
    rendered.clear()
    host.act(type="enter_score", player="Cy", round=1, points=9)
    answers = [poll(guest, 999_999) for guest in guests]
    assert all('data-region="scoresheet"' in answer and ">9<" in answer.replace(" ", "")
               .replace("\n", "") for answer in answers)
    assert rendered.count("scoresheet") == 1


def test_one_render_serves_every_phone_of_the_same_kind(phone, monkeypatch):
    host, code = table_with(phone, players=("Ann", "Ben", "Cy"))
    watchers = []
    for number in range(3):
        watcher = phone(f"10.0.1.{number}")
        watcher.join(code)
        watchers.append(watcher)
    streams = [Stream(w, code, f"?v={host.snapshot()['version']}") for w in watchers]
    for stream in streams:
        stream.next_event("ready")
    import companion.live.regions

    rendered = []
    real = companion.live.regions.render_block
    monkeypatch.setattr(companion.live.regions, "render_block",
                        lambda template, name, **context: rendered.append(name) or real(template, name, **context))
    host.act(type="enter_score", player="Cy", round=1, points=9)
    events = [stream.next_event("regions") for stream in streams]
    assert events[0]["data"] == events[1]["data"] == events[2]["data"]
    # The host's answer and three watchers' streams: each region rendered at most once per
    # kind of phone (host, watcher), not once per phone.
    assert rendered.count("scoresheet") <= 2 and rendered.count("me") <= 2
    # A second move leaves the phones as they were: their "You are …" and seat lists are not
    # drawn again at all, and the sheet once more at most once per kind.
    rendered.clear()
    host.act(type="enter_score", player="Ann", round=1, points=4)
    events = [stream.next_event("regions") for stream in streams]
    assert 'data-region="scoresheet"' in events[0]["data"]
    assert "me" not in rendered and "seats" not in rendered and "host" not in rendered
    assert rendered.count("scoresheet") <= 2
    for stream in streams:
        stream.close()


def test_the_phones_of_a_deleted_table_are_told(phone):
    host, code = table_with(phone)
    ben = phone("10.0.0.3")
    ben.join(code, "Ben")
    stream = Stream(ben, code, "?v=0")
    stream.next_event("ready")
    stream.next_event("regions")
    assert host.post(f"/t/{code}/delete").status_code == 303
    event = stream.next_event("deleted")
    assert event["data"] == "/"
    stream.close()


def test_a_stream_for_an_unknown_table_is_a_404(client):
    response = client.get("/t/ZZZZZZ/events")
    assert response.status_code == 404
    assert "no table" in response.get_data(as_text=True)


def test_one_client_opening_too_many_streams_is_refused_and_others_are_not(phone):
    host, code = table_with(phone)
    greedy = phone("10.0.0.66")
    open_streams = [Stream(greedy, code, "?v=0") for _ in range(3)]  # the limit in this test
    refused = greedy.client.get(f"/t/{code}/events", environ_base={"REMOTE_ADDR": "10.0.0.66"})
    assert refused.status_code == 429 and refused.headers["Retry-After"]
    assert "Too many live connections" in refused.get_data(as_text=True)
    other = Stream(phone("10.0.0.67"), code, "?v=0")
    assert other.next_event("ready")
    for stream in open_streams + [other]:
        stream.close()
    # Closed streams give their places back.
    again = Stream(greedy, code, "?v=0")
    assert again.next_event("ready")
    again.close()


def test_phones_behind_one_address_each_have_their_own_streams(phone):
    """A café's phones share its public address: the limit counts each phone, not the
    address (three streams a client in this test: five seated phones open three each)."""
    host, code = table_with(phone, players=("Ann", "Ben", "Cem", "Dan", "Eda"))
    streams = []
    for seat in ("Ann", "Ben", "Cem", "Dan", "Eda"):
        seated = phone("10.0.0.80")  # all of them: the café's one address
        seated.join(code, seat)
        streams += [Stream(seated, code, "?v=0") for _ in range(3)]
        refused = seated.client.get(f"/t/{code}/events", environ_base={"REMOTE_ADDR": "10.0.0.80"})
        assert refused.status_code == 429  # a phone past its own limit still is
    assert all(stream.next_event("ready") for stream in streams)
    for stream in streams:
        stream.close()


def test_with_the_stream_open_an_action_answer_leaves_the_regions_to_the_stream(phone):
    host, code = table_with(phone)
    version = host.version()
    answer = host.post(f"/t/{code}/act", {"type": "enter_score", "player": "Ann", "round": 1,
                                         "points": 4, "expected_version": version},
                       htmx=True, headers={"X-Live-Stream": "open"})
    body = answer.get_data(as_text=True)
    assert answer.status_code == 200 and "data-region" not in body and 'id="live-meta"' in body
    # Without the stream (the fallback), the answer carries the regions as before.
    answer = host.post(f"/t/{code}/act", {"type": "enter_score", "player": "Ben", "round": 1,
                                         "points": 4, "expected_version": host.version()}, htmx=True)
    assert 'data-region="scoresheet"' in answer.get_data(as_text=True)


# -- sending little ------------------------------------------------------------------------


def test_streams_are_gzip_compressed_and_flushed_event_by_event(phone):
    host, code = table_with(phone)
    stream = Stream(host, code, "?v=0", headers={"Accept-Encoding": "gzip, deflate"})
    assert stream.response.headers["Content-Encoding"] == "gzip"
    assert stream.response.headers["Content-Type"].startswith("text/event-stream")
    decoder = zlib.decompressobj(16 + zlib.MAX_WBITS)
    seen = ""
    while "event: regions" not in seen:
        seen += decoder.decompress(next(stream.chunks)).decode()  # each chunk decodes at once
    assert "event: ready" in seen and 'data-region="scoresheet"' in seen
    stream.close()


@pytest.mark.parametrize("path", ["/", "/rules/scorepad", "/api/openapi.json"])
def test_pages_and_json_are_gzip_compressed(client, path):
    response = client.get(path, headers={"Accept-Encoding": "gzip"})
    assert response.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in response.headers["Vary"]
    assert len(gzip.decompress(response.get_data())) > len(response.get_data())


def test_the_table_page_is_compressed_too(phone):
    host, code = table_with(phone)
    response = host.client.get(f"/t/{code}", headers={"Accept-Encoding": "gzip"})
    assert response.headers["Content-Encoding"] == "gzip"
    assert b"Score pad" in gzip.decompress(response.get_data())


def test_static_files_have_versioned_addresses_cached_for_good(client):
    page = client.get("/").get_data(as_text=True)
    address = re.search(r'src="(/static/bundle/core\.js\?v=(\w+))"', page)
    assert address, "the page's script is linked with its version"
    with client.get(address.group(1), headers={"Accept-Encoding": "gzip"}) as response:
        assert response.status_code == 200
        assert "immutable" in response.headers["Cache-Control"]
        assert "max-age=31536000" in response.headers["Cache-Control"]
        assert response.headers["Content-Encoding"] == "gzip"
        assert b"htmx:configRequest" in gzip.decompress(response.get_data())
    # An address naming an old version is not promised to anyone for a year.
    with client.get("/static/bundle/core.js?v=000000000000") as stale:
        assert "immutable" not in stale.headers.get("Cache-Control", "")


def test_browsers_that_ask_for_brotli_get_it(phone):
    host, code = table_with(phone)
    response = host.client.get(f"/t/{code}", headers={"Accept-Encoding": "gzip, deflate, br"})
    assert response.headers["Content-Encoding"] == "br"
    assert b"Score pad" in brotli.decompress(response.get_data())


def script_address(client, name="app/live.js"):
    """The versioned address of one static file (pages link bundles of them)."""
    with client.application.test_request_context():
        return url_for("static", filename=name)


def test_scripts_come_minified_and_compressed_as_the_browser_asks(client):
    address = script_address(client)
    with open("static/app/live.js", encoding="utf-8") as fh:
        source = fh.read()
    with client.get(address, headers={"Accept-Encoding": "gzip, deflate, br"}) as br:
        assert br.headers["Content-Encoding"] == "br"
        script = brotli.decompress(br.get_data())
    with client.get(address, headers={"Accept-Encoding": "gzip, deflate"}) as gz:
        assert gz.headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(gz.get_data()) == script
        assert len(br.get_data()) < len(gz.get_data()) < len(gzip.compress(source.encode()))
    with client.get(address, headers={"Accept-Encoding": "identity"}) as plain:
        assert "Content-Encoding" not in plain.headers
        assert plain.get_data() == script
    for answer in (br, gz, plain):
        assert "Accept-Encoding" in answer.headers["Vary"]
        assert "immutable" in answer.headers["Cache-Control"]
    # The same script without its comments and indentation.
    assert b"X-Live-Stream" in script and b"\n    " not in script
    assert len(script) < 0.75 * len(source.encode())
    assert "// " in source and b"// " not in script


def test_a_script_the_phone_has_is_not_sent_again(client):
    address = script_address(client)
    first = client.get(address, headers={"Accept-Encoding": "br"})
    again = client.get(address, headers={"Accept-Encoding": "br",
                                         "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.get_data() == b""
    # The tag names the coding: a gzip copy is not taken for the brotli one.
    other = client.get(address, headers={"Accept-Encoding": "gzip",
                                         "If-None-Match": first.headers["ETag"]})
    assert other.status_code == 200 and other.headers["Content-Encoding"] == "gzip"


def test_workers_share_and_keep_their_builds_in_the_instance_folder(make_app, monkeypatch):
    from companion.web import assets

    # A build an earlier test made in this process would be served from memory, not written.
    monkeypatch.setattr(assets, "_BUILT", {})
    app = make_app()
    client = app.test_client()
    address = script_address(client, "vendor/htmx.min.js")
    first = client.get(address, headers={"Accept-Encoding": "br"}).get_data()
    cache = os.path.join(app.instance_path, "assets")
    assert any(name.endswith(".br") for name in os.listdir(cache))
    # Another process (nothing built in memory) reads the build instead of compressing again.
    monkeypatch.setattr(assets, "_BUILT", {})
    monkeypatch.setattr(assets.brotli, "compress", lambda *a, **k: pytest.fail("built again"))
    app.extensions["companion.assets"]._built.clear()
    assert client.get(address, headers={"Accept-Encoding": "br"}).get_data() == first


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_page_streams(make_app, game_id):
    """Every game's page declares its stream and its regions render for a stream."""
    from tests.conftest import Phone

    app = make_app(LIVE_HEARTBEAT_SECONDS=0.2)
    host = Phone(app)
    game = GAMES[game_id]
    players = [f"P{i}" for i in range(1, game.min_players + 1)]
    code = host.start(game=game_id, players=players)
    stream = Stream(host, code, "?v=0")
    stream.next_event("ready")
    event = stream.next_event("regions")
    assert set(game.regions) <= regions_sent(event)
    stream.close()


def linked(page: str) -> tuple[list[str], list[str]]:
    """The scripts and style sheets a page loads (their addresses)."""
    return (re.findall(r'<script src="([^"]+)"', page),
            re.findall(r'<link rel="stylesheet" href="([^"]+)"', page))


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_tables_pages_load_one_script_and_one_style_sheet_the_games_bundle(phone, game_id):
    game = GAMES[game_id]
    host = phone()
    code = host.start(game=game_id, players=[f"P{i}" for i in range(1, game.min_players + 1)])
    guest = phone("10.0.0.3")
    for page in (host.get(f"/t/{code}"), guest.get(f"/j/{code}"), host.get(f"/new/{game_id}")):
        scripts, sheets = linked(page.get_data(as_text=True))
        assert [s.split("?")[0] for s in scripts] == [f"/static/bundle/{game_id}.js"]
        assert [s.split("?")[0] for s in sheets] == [f"/static/bundle/{game_id}.css"]
    script = host.client.get(scripts[0]).get_data(as_text=True)
    sheet = host.client.get(sheets[0], headers={"Accept-Encoding": "identity"}).get_data(as_text=True)
    # The game's own files and the invite's script come after the core ones they build on.
    assert script.index('defineExtension("sse"') < script.index("companion-unsent:") \
        < script.index("navigator.share")
    with open("static/app.css", encoding="utf-8") as fh:
        assert fh.read().split("{")[0].split("*/")[-1].strip() in sheet  # app.css's first rule
    own = f"static/games/{game_id}.css"
    if os.path.exists(own):
        with open(own, encoding="utf-8") as fh:
            first_rule = re.search(r"^\.([\w-]+)", fh.read(), re.M).group(1)
        assert sheet.index(".topbar") < sheet.index("." + first_rule)
    for address in (scripts[0], sheets[0]):
        assert "immutable" in host.client.get(address).headers["Cache-Control"]


def test_pages_outside_a_table_load_the_core_bundle_and_an_unknown_bundle_is_not_found(client):
    scripts, sheets = linked(client.get("/").get_data(as_text=True))
    assert [s.split("?")[0] for s in scripts] == ["/static/bundle/core.js"]
    assert [s.split("?")[0] for s in sheets] == ["/static/bundle/core.css"]
    core = client.get(scripts[0]).get_data(as_text=True)
    assert "companion-unsent:" in core and "navigator.share" not in core  # no invite script
    assert client.get("/static/bundle/tic-tac-toe.js").status_code == 404
    assert client.get("/static/bundle/core.txt").status_code == 404


WORKER_META = re.compile(r'<meta name="offline-worker" content="([^"]+)" data-scope="([^"]+)"\s+'
                         r'data-script="/static/offline\.js\?v=\w+"( data-keep)?>')


def test_every_page_names_the_service_worker_and_home_and_tables_are_kept_offline(phone):
    """offline.js registers the worker where the page is secure (HTTPS, localhost) and hands it
    the pages marked data-keep; the worker's file may serve the whole site."""
    host, guest = phone(), phone("10.0.0.3")
    code = host.start(game="scorepad", players=["Ann", "Ben"])
    kept = {}
    for who, path in ((guest, "/"), (host, f"/t/{code}"), (guest, "/rules"), (guest, f"/j/{code}")):
        worker, scope, keep = WORKER_META.search(who.get(path).get_data(as_text=True)).groups()
        kept[path] = bool(keep)
        assert scope == "/" and re.fullmatch(r"/static/worker\.js\?release=[0-9a-f]{12}", worker.split("&amp;")[0])
    assert kept == {"/": True, f"/t/{code}": True, "/rules": False, f"/j/{code}": False}
    answer = host.client.get(worker.replace("&amp;", "&"))
    assert answer.status_code == 200 and answer.mimetype in ("text/javascript", "application/javascript")
    assert answer.headers["Service-Worker-Allowed"] == "/"
    assert 'addEventListener("fetch"' in answer.get_data(as_text=True)


def test_a_release_that_changes_any_script_or_style_installs_a_new_worker(tmp_path):
    """The worker's address carries a hash of every bundle, of the scripts loaded on demand and of
    the worker: its cache (named by it) is replaced when any of them changes, and only then."""
    from companion.web.assets import CORE_FILES, ON_DEMAND, WORKER, Assets

    for name in [*CORE_FILES[".js"], *CORE_FILES[".css"], *ON_DEMAND, WORKER, "games/scorepad.css",
                 "icons/icon.svg"]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(f"/* {name} */")

    def release() -> str:
        return Assets(str(tmp_path), minify=False, games=("scorepad",)).release()

    first = release()
    (tmp_path / "icons/icon.svg").write_text("<svg/>")
    assert release() == first
    for changed in ("app/core.js", "games/scorepad.css", "coach.js", "offline.js", WORKER):
        (tmp_path / changed).write_text(f"/* {changed}, the next release */")
        assert release() != first
        first = release()


# Moves of every game, made through the API with the host's token (as in bench/bench.py).
MOVES = {
    "scorepad": (["Ann", "Ben"], [
        {"type": "enter_score", "player": "Ann", "round": 1, "points": 7},
        {"type": "enter_score", "player": "Ben", "round": 1, "points": -3}]),
    "asterix-obelix": (["Ann", "Ben"], [
        {"type": "start_game", "starter": "Ann"},
        {"type": "choose_line", "line": "row", "number": 1},
        {"type": "reveal_card", "kind": "legionary", "colour": "red"}]),
    "kartenspiel": (["Ann", "Ben", "Cid"], [
        {"type": "win_roman", "player": "Ann", "value": 10},
        {"type": "win_roman", "player": "Ben", "value": 5}]),
    "asterix-co": (["Ann", "Ben", "Cid"], [
        {"type": "play_character", "player": "Ann", "album": 1, "strength": 3,
         "character_type": "Chief", "colour": "Gaul", "name": "Getafix"},
        {"type": "play_character", "player": "Ben", "album": 1, "strength": 4,
         "character_type": "Legionary", "colour": "Roman"}]),
    "zaubertrank": (["Ann", "Ben"], [
        {"type": "draw_mishap", "symbol": "lightning"},
        {"type": "place_mishap", "location": 2}]),
}


@pytest.mark.parametrize("game,coach", [(game, coach) for game in sorted(MOVES)
                                        for coach in (False, True)])
def test_a_version_made_from_the_writer_is_the_one_read_back_from_the_database(phone, app, game, coach):
    """The streams of the writing process take a move's table and log entry from the writer
    (live.changes → Hub.changed) instead of reading them back: every region a phone is sent must be
    what the database's copy draws, after moves, an undo and a redo (the coach card too, and
    its count of each seat's moves goes on without a read)."""
    from sqlalchemy import event

    from companion.live.regions import regions_for
    from companion.live.versions import load, region_names, viewer_context

    players, moves = MOVES[game]
    client = app.test_client()
    made = api_table(client, game, players, coach=coach)
    code, headers = made["code"], made["headers"]
    ann = phone("10.0.0.3")
    ann.join(code, players[0])
    stream = Stream(ann, code)
    stream.next_event("ready")
    hub, engine = app.extensions["live"], app.extensions["engine"]
    steps = [("actions", move) for move in moves] + [("undo", {}), ("redo", {})]
    for path, body in steps:
        before = hub.feeds[code].current()
        answer = client.post(f"/api/tables/{code}/{path}", json=body, headers=headers)
        assert answer.status_code == 200, answer.get_json()
        statements = []
        listen = lambda *args: statements.append(args[2])  # noqa: E731
        event.listen(engine, "before_cursor_execute", listen)
        try:
            stream.next_event("regions")
        finally:
            event.remove(engine, "before_cursor_execute", listen)
        assert statements == []  # the stream read nothing back
        written = hub.feeds[code].newest
        assert written.version == before.version + 1
        with app.test_request_context(f"/t/{code}"):
            read = load(code, before)
            for version in (written, read):
                version.renders.clear()
            device = next(d.id for d in read.data["devices"] if d.seat == players[0])
            for language in ("en", "de"):
                drawn = [regions_for(version, region_names(version.data["table"]),
                                     viewer_context(version.data, device, language))
                         for version in (written, read)]
                assert drawn[0] == drawn[1], (path, body, language)
        assert written.data["state"] == read.data["state"]
        assert [vars(e) for e in written.data["log"][:1]] == [e._asdict() for e in read.data["log"][:1]]
    stream.close()
