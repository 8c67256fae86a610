"""Starting, joining and playing a table through the pages, as phones do."""

import random
import re
from html import unescape
from html.parser import HTMLParser

import pytest

from companion.service.codes import CODE_ALPHABET
from companion.web.network import base_url
from companion.games import GAMES
from companion.games.base import GameError
from tests.conftest import Phone, api_table, room_in_this_minute
from tests.games.test_contract import CANDIDATES, game_samples, payloads
from tests.web.test_migrations import OPENINGS, opening


def text(response):
    """The response as a reader sees it (entities decoded)."""
    return unescape(response.get_data(as_text=True))


def regions_in(html):
    return re.findall(r'<section id="(\w+)" data-region="\w+" data-hash="(\w+)"', html)


def test_home_offers_the_games_and_a_code_box(client):
    html = text(client.get("/"))
    assert "Score pad" in html
    assert 'name="code"' in html


def test_starting_a_table_makes_this_device_the_host(phone):
    host = phone()
    code = host.start(players=("Ann", "Ben", "Cy"))
    assert len(code) == 6 and set(code) <= set(CODE_ALPHABET)
    html = text(host.get(f"/t/{code}"))
    assert "You are the host" in html
    assert f">{code}<" in html
    assert "<svg" in html and "QR code of the join address" in html
    snap = host.snapshot()
    assert snap["players"] == ["Ann", "Ben", "Cy"] and snap["scores"] == {"Ann": 0, "Ben": 0, "Cy": 0}


@pytest.mark.parametrize("players, message", [
    ([], "1 to 12 players, not 0"),
    ([f"P{i}" for i in range(13)], "1 to 12 players, not 13"),
    (["Ann", "ann"], "Two players are called 'ann'"),
    (["Ann", "x" * 25], "longer than 24 characters"),
    (["Ann", "   ", "Ben"], "one of them is empty"),
])
def test_bad_player_lists_are_refused_and_nothing_is_created(phone, players, message):
    host = phone()
    response = host.post("/new/scorepad", {"player": players})
    assert response.status_code == 422
    assert message in text(response)
    assert host.client.get("/api/tables/AAAAAA").status_code == 404


def test_an_unknown_game_is_a_friendly_not_found(client):
    response = client.get("/new/chess")
    assert response.status_code == 404
    assert "no page at this address" in text(response)


def test_bad_option_is_refused_with_the_field_named(phone):
    host = phone()
    response = host.post("/new/scorepad", {"player": ["Ann"], "rounds": "zero"})
    assert response.status_code == 422
    assert "rounds" in text(response)


def test_joining_by_qr_address_takes_a_seat_that_survives_a_reload(phone):
    host = phone()
    code = host.start()
    ann = phone("10.0.0.3")
    picker = text(ann.get(f"/j/{code}"))
    assert 'value="Ann"' in picker and "Watch only" in picker
    assert ann.join(code, "Ann").status_code == 303
    # Reloading the join address or the table returns the same seat.
    assert ann.get(f"/j/{code}").headers["Location"].endswith(f"/t/{code}")
    assert "You are <strong>Ann</strong>" in text(ann.get(f"/t/{code}"))
    # The seat is taken for everybody else.
    other = phone("10.0.0.4")
    response = other.join(code, "Ann")
    assert response.status_code == 403
    assert "already taken" in text(response)


def test_typing_the_code_joins_and_is_case_insensitive(phone):
    host = phone()
    code = host.start()
    guest = phone("10.0.0.5")
    response = guest.post("/join", {"code": f" {code.lower()[:3]} {code.lower()[3:]} "})
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/j/{code}")


@pytest.mark.parametrize("typed, message", [
    ("ABC", "has 6 characters; 'ABC' has 3"),
    ("ABCDE0", "'0' never appears in a table code"),
    ("ABCDEI", "'I' never appears"),
])
def test_impossible_codes_are_explained(phone, typed, message):
    response = phone().post("/join", {"code": typed})
    assert response.status_code == 422
    assert message in text(response)


def test_an_unknown_code_gets_a_friendly_page_with_the_code_box(phone):
    guest = phone()
    response = guest.post("/join", {"code": "ZZZZZZ"})
    html = text(response)
    assert response.status_code == 404
    assert "There is no table with the code ZZZZZZ" in html and 'name="code"' in html
    page = guest.get("/t/ZZZZZZ")
    assert page.status_code == 404 and "no table with the code ZZZZZZ" in text(page)


def test_codes_typed_in_are_rate_limited_per_client(make_app):
    app = make_app(RATE_LIMITS={"code": 20, "action": 0, "live": 0, "create": 0})
    guesser = Phone(app, "10.9.9.9")
    room_in_this_minute(5)
    statuses = [guesser.post("/join", {"code": "ZZZZZZ"}).status_code for _ in range(21)]
    assert statuses[:20] == [404] * 20
    assert statuses[20] == 429
    # Another phone at the table is not affected.
    assert Phone(app, "10.0.0.8").post("/join", {"code": "ZZZZZZ"}).status_code == 404


def test_a_score_shows_on_the_other_phone_by_polling(phone):
    host = phone()
    code = host.start()
    ben = phone("10.0.0.3")
    ben.join(code, "Ben")
    page = text(ben.get(f"/t/{code}"))
    version = int(re.search(r'data-version="(\d+)"', page).group(1))
    have = ",".join(f"{name}:{digest}" for name, digest in regions_in(page))
    # Nothing changed: an empty 204.
    assert ben.get(f"/t/{code}/live?v={version}&have={have}").status_code == 204
    assert host.act(type="enter_score", player="Ann", round=1, points=12).status_code == 200
    update = ben.get(f"/t/{code}/live?v={version}&have={have}", headers={"HX-Request": "true"})
    html = text(update)
    swapped = {name for name, _ in re.findall(r'<section id="(\w+)" data-region="\w+" data-hash="(\w+)" hx-swap-oob', html)}
    # Only the regions that changed are sent: the sheet, the history and the last move (with
    # its undo), not the seats.
    assert swapped == {"scoresheet", "history", "lastmove"}
    dock = re.sub(r"<[^>]+>", "", html[html.index('id="lastmove"'):])
    assert "Last move: The host wrote 12 points for Ann in round 1." in " ".join(dock.split())
    assert "12" in html and "The host wrote 12 points for Ann in round 1." in html
    assert "HX-Request" in update.headers["Vary"]


def test_a_stale_tap_is_refused_with_the_fresh_state_and_recorded_once(phone):
    host = phone()
    code = host.start()
    ann, ben = phone("10.0.0.3"), phone("10.0.0.4")
    ann.join(code, "Ann")
    ben.join(code, "Ben")
    seen = ann.version()
    first = ann.act(type="enter_score", player="Ann", round=1, points=5, expected=seen)
    second = ben.act(type="enter_score", player="Ann", round=1, points=5, expected=seen)
    assert first.status_code == 200
    assert second.status_code == 409
    body = text(second)
    assert "changed a moment before your tap" in body
    assert 'id="scoresheet"' in body  # the fresh state comes with the note
    actions = [e for e in host.snapshot()["log"] if e["kind"] == "action"]
    assert len(actions) == 1

def test_a_phones_own_accepted_tap_is_no_conflict_for_its_next(phone):
    """Two taps on one cell in a row from a menu held open: the page still carries the version
    before the first, which this phone made itself; another phone's change still counts."""
    host = phone()
    code = host.start(players=("Ann", "Ben"), me="0")
    seen = host.version()
    first = host.act(type="enter_score", player="Ben", round=1, points=5, expected=seen)
    second = host.act(type="enter_score", player="Ben", round=1, points=7, expected=seen)
    assert (first.status_code, second.status_code) == (200, 200), text(second)
    ben = phone("10.0.0.3")
    ben.join(code, "Ben")
    seen = ben.version()
    assert ben.act(type="enter_score", player="Ben", round=1, points=9, expected=seen).status_code == 200
    late = host.act(type="enter_score", player="Ben", round=1, points=4, expected=seen - 1)
    assert late.status_code == 409
    assert "Ben changed their round 1 from 7 to 9 points." in text(late)
    assert host.snapshot()["state"]["entries"]["Ben"] == {"1": 9}


def test_a_tap_that_changes_nothing_writes_no_log_line(client, phone):
    host = phone()
    code = host.start()
    mama = phone("10.0.0.3")
    mama.join(code, "Ann")
    assert mama.act(type="enter_score", player="Ann", round=1, points=5).status_code == 200
    before = mama.snapshot()
    # The same 5 again (the first tap went out late, and she tapped once more): nothing new.
    again = mama.act(type="enter_score", player="Ann", round=1, points=5)
    assert again.status_code == 200
    after = mama.snapshot()
    assert after["log"] == before["log"] and after["version"] == before["version"]
    assert after["log"][0]["text"] == "Ann wrote down 5 points in round 1."
    # Through the API too: the table as it is, not marked as a replayed retry.
    made = api_table(client)
    url = f"/api/tables/{made['code']}/actions"
    move = {"type": "enter_score", "player": "Ann", "round": 1, "points": 5}
    version = client.post(url, headers=made["headers"], json=move).get_json()["version"]
    same = client.post(url, headers=made["headers"], json=move)
    assert same.status_code == 200 and "Idempotent-Replayed" not in same.headers
    assert same.get_json()["version"] == version



def test_watchers_and_read_only_phones_cannot_change_anything(phone):
    host = phone()
    code = host.start()
    watcher = phone("10.0.0.6")
    watcher.join(code)
    assert "You are watching" in text(watcher.get(f"/t/{code}"))
    for url, data in [(f"/t/{code}/act", {"type": "enter_score", "player": "Ann", "round": 1, "points": 3}),
                      (f"/t/{code}/undo", {}), (f"/t/{code}/redo", {}),
                      (f"/t/{code}/host/lock", {}), (f"/t/{code}/host/free", {"seat": "Ann"})]:
        response = watcher.post(url, data, htmx=True)
        assert response.status_code == 403, url
    assert host.snapshot()["scores"] == {"Ann": 0, "Ben": 0}

    ann = phone("10.0.0.7")
    ann.join(code, "Ann")
    host_page = text(host.get(f"/t/{code}"))
    device_id = re.search(r'<span>Ann</span>.*?name="device" value="(\d+)"', host_page, re.S).group(1)
    assert host.post(f"/t/{code}/host/read-only", {"device": device_id}, htmx=True).status_code == 200
    refused = ann.act(type="enter_score", player="Ann", round=1, points=3)
    assert refused.status_code == 403
    assert "read-only" in text(refused)


def test_the_host_locks_the_table_and_frees_a_seat(phone):
    host = phone()
    code = host.start()
    ann = phone("10.0.0.3")
    ann.join(code, "Ann")
    assert host.post(f"/t/{code}/host/lock", htmx=True).status_code == 200
    late = phone("10.0.0.9")
    response = late.join(code, "Ben")
    assert response.status_code == 403 and "locked" in text(response)
    host.post(f"/t/{code}/host/unlock", htmx=True)
    assert host.post(f"/t/{code}/host/free", {"seat": "Ann"}, htmx=True).status_code == 200
    assert phone("10.0.0.10").join(code, "Ann").status_code == 303
    log = [e["text"] for e in host.snapshot()["log"]]
    assert "The host freed Ann's seat." in log and "The host locked the table against new phones." in log


def test_a_phone_the_host_removed_cannot_take_a_seat_back(phone):
    host = phone()
    code = host.start()
    ann, ben = phone("10.0.0.3"), phone("10.0.0.4")
    ann.join(code, "Ann")
    ben.join(code)  # watching
    assert host.post(f"/t/{code}/host/lock", htmx=True).status_code == 200
    assert host.post(f"/t/{code}/host/free", {"seat": "Ann"}, htmx=True).status_code == 200
    # Freed on a locked table: Ann's phone watches, and cannot sit down again, in any seat.
    for seat in ("Ann", "Ben"):
        refused = ann.post(f"/j/{code}", {"seat": seat})
        assert refused.status_code == 403
        assert "only the host can change who sits where" in text(refused)
    picker = text(ann.get(f"/j/{code}?change"))
    assert "only the host can change who sits where" in picker
    assert re.search(r'<button type="submit" name="seat" value="Ann"[^>]*disabled', picker)
    # The host still seats itself, and a locked table lets nobody in anew.
    assert host.post(f"/j/{code}", {"seat": "Ben"}).status_code == 303
    assert host.post(f"/j/{code}", {"watch": "1"}).status_code == 303
    # A read-only phone takes no seat even on an open table; watching stays allowed.
    host.post(f"/t/{code}/host/unlock", htmx=True)
    host_page = text(host.get(f"/t/{code}"))
    watcher_ids = re.findall(r'name="device" value="(\d+)"', host_page)
    for device_id in watcher_ids:
        host.post(f"/t/{code}/host/read-only", {"device": device_id}, htmx=True)
    refused = ben.post(f"/j/{code}", {"seat": "Ben"})
    assert refused.status_code == 403 and "read-only, so it cannot take a seat" in text(refused)
    assert ben.post(f"/j/{code}", {"watch": "1"}).status_code == 303
    log = [e["text"] for e in host.snapshot()["log"]]
    assert log.count("A phone took Ann's seat.") == 1  # Ann's first join, never again


def test_undo_and_redo_from_the_page(phone):
    host = phone()
    code = host.start()
    ann = phone("10.0.0.3")
    ann.join(code, "Ann")
    ann.act(type="enter_score", player="Ann", round=1, points=4)
    ann.act(type="enter_score", player="Ann", round=1, points=9)
    assert ann.post(f"/t/{code}/undo", {"expected_version": ann.version()}, htmx=True).status_code == 200
    assert host.snapshot()["scores"]["Ann"] == 4
    assert ann.post(f"/t/{code}/redo", {"expected_version": ann.version()}, htmx=True).status_code == 200
    snap = host.snapshot()
    assert snap["scores"]["Ann"] == 9
    assert snap["log"][0]["text"] == "Ann redid: Ann changed their round 1 from 4 to 9 points."
    nothing = ann.post(f"/t/{code}/redo", {}, htmx=True)
    assert nothing.status_code == 422 and "nothing to redo" in text(nothing)


def test_a_form_without_javascript_redirects_back_with_the_message(phone):
    host = phone()
    code = host.start()
    response = host.act(htmx=False, type="enter_score", player="Ann", round=0, points=1)
    assert response.status_code == 303
    page = text(host.get(f"/t/{code}"))
    assert "The field 'round' is not valid" in page


def test_a_post_without_the_csrf_token_is_refused_and_changes_nothing(phone):
    host = phone()
    code = host.start()
    response = host.client.post(f"/t/{code}/act", data={"type": "enter_score", "player": "Ann",
                                                          "round": 1, "points": 5})
    assert response.status_code == 400
    assert "Reload the page" in text(response)
    assert host.snapshot()["scores"]["Ann"] == 0


def test_player_names_are_escaped_everywhere(phone):
    host = phone()
    code = host.start(players=("<b>Ann</b>", "Ben"))
    html = host.get(f"/t/{code}").get_data(as_text=True)
    assert "<b>Ann</b>" not in html
    assert "&lt;b&gt;Ann&lt;/b&gt;" in html


def test_a_restarted_server_resumes_the_table(make_app, phone):
    first = make_app()
    from tests.conftest import Phone, api_table

    host = Phone(first)
    code = host.start()
    host.act(type="enter_score", player="Ben", round=1, points=7)
    cookie = host.client.get_cookie("session")
    second = make_app()  # a new app process on the same database
    again = Phone(second)
    again.client.set_cookie("session", cookie.value)
    again.code = code
    assert again.snapshot()["scores"] == {"Ann": 0, "Ben": 7}
    html = text(again.get(f"/t/{code}"))
    assert "You are the host" in html  # the same cookie is the same device after the restart


def test_the_host_deletes_a_table(phone):
    host = phone()
    code = host.start()
    response = host.post(f"/t/{code}/delete")
    assert response.status_code == 303
    assert host.client.get(f"/api/tables/{code}").status_code == 404


def test_the_join_address_uses_the_lan_not_loopback():
    assert base_url("http://127.0.0.1:5000/", lan=["192.168.1.20"]) == "http://192.168.1.20:5000"
    assert base_url("http://localhost:8000/", lan=["10.0.0.5"]) == "http://10.0.0.5:8000"
    assert base_url("http://10.0.0.5:5000/", lan=["10.0.0.5"]) == "http://10.0.0.5:5000"
    # An address that is not this machine's came from the Host header: not used.
    assert base_url("http://192.168.1.20:5000/", lan=["10.0.0.5"]) == "http://10.0.0.5:5000"
    assert base_url("http://127.0.0.1:5000/", "https://games.example.org/") == "https://games.example.org"
    assert base_url("http://127.0.0.1:5000/", lan=[]) == "http://127.0.0.1:5000"


def test_public_url_goes_into_the_qr_address(make_app):
    from tests.conftest import Phone, api_table

    host = Phone(make_app(PUBLIC_URL="https://table.example.org"))
    code = host.start()
    assert f"https://table.example.org/j/{code}" in text(host.get(f"/t/{code}"))


def test_the_seat_cookie_is_httponly_and_samesite_lax(phone):
    host = phone()
    response = host.post("/new/scorepad", {"player": ["Ann"]})
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_the_secret_key_is_generated_into_the_instance_folder(make_app, tmp_path):
    app = make_app(SECRET_KEY=None)
    key_file = tmp_path / "instance" / "secret_key"
    assert key_file.read_text().strip() == app.config["SECRET_KEY"]
    assert len(app.config["SECRET_KEY"]) == 64
    assert make_app(SECRET_KEY=None).config["SECRET_KEY"] == app.config["SECRET_KEY"]



@pytest.mark.parametrize("same_key", [True, False])
def test_a_phone_moving_to_another_server_keeps_its_seat_when_they_share_the_key(make_app,
                                                                                 same_key):
    """Two servers on one database behind one address: a phone's next request may reach
    either. With the same SECRET_KEY the phone is the same phone on both."""
    from tests.conftest import Phone, api_table

    first = make_app(SECRET_KEY="one key shared by every server " * 2)
    second = make_app(SECRET_KEY="one key shared by every server " * 2 if same_key
                      else "a key of its own for this server " * 2)
    host = Phone(first)
    code = host.start(players=("Ann", "Ben"))
    ben = Phone(first, "10.0.0.3")
    ben.join(code, "Ben")
    moved = Phone(second, "10.0.0.3")
    moved.code = code
    moved.client.set_cookie("session", ben.client.get_cookie("session").value)
    page = moved.get(f"/t/{code}")
    if not same_key:
        # A cookie signed with another key is no cookie: the phone is asked to join again.
        assert page.status_code == 303 and f"/j/{code}" in page.headers["Location"]
        return
    assert page.status_code == 200
    assert "You are <strong>Ben</strong>" in page.get_data(as_text=True)
    moved.post(f"/t/{code}/act", {"type": "enter_score", "player": "Ben", "round": 1,
                                  "points": 6, "expected_version": moved.version()})
    log = host.client.get(f"/api/tables/{code}").get_json()["log"]
    assert log[0]["actor"] == "Ben" and "6" in log[0]["text"]

def test_polling_a_deleted_table_says_it_is_gone(phone):
    host = phone()
    code = host.start()
    version = host.snapshot()["version"]
    assert host.client.get(f"/t/{code}/live?v={version}").status_code == 204
    host.post(f"/t/{code}/delete")
    gone = host.client.get(f"/t/{code}/live?v={version}", headers={"HX-Request": "true"})
    assert gone.status_code == 404 and "no longer exists" in gone.get_data(as_text=True)


def test_the_whole_history_is_kept_and_readable(phone):
    host = phone()
    code = host.start()
    for points in range(1, 46):  # more than the table page shows
        host.act(type="enter_score", player="Ann", round=1, points=points)
    page = text(host.get(f"/t/{code}/history"))
    assert "The table was set up for Ann, Ben." in page
    assert "changed Ann's round 1 from 44 to 45 points" in page
    assert page.index("set up for") < page.index("from 44 to 45")  # oldest first


def test_a_live_version_holds_no_log_entry_past_the_version_it_read(app, phone):
    """On PostgreSQL each read of a table version sees the commits made since the one before: an
    entry written after the table was read must wait for the next version (else it would
    be shown twice, once now and once with that version)."""
    from sqlalchemy import insert

    from companion.service.models import LogEntry
    from companion.service.tables import read_table

    host = phone()
    code = host.start(players=("Ann", "Ben"))
    version = host.snapshot()["version"]
    engine = app.extensions["engine"]
    table, _phones, entries = read_table(engine, code, 40)
    with engine.begin() as connection:  # as if committed between the reads of the snapshot
        connection.execute(insert(LogEntry.__table__).values(
            table_id=table.id, seq=version + 1, kind="action", payload={}, actor="Ann",
            sentence="later", message=None, created_at=entries[0].created_at))
    table, _phones, entries = read_table(engine, code, 40)
    assert table.version == version
    assert [entry.seq for entry in entries] == list(range(version, 0, -1))
    _table, _phones, newer = read_table(engine, code, 40, log_after=version - 1)
    assert [entry.seq for entry in newer] == [version]


class ControlsInRegions(HTMLParser):
    """The controls a reader of a table page could tap inside its live regions (the game, its
    history, who is here): forms, buttons, fields and choices, whatever their state."""

    CONTROLS = {"form", "button", "select", "textarea", "input"}

    def __init__(self):
        super().__init__()
        self.depth = 0  # inside a region's <section>: how many sections deep
        self.found = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "section" and (self.depth or "data-region" in attrs):
            self.depth += 1
        elif self.depth and tag in self.CONTROLS and attrs.get("type") != "hidden":
            self.found.append(f"<{tag} {attrs.get('name') or attrs.get('class') or ''}>")

    def handle_endtag(self, tag):
        if tag == "section" and self.depth:
            self.depth -= 1


def controls_in_regions(page: str) -> list[str]:
    parser = ControlsInRegions()
    parser.feed(page)
    return parser.found


@pytest.mark.parametrize("game", sorted(OPENINGS))
def test_a_watcher_sees_the_game_without_a_single_control(client, phone, game):
    """Every move of the opening, seen from a watching phone: the board, the scores and the
    history, and nothing to tap that would only be refused; the top says why, once."""
    table, moves = opening(client, GAMES[game])
    watcher = phone("10.0.0.9")
    watcher.join(table.code)
    for seat, move in [(None, None), *moves]:
        if move:
            table.move(move, by=seat)
        page = text(watcher.get(f"/t/{table.code}"))
        assert "You are watching: the players' phones make the moves" in page
        assert controls_in_regions(page) == [], (game, move)
    # A host's page of the same game is full of them.
    host = phone("10.0.0.10")
    code = host.start(game, players=OPENINGS[game][0])
    assert len(controls_in_regions(text(host.get(f"/t/{code}")))) > 3


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_watcher_sees_no_control_in_any_phase_of_a_random_game(client, phone, game_id):
    """A game played on by the host's script with random legal moves (the contract test's),
    looked at from a watching phone after every move, through every phase it reaches."""
    game = GAMES[game_id]
    players = ["Ann", "Ben", "Cy"][:max(game.min_players, min(game.max_players, 3))]
    table = api_table(client, game_id, players)
    watcher = phone("10.0.0.9")
    watcher.join(table["code"])
    rng = random.Random(29)
    state, looked = game.initial_state(players, game.parse_options({})), 0
    for _step in range(80):
        page = text(watcher.get(f"/t/{table['code']}"))
        assert controls_in_regions(page) == [], (game_id, game.phase(state))
        looked += 1
        legal = [kind for kind, why in game.legal_actions(state, None).items()
                 if why is None and kind != "hand_turn"]
        if not legal or game.is_over(state):
            break
        kind = rng.choice(legal)
        tries = game_samples(game, state, kind) + payloads(game, state, kind, players)[:CANDIDATES]
        for payload in tries:
            try:
                state = game.play(state, game.parse_action(payload), None)[0]
            except GameError:
                continue
            made = client.post(f"/api/tables/{table['code']}/actions", json=payload, headers=table["headers"])
            assert made.status_code == 200, (payload, made.get_json())
            break
    assert looked >= 20 or game.is_over(state), looked  # far more than the opening


def test_a_finished_games_free_seat_cannot_be_taken_to_rewrite_its_result(phone):
    """Whoever learns a finished table's code (a group's play once linked to it) may watch,
    but not sit down in a free seat, undo the end and change the score the group counts."""
    host = phone()
    code = host.start(players=("Ann", "Ben"))
    for seat, points in (("Ann", 5), ("Ben", 9)):
        assert host.act(type="enter_score", player=seat, round=1, points=points).status_code == 200
    assert host.act(type="finish_game").status_code == 200
    stranger = phone("10.0.0.66")
    page = text(stranger.get(f"/j/{code}"))
    assert "This game is over: its seats stay with the phones that played it" in page
    assert re.search(r'value="Ben" class="seat"\s+disabled', page)
    refused = stranger.join(code, "Ben")
    assert refused.status_code == 403 and "This game is over" in text(refused)
    assert stranger.join(code).status_code == 303  # watching is fine
    assert stranger.act(type="enter_score", player="Ben", round=1, points=500).status_code == 403
    assert stranger.post(f"/j/{code}", {"seat": "Ben"}).status_code == 403  # nor by a seat change
    assert host.snapshot()["scores"] == {"Ann": 5, "Ben": 9}
