"""Bad input gets a sentence, never a 500, and changes nothing: the inputs the probes of
issue 15 found (unhashable values, numbers JSON does not allow, deep nesting, broken and
invisible characters, huge bodies) and names that only look different."""

from __future__ import annotations

import html

import pytest

from companion.service.inputs import name_key, tidy_name
from tests.conftest import Phone, api_seat, api_table, bearer, room_in_this_minute


@pytest.fixture
def table(client):
    return api_table(client, "asterix-obelix", ("Ann", "Bob"))


def _raw(client, url, text, headers=None):
    return client.post(url, data=text, headers={**(headers or {}),
                                                "Content-Type": "application/json"})


def _unchanged(client, table):
    assert client.get(f"/api/tables/{table['code']}").get_json()["version"] == table["version"]


@pytest.mark.parametrize("text, words", [
    ('{"type": "reveal_card", "kind": {}}', "object or a list where a word or a number"),
    ('{"type": "start_game", "expected_version": 1e400}', "not a number JSON allows"),
    ('{"type": "start_game", "expected_version": Infinity}', "not a number JSON allows"),
    ('{"type": "start_game", "expected_version": NaN}', "not a number JSON allows"),
    ('{"type": "start_game", "expected_version": 1.5}', "expected_version must be a whole number"),
    ('{"type": "start_game", "expected_version": "7"}', "expected_version must be a whole number"),
    ('{"type": "start_game", "expected_version": true}', "expected_version must be a whole number"),
    ('{"type": "start_game", "x": ' + "[" * 1000 + "]" * 1000 + "}", "nested more than"),
    ('{"type": "start_game", "starter": "Ann\\ud800"}', "lone surrogate"),
    ('{"type": "start_game", "starter": "An\\u0000n"}', "NUL character"),
    ('{"type": "start_game", "starter": "Ann", "' + "k" * 5000 + '": 1}', "is not expected here"),
])
def test_a_bad_action_gets_a_sentence_and_changes_nothing(client, table, text, words):
    answer = _raw(client, f"/api/tables/{table['code']}/actions", text, table["headers"])
    assert answer.status_code == 422, answer.get_data(as_text=True)[:300]
    error = answer.get_json()["error"]
    assert words in error
    assert len(error) < 600  # a short quote of the input at most
    _unchanged(client, table)


@pytest.mark.parametrize("payload", [{"expected_version": "7"}, {"expected_version": 1.5},
                                     {"expected_version": -1}])
def test_undo_takes_only_a_whole_version_number(client, table, payload):
    answer = client.post(f"/api/tables/{table['code']}/undo", json=payload,
                         headers=table["headers"])
    assert answer.status_code == 422
    assert "expected_version" in answer.get_json()["error"]


def test_a_body_above_the_limit_is_refused_before_it_is_read(client, table):
    big = '{"game": "scorepad", "players": ["' + "A" * 70_000 + '", "B"]}'
    answer = _raw(client, "/api/tables", big)
    assert answer.status_code == 413
    assert answer.get_json()["error"].startswith("The request is larger than 64 KB")
    page = client.post(f"/t/{table['code']}/act", data={"note": "x" * 70_000})
    assert page.status_code == 413
    assert "larger than 64 KB" in page.get_data(as_text=True)
    _unchanged(client, table)


@pytest.mark.parametrize("game, move", [
    ("scorepad", {"type": "enter_score", "round": 1, "points": 1}),
    ("kartenspiel", {"type": "win_roman", "value": 5}),
    ("asterix-co", {"type": "gain_helmet", "helmet": "legionary"}),
    ("zaubertrank", {"type": "take_ingredients", "fish": 1}),
])
def test_a_long_name_comes_back_as_a_short_quote(client, game, move):
    answer = client.post("/api/tables", json={"game": game, "players": ["N" * 20_000, "B"]})
    assert answer.status_code == 422
    assert len(answer.get_json()["error"]) < 200
    # A move naming a player no seat has quotes at most 40 characters of the name sent.
    made = api_table(client, game, players=("Ann", "Ben"))
    refused = client.post(f"/api/tables/{made['code']}/actions", headers=made["headers"],
                          json={**move, "player": "N" * 20_000})
    assert refused.status_code == 422
    assert refused.get_json()["error"] == f"There is no player called '{'N' * 40}…' at this table."


@pytest.mark.parametrize("url", ["/api/tables/AB%00CD", "/j/AB%00CD", "/t/AB%00CD",
                                 "/t/AB%00CD/live?v=1", "/api/tables/" + "Z" * 3000])
def test_a_code_with_a_nul_or_of_any_length_is_not_found_with_a_sentence(client, url):
    answer = client.get(url)
    assert answer.status_code in (303, 404, 422)
    assert len(answer.get_data(as_text=True)) < 20_000


def test_a_version_that_int_would_misread_is_just_not_this_version(client, table):
    # "²" is a digit to str.isdigit but not to int(): the poll treats it as an unknown version.
    answer = client.get(f"/t/{table['code']}/live?v=%C2%B2")
    assert answer.status_code in (200, 204, 403)


@pytest.mark.parametrize("names, refused", [
    (["\u200b", "Bob"], "empty or only invisible"),
    (["\u202e\u2066", "Bob"], "empty or only invisible"),
    (["Zoe\u0308", "Zo\u00eb"], "Two players are called"),
    (["STRASSE", "straße"], "Two players are called"),
    (["ANN", "ann"], "Two players are called"),
])
def test_names_that_look_empty_or_the_same_are_refused(client, names, refused):
    answer = client.post("/api/tables", json={"game": "scorepad", "players": names})
    assert answer.status_code == 422
    assert refused in answer.get_json()["error"]


def test_invisible_and_control_characters_leave_a_name():
    assert tidy_name("\u202eAnn\u200b \x00Bo\tb ") == "Ann Bo b"  # a tab is a space
    assert tidy_name("Zoe\u0308") == "Zo\u00eb"
    assert name_key("STRASSE") == name_key("straße")


def test_a_name_keeps_its_visible_letters_when_stored(client):
    made = client.post("/api/tables", json={"game": "scorepad", "players": ["\u202eAnn\u200b", "Bo\u2066b"]})
    assert made.status_code == 201
    code = made.get_json()["code"]
    assert client.get(f"/api/tables/{code}").get_json()["players"] == ["Ann", "Bob"]
    # A NUL no database stores: refused with a sentence rather than silently cut.
    refused = client.post("/api/tables", json={"game": "scorepad", "players": ["Ann", "Bo\x00b"]})
    assert refused.status_code == 422
    assert "NUL character" in refused.get_json()["error"]


# -- every retry counts once ---------------------------------------------------------------


def _entries(client, code):
    return client.get(f"/api/tables/{code}?log=100").get_json()["log"]


def test_a_retried_action_with_the_same_key_is_recorded_once(make_app):
    app = make_app()
    client = app.test_client()
    made = api_table(client)
    code, headers = made["code"], made["headers"]
    version = client.get(f"/api/tables/{code}").get_json()["state_version"]
    move = {"type": "enter_score", "player": "Ann", "round": 1, "points": 7,
            "expected_version": version}
    first = client.post(f"/api/tables/{code}/actions", json=move,
                        headers={**headers, "Idempotency-Key": "tap-1"})
    assert first.status_code == 200
    # The answer was lost; the server even went down and came back (a new app, same database).
    again = make_app().test_client().post(f"/api/tables/{code}/actions", json=move,
                                          headers={**headers, "Idempotency-Key": "tap-1"})
    assert again.status_code == 200  # not 409, although it carries the old version
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json()["scores"] == first.get_json()["scores"] == {"Ann": 7, "Ben": 0}
    # A new key is a new tap: from another phone, refused as stale, since it was made against
    # the old version (this phone's own change since is no conflict for it).
    other = client.post(f"/api/tables/{code}/actions", json={**move, "points": 8},
                        headers={**api_seat(client, code, "Ben"), "Idempotency-Key": "tap-2"})
    assert other.status_code == 409
    undo = {"expected_version": first.get_json()["state_version"]}
    for _try in range(2):
        answer = client.post(f"/api/tables/{code}/undo", json=undo,
                             headers={**headers, "Idempotency-Key": "undo-1"})
        assert answer.status_code == 200
    snapshot = client.get(f"/api/tables/{code}").get_json()
    assert snapshot["scores"] == {"Ann": 0, "Ben": 0}
    assert [entry["kind"] for entry in snapshot["log"]].count("undo") == 1


def test_a_tap_retried_by_the_phone_is_recorded_once(phone):
    host = phone()
    code = host.start(players=("Ann", "Ben"))
    version = host.version()
    for _try in range(3):
        answer = host.post(f"/t/{code}/act", {"type": "enter_score", "player": "Ben", "round": "1", "points": "4",
                                              "expected_version": str(version)},
                           htmx=True, headers={"Idempotency-Key": "a1b2c3"})
        assert answer.status_code == 200
    assert host.snapshot()["scores"] == {"Ann": 0, "Ben": 4}


def test_an_idempotency_key_that_cannot_be_one_is_refused(client, table):
    answer = client.post(f"/api/tables/{table['code']}/actions", json={"type": "start_game"},
                         headers={**table["headers"], "Idempotency-Key": "k" * 101})
    assert answer.status_code == 422
    assert "Idempotency-Key" in answer.get_json()["error"]
    _unchanged(client, table)


# -- merging instead of refusing -------------------------------------------------------------


def test_players_entering_their_own_scores_at_once_are_all_recorded(client):
    names = ["Ann", "Ben", "Cid", "Dee", "Eve"]
    made = api_table(client, players=names)
    code, headers = made["code"], made["headers"]
    phones = {name: api_seat(client, code, name) for name in names}
    seen = client.get(f"/api/tables/{code}").get_json()["state_version"]
    # Every phone saw the same version and taps before hearing of the others.
    for points, name in enumerate(names, start=1):
        answer = client.post(f"/api/tables/{code}/actions", headers=phones[name], json={
            "type": "enter_score", "player": name, "round": 1, "points": points,
            "expected_version": seen})
        assert answer.status_code == 200, answer.get_json()
    assert client.get(f"/api/tables/{code}").get_json()["scores"] == {
        "Ann": 1, "Ben": 2, "Cid": 3, "Dee": 4, "Eve": 5}
    # Two phones writing the same cell: the second one did not see the first, so it is asked.
    clash = client.post(f"/api/tables/{code}/actions", headers=phones["Ben"], json={
        "type": "enter_score", "player": "Ann", "round": 1, "points": 9, "expected_version": seen})
    assert clash.status_code == 409
    assert client.get(f"/api/tables/{code}").get_json()["scores"]["Ann"] == 1
    # After an undo nothing is merged: the undo may have changed any cell.
    after = client.get(f"/api/tables/{code}").get_json()["state_version"]
    client.post(f"/api/tables/{code}/undo", headers=headers, json={})
    late = client.post(f"/api/tables/{code}/actions", headers=phones["Ben"], json={
        "type": "enter_score", "player": "Ben", "round": 2, "points": 1, "expected_version": after})
    assert late.status_code == 409


def test_a_stale_move_of_a_turn_based_game_is_still_refused(client, table):
    headers = table["headers"]
    seen = client.get(f"/api/tables/{table['code']}").get_json()["state_version"]
    started = client.post(f"/api/tables/{table['code']}/actions", headers=headers,
                          json={"type": "start_game", "starter": "Ann", "expected_version": seen})
    assert started.status_code == 200, started.get_json()
    again = client.post(f"/api/tables/{table['code']}/actions", headers=api_seat(client, table["code"], "Bob"),
                        json={"type": "start_game", "starter": "Bob", "expected_version": seen})
    assert again.status_code == 409


def test_a_menu_left_half_chosen_is_accepted_until_what_it_names_changes(phone):
    host, ben = phone(), phone("10.0.0.3")
    code = host.start(game="kartenspiel", players=("Ann", "Ben", "Cid"))
    ben.join(code, "Ben")
    ben.post("/language", {"lang": "de", "next": f"/t/{code}"})
    seen = ben.version()  # Ben opens Idefix's menu and starts choosing
    assert host.act(type="win_roman", value="7", player="Ann").status_code == 200
    assert host.act(type="idefix_clash").status_code == 200
    # Other piles and the clash count changed, not Ben's hand or pile: his choice still counts.
    kept = ben.act(expected=seen, type="idefix_look", player="Ben", roman="12")
    assert kept.status_code == 200, kept.get_data(as_text=True)
    assert ben.snapshot()["state"]["piles"]["Ben"]["romans"] == [12]
    # Ben's own hand changed since the version his menu carries: refused, naming the change.
    seen = ben.version()
    assert host.act(type="player_out", player="Ben").status_code == 200
    refused = ben.act(expected=seen, type="win_roman", player="Ben", value="5")
    assert refused.status_code == 409
    assert "Der Tisch hat sich kurz vor deinem Tippen geändert: Ben hat keine Karten mehr." in (
        html.unescape(refused.get_data(as_text=True)))
    assert ben.snapshot()["state"]["piles"]["Ben"]["romans"] == [12]


# -- fair share ------------------------------------------------------------------------------


def test_a_client_past_its_limit_gets_429_with_retry_after_and_others_carry_on(make_app):
    app = make_app(RATE_LIMITS={"code": 5, "action": 3, "live": 4, "create": 2})
    room_in_this_minute(10)
    guesser, player = app.test_client(), app.test_client()
    address = {"REMOTE_ADDR": "10.0.0.66"}
    made = player.post("/api/tables", json={"game": "scorepad", "players": ["Ann", "Ben"]},
                       environ_base={"REMOTE_ADDR": "10.0.0.7"}).get_json()
    # Misses count: five guesses, then the sixth is refused without a lookup.
    for guess in ("AAAAAA", "BBBBBB", "CCCCCC", "DDDDDD", "EEEEEE"):
        assert guesser.get(f"/api/tables/{guess}", environ_base=address).status_code == 404
    refused = guesser.get(f"/api/tables/{made['code']}", environ_base=address)
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert "Too many requests from this device" in refused.get_json()["error"]
    page = guesser.get(f"/j/{made['code']}", environ_base=address)
    assert page.status_code == 429 and "Slow down" in page.get_data(as_text=True)
    # Another client is not slowed down by it.
    assert player.get(f"/api/tables/{made['code']}",
                      environ_base={"REMOTE_ADDR": "10.0.0.7"}).status_code == 200
    # Creating tables has its own, lower limit.
    creator = {"REMOTE_ADDR": "10.0.0.8"}
    for _try in range(2):
        assert player.post("/api/tables", json={"game": "scorepad", "players": ["A", "B"]},
                           environ_base=creator).status_code == 201
    assert player.post("/api/tables", json={"game": "scorepad", "players": ["A", "B"]},
                       environ_base=creator).status_code == 429


def test_a_client_past_its_limit_is_refused_slowly(make_app, monkeypatch):
    from companion.web import errors

    app = make_app(RATE_LIMITS={"code": 2, "action": 0, "live": 0, "create": 0},
                   RATE_LIMIT_TARPIT=0.5)
    waits = []
    monkeypatch.setattr(errors.time, "sleep", waits.append)
    address = {"REMOTE_ADDR": "10.0.0.77"}
    room_in_this_minute(5)
    answers = [app.test_client().get("/api/tables/ZZZZZZ", environ_base=address).status_code
               for _try in range(6)]
    assert answers == [404, 404, 429, 429, 429, 429]
    # Each refusal waited (the tarpit): between half and one and a half times the setting,
    # drawn afresh each time, so that refusals sent back to back do not wake up together.
    assert len(waits) == 4 and all(0.25 <= wait <= 0.75 for wait in waits)
    assert len(set(waits)) == 4


def test_a_hammering_phone_gets_a_tenth_of_its_minute_at_once_not_the_minute(make_app, phone):
    import time

    app = make_app(RATE_LIMITS={"code": 0, "action": 300, "live": 0, "create": 0})
    host = Phone(app)
    code = host.start(players=("Ann", "Ben"), me="0")
    started = time.monotonic()
    taps = [host.post(f"/t/{code}/act", {"type": "enter_score", "player": "Ann",
                                         "round": 1 + tap % 10, "points": tap}, htmx=True)
            for tap in range(100)]
    took = time.monotonic() - started
    statuses = [tap.status_code for tap in taps]
    # Thirty at once (a tenth of 300 a minute), then about one every 0.2 s, never the minute's.
    assert statuses[:30] == [200] * 30, statuses
    assert statuses.count(200) <= 30 + 5 * took + 1 and 429 in statuses, (statuses, took)
    refused = next(tap for tap in taps if tap.status_code == 429)
    assert 1 <= int(refused.headers["Retry-After"]) <= 6
    assert "Too many requests from this device" in refused.get_data(as_text=True)


def test_a_phone_is_counted_for_itself_not_for_the_address_it_shares(make_app):
    """Two phones behind one router: one hammering does not hold the other back; and a bearer
    token no device holds is counted for its address, not given a fresh count of its own."""
    app = make_app(RATE_LIMITS={"code": 20, "action": 0, "live": 0, "create": 0})
    ann, ben = Phone(app, "10.0.0.40"), Phone(app, "10.0.0.40")
    code = ann.start(players=("Ann", "Ben"), me="0")
    ben.join(code, "Ben")
    # A burst of 10 in 30 s; counted in fixed windows, so that a window's turn may let one more in.
    assert 429 in [ann.get(f"/t/{code}").status_code for _try in range(25)]
    assert ben.get(f"/t/{code}").status_code == 200
    guesser = app.test_client()
    room_in_this_minute(5)
    made_up = [guesser.get(f"/api/tables/{code}", environ_base={"REMOTE_ADDR": "10.0.0.41"},
                           headers=bearer(f"made-up-{guess}")).status_code
               for guess in range(21)]
    assert made_up[:20] == [200] * 20 and made_up[20] == 429


def test_a_game_cafe_behind_one_address_plays_without_a_429(make_app):
    """Twenty tables of six phones behind one public address, with the default limits: every
    table is set up, every phone joins, opens its page, polls and taps, nobody is refused."""
    app = make_app(RATE_LIMITS="", RATE_LIMIT_TARPIT=0)
    refused = []
    for number in range(20):
        players = [f"P{number}-{seat}" for seat in range(6)]
        host = Phone(app, "203.0.113.7")
        code = host.start(players=players, me="0")
        phones = [host]
        for seat in players[1:]:
            guest = Phone(app, "203.0.113.7")
            joined = guest.join(code, seat)
            assert joined.status_code == 303, (seat, joined.status_code)
            phones.append(guest)
        for seat, guest in zip(players, phones):
            for answer in (guest.get(f"/t/{code}"), guest.get(f"/t/{code}/live?v=0"),
                           guest.post(f"/t/{code}/act", {"type": "enter_score", "player": seat,
                                                          "round": 1, "points": 5}, htmx=True)):
                if answer.status_code == 429:
                    refused.append((code, seat, answer.request.path))
    assert refused == []


def test_rate_limits_are_read_from_a_setting_and_a_bad_one_is_named():
    from companion.web.limits import parse_limits

    assert parse_limits("code=10, create=0")["code"] == 10
    with pytest.raises(ValueError, match="'coed=10' is not kind=number"):
        parse_limits("coed=10")


def test_a_table_without_activity_for_a_month_is_out_of_reach_of_its_code(app, client):
    from datetime import timedelta

    from sqlmodel import Session, select

    from companion.service.models import GameTable, now

    made = api_table(client)
    assert client.get(f"/api/tables/{made['code']}").status_code == 200
    with Session(app.extensions["engine"]) as db:
        table = db.exec(select(GameTable).where(GameTable.code == made["code"])).one()
        table.updated_at = now() - timedelta(days=31)
        db.add(table)
        db.commit()
    answer = client.get(f"/api/tables/{made['code']}")
    assert answer.status_code == 404
    assert "no activity for 30 days" in answer.get_json()["error"]
    assert client.get(f"/j/{made['code']}").status_code in (303, 404)


# -- long games ------------------------------------------------------------------------------


def test_a_long_game_answers_with_the_newest_log_and_a_cursor_to_the_rest(client):
    made = api_table(client)
    code, headers = made["code"], made["headers"]
    for i in range(120):
        answer = client.post(f"/api/tables/{code}/actions", headers=headers, json={
            "type": "enter_score", "player": "Ann", "round": 1 + i % 20, "points": i})
    assert answer.status_code == 200
    assert len(answer.get_json()["log"]) == 50  # the action's answer too
    seen, cursor = [], None
    while True:
        page = client.get(f"/api/tables/{code}" + (f"?log_before={cursor}" if cursor else "")).get_json()
        seen += [entry["seq"] for entry in page["log"]]
        cursor = page["log_next"]
        if cursor is None:
            break
    # Every entry once, newest first: the 120 actions and the set-up line.
    assert seen == sorted(seen, reverse=True) and len(seen) == len(set(seen)) == 121
    assert len(client.get(f"/api/tables/{code}?log=5").get_json()["log"]) == 5
    bad = client.get(f"/api/tables/{code}?log=0")
    assert bad.status_code == 422 and "'log'" in bad.get_json()["error"]


def test_a_body_that_trickles_in_is_cut_off_with_408(make_app, table):
    import gevent

    app = make_app(BODY_SECONDS=1)

    class Trickle:
        def read(self, size=-1):
            gevent.sleep(0.2)  # one byte every 0.2 s, as a slow-loris client sends it
            return b"x"

    def send(**environ):
        return app.test_client().post(
            f"/api/tables/{table['code']}/actions", headers=table["headers"],
            environ_overrides={"wsgi.input": Trickle(), "CONTENT_TYPE": "application/json",
                               **environ})

    cut_off = send(CONTENT_LENGTH="100")
    assert cut_off.status_code == 408 and cut_off.headers["Connection"] == "close"
    assert cut_off.get_json()["error"].startswith("The request body did not arrive within 1 seconds")
    # Without a Content-Length (a chunked body) the deadline holds too.
    assert send(HTTP_TRANSFER_ENCODING="chunked", CONTENT_LENGTH="",
                **{"wsgi.input_terminated": True}).status_code == 408
    _unchanged(app.test_client(), table)

def test_undo_and_redo_across_checkpoints_give_what_replaying_the_whole_log_gives(app, client):
    from sqlmodel import Session, select

    from companion.games import get_game
    from companion.service.history import replay
    from companion.service.models import GameTable, LogEntry, StateCheckpoint

    made = api_table(client)
    code, headers = made["code"], made["headers"]

    def enter(i):
        answer = client.post(f"/api/tables/{code}/actions", headers=headers, json={
            "type": "enter_score", "player": "Ann" if i % 2 else "Ben", "round": 1 + i % 30,
            "points": i})
        assert answer.status_code == 200

    def step(kind):
        assert client.post(f"/api/tables/{code}/{kind}", headers=headers, json={}).status_code == 200

    for i in range(55):
        enter(i)
    for _ in range(7):  # back below the checkpoint at 50
        step("undo")
    step("redo")
    enter(100)  # a new action past an undo: the checkpoint at 50 no longer holds
    for i in range(10):
        enter(200 + i)
    for _ in range(12):
        step("undo")
    step("redo")
    with Session(app.extensions["engine"]) as db:
        table = db.exec(select(GameTable).where(GameTable.code == code)).one()
        entries = [{"kind": e.kind, "payload": e.payload, "actor": e.actor} for e in db.exec(
            select(LogEntry).where(LogEntry.table_id == table.id).order_by(LogEntry.seq))]
        game = get_game("scorepad")
        whole = replay(game, table.players, table.options, entries)
        assert table.state == whole.state
        assert (table.undo_depth, table.redo_depth) == (len(whole.applied), len(whole.redoable))
        kept = db.exec(select(StateCheckpoint).where(StateCheckpoint.table_id == table.id)).all()
        assert [checkpoint.depth for checkpoint in kept] == [50]


def test_undo_reads_only_what_came_since_and_still_agrees_with_the_whole_log(make_app):
    """Undo keeps each table's stacks as of a version and reads only the entries since: taps,
    undos and redos made through another server in between, and stacks kept for a table
    that is not this one after all, still give what replaying the whole log gives."""
    import random

    from sqlmodel import Session, select

    from companion.service.tables import undo as tables
    from companion.games import get_game
    from companion.service.history import replay
    from companion.service.models import GameTable, LogEntry

    servers = [make_app().test_client(), make_app().test_client()]
    made = api_table(servers[0])
    code, headers = made["code"], made["headers"]
    engine = servers[0].application.extensions["engine"]

    def whole_replay():
        with Session(engine) as db:
            table = db.exec(select(GameTable).where(GameTable.code == code)).one()
            entries = [{"kind": e.kind, "payload": e.payload, "actor": e.actor} for e in db.exec(
                select(LogEntry).where(LogEntry.table_id == table.id).order_by(LogEntry.seq))]
            return table, replay(get_game("scorepad"), table.players, table.options, entries)

    chance = random.Random(15)
    for step in range(160):
        server = chance.choice(servers)
        kind = chance.choice(["action", "action", "undo", "undo", "redo"])
        if kind == "action":
            answer = server.post(f"/api/tables/{code}/actions", headers=headers, json={
                "type": "enter_score", "player": chance.choice(["Ann", "Ben"]),
                "round": 1 + step % 12, "points": step})
        else:
            answer = server.post(f"/api/tables/{code}/{kind}", headers=headers, json={})
        assert answer.status_code in (200, 422), answer.get_json()  # 422: nothing to undo/redo
        if step == 80:  # stacks kept for another table that had this id and code, then undo
            table, _ = whole_replay()
            tables._STACKS[(table.id, code)] = (table.version + 5, [1, 2, 3], [])
            assert servers[0].post(f"/api/tables/{code}/undo", headers=headers,
                                   json={}).status_code == 200
        table, whole = whole_replay()
        assert table.state == whole.state, step
        assert (table.undo_depth, table.redo_depth) == (len(whole.applied), len(whole.redoable))


def test_players_typing_in_their_own_piles_at_once_are_all_recorded(client):
    made = api_table(client, "kartenspiel", ("Ann", "Ben", "Cid"))
    code, headers = made["code"], made["headers"]
    phones = {name: api_seat(client, code, name) for name in ("Ann", "Ben", "Cid")}
    seen = client.get(f"/api/tables/{code}").get_json()["state_version"]
    for player, values in (("Ann", "3, 5"), ("Ben", "7"), ("Cid", "")):
        answer = client.post(f"/api/tables/{code}/actions", headers=phones[player], json={
            "type": "enter_romans", "player": player, "values": values, "expected_version": seen})
        assert answer.status_code == 200, answer.get_json()
    piles = client.get(f"/api/tables/{code}").get_json()["state"]["piles"]
    assert [piles[name]["romans"] for name in ("Ann", "Ben", "Cid")] == [[3, 5], [7], []]
    # The same pile again, from another phone against the old version, is a real conflict.
    again = client.post(f"/api/tables/{code}/actions", headers=phones["Ben"], json={
        "type": "enter_romans", "player": "Ann", "values": "9", "expected_version": seen})
    assert again.status_code == 409


# -- what the fuzzing found ------------------------------------------------------------------


def test_ids_and_versions_past_any_database_column_are_no_row_not_a_crash(phone):
    host = phone()
    code = host.start(players=("Ann", "Ben"))
    huge = 2**63
    answer = host.post(f"/t/{code}/host/read-only", {"device": str(huge)}, htmx=True)
    assert answer.status_code == 422 and "not joined to this table" in answer.get_data(as_text=True)
    assert host.client.get(f"/api/tables/{code}?log_before={huge}").status_code == 422
    stream = host.client.get(f"/t/{code}/events", headers={"Last-Event-ID": "²"},
                             environ_base={"REMOTE_ADDR": host.address})
    assert stream.status_code == 200  # a stream from the start, not a crash
    stream.close()
    # PostgreSQL's ids are 32 bits: one past that is no row there either.
    assert host.client.get(f"/api/tables/{code}?log_before={2**31}").status_code == 422
    group = host.client.post("/api/groups", json={"name": "Friday", "players": ["Ann"]}).get_json()
    host.get(f"/g/{group['code']}/own/{group['owner_key']}")  # the group's maker's phone
    rename = host.post(f"/g/{group['code']}/players/{huge}/rename", {"name": "Bo"})
    assert rename.status_code in (303, 404, 422)
    merge = host.post(f"/g/{group['code']}/merge", {"keep": str(huge), "drop": "1"})
    assert merge.status_code in (303, 404, 422)


@pytest.mark.parametrize("url", ["/g/ABCDEF/plays/x%00y", "/t/ABCDEF/history?x=%00",
                                 "/rules/search?q=a%00b"])
def test_a_nul_in_an_address_or_query_gets_a_sentence(client, url):
    answer = client.get(url)
    assert answer.status_code == 422
    assert "NUL character" in answer.get_data(as_text=True)


def test_a_nul_in_a_form_gets_a_sentence_and_changes_nothing(phone):
    host = phone()
    code = host.start(players=("Ann", "Ben"))
    before = host.snapshot()["version"]
    answer = host.post(f"/t/{code}/host/free", {"seat": "Ann\x00"}, htmx=True)
    assert answer.status_code == 422 and "NUL character" in answer.get_data(as_text=True)
    assert host.snapshot()["version"] == before


def test_an_import_with_a_number_of_5000_digits_is_not_json_we_read(phone):
    host = phone()
    group = host.client.post("/api/groups", json={"name": "Friday", "players": []}).get_json()
    host.get(f"/g/{group['code']}/own/{group['owner_key']}")  # the group's maker's phone
    from io import BytesIO

    answer = host.post(f"/g/{group['code']}/import",
                       {"file": (BytesIO(b'{"format": ' + b"9" * 5001 + b"}"), "plays.json")})
    assert answer.status_code in (303, 422)
    page = host.get(f"/g/{group['code']}")
    assert answer.status_code == 422 or "not valid JSON" in page.get_data(as_text=True)


def test_an_import_with_dates_numbers_or_facts_no_play_has_is_refused_or_left_out(client):
    group = client.post("/api/groups", json={"name": "Friday", "players": []}).get_json()
    url = f"/api/groups/{group['code']}/plays"

    def play(uid, **fields):
        return {"uid": uid, "game": "scorepad", "started_at": "2026-11-27T20:00:00+01:00",
                "ended_at": "2026-11-27T21:00:00+01:00",
                "players": [{"name": "Ann", "score": 1, "winner": True}], **fields}

    for bad, words in [
        (play("d1", started_at="0001-01-01T00:00:00+05:00", ended_at="0001-01-01T01:00:00+05:00"),
         "between the years 1970 and 2999"),
        (play("d2", ended_at="9999-12-31T20:00:00-05:00"), "between the years 1970 and 2999"),
        (play("s1", players=[{"name": "Ann", "score": 10**400}]), "'players[0].score'"),
        (play("n1\u0000"), "NUL character"),
    ]:
        answer = client.post(url, data=__import__("json").dumps({"plays": [bad]}),
                             headers={"Content-Type": "application/json",
                                      **bearer(group["owner_key"])})
        assert answer.status_code == 422, (bad, answer.get_json())
        assert words in answer.get_json()["error"]
    # Facts of the wrong shape are kept, but left out of the game's own statistics.
    odd = [dict(play(f"f{i}"), game="asterix-obelix", facts=facts) for i, facts in enumerate([
        {"tokens_won": []}, {"tokens_won": {"Ann": 5}}, {"tokens_won": {"Ann": [[1]]}}])]
    odd += [dict(play("k1"), game="kartenspiel", facts={"rounds": [{"round": 1, "lost_to_pirates": [1]}]}),
            dict(play("c1"), game="asterix-co", facts={"sesterces": {"Ann": 5}})]
    for entry in odd:
        entry["players"] = [{"name": "Ann", "score": 1, "winner": True}, {"name": "Ben", "score": 0}]
    assert client.post(url, json={"plays": odd}, headers=bearer(group["owner_key"])).status_code == 200
    assert client.get(f"/api/groups/{group['code']}/stats").status_code == 200
    assert client.get(f"/g/{group['code']}/stats").status_code == 200


def test_a_static_address_never_reads_outside_static(client):
    for url in ["/static/%00", "/static/app.js%00", "/static/../companion/app.py"]:
        assert client.open(url, method="OPTIONS").status_code < 500
        assert client.get(url).status_code in (404, 422)  # a NUL gets its sentence


def test_a_worker_out_of_database_connections_says_busy_and_how_to_retry(client, table, phone,
                                                                          monkeypatch):
    """Every pooled connection stayed taken (a crowd on a slow PostgreSQL): 503 with
    Retry-After and a sentence, not a 500 that says nothing was changed."""
    from sqlalchemy.exc import TimeoutError as PoolTimeout

    host = phone()
    code = host.start(players=("Ann", "Ben"))

    def exhausted(*_args, **_kwargs):
        raise PoolTimeout("QueuePool limit of size 15 overflow 0 reached")

    monkeypatch.setattr(client.application.extensions["engine"].pool, "connect", exhausted)
    answer = client.post(f"/api/tables/{table['code']}/actions", headers=table["headers"],
                         json={"type": "start_game", "starter": "Ann"})
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "2"
    assert "same Idempotency-Key is recorded once" in answer.get_json()["error"]
    tap = host.post(f"/t/{code}/act", {"type": "enter_score", "player": "Ann", "round": 1,
                                       "points": 3}, htmx=True)
    assert tap.status_code == 503 and "too busy" in tap.get_data(as_text=True)
    page = host.get(f"/t/{code}")
    assert page.status_code == 503 and "reload the page in a few seconds" in page.get_data(as_text=True)
    monkeypatch.undo()
    _unchanged(client, table)


def test_one_import_is_read_at_a_time_and_another_is_refused_before_its_body(app, client):
    """A file of plays may be megabytes: a process reads one at a time, so a hundred sent at
    once cost the memory of one. The others get 503 with Retry-After, their body unread."""
    group = client.post("/api/groups", json={"name": "Friday", "players": []}).get_json()
    play = {"uid": "g1", "game": "scorepad", "started_at": "2026-11-27T20:00:00+01:00",
            "ended_at": "2026-11-27T21:00:00+01:00", "players": [{"name": "Ann", "score": 1}]}
    url, key = f"/api/groups/{group['code']}/plays", bearer(group["owner_key"])
    gate = app.extensions["import_gate"]
    assert gate.acquire(blocking=False)  # an import being read just now
    try:
        busy = client.post(url, json={"plays": [play]}, headers=key)
        assert busy.status_code == 503 and int(busy.headers["Retry-After"]) > 0
        assert "Another import is being read just now" in busy.get_json()["error"]
        assert client.get(f"/api/groups/{group['code']}").get_json()["plays"] == []
        assert client.get(f"/api/groups/{group['code']}").status_code == 200  # the rest goes on
    finally:
        gate.release()
    assert client.post(url, json={"plays": [play]}, headers=key).get_json()["added"] == 1
    assert client.post(url, json={"plays": [play]}, headers=key).get_json()["added"] == 0  # freed again


class Trickle:
    """A body sent one byte at a time, as a slow-loris client sends it (``read``: bytes read)."""

    def __init__(self, pause: float = 0.05):
        self.pause, self.read_bytes = pause, 0

    def read(self, size=-1):
        import gevent

        gevent.sleep(self.pause)
        self.read_bytes += 1
        return b"x"


def _upload(app, url, body, headers=None, address="10.9.9.9"):
    return app.test_client().post(url, headers=headers or {}, environ_overrides={
        "wsgi.input": body, "CONTENT_TYPE": "application/json", "CONTENT_LENGTH": "5000000",
        "REMOTE_ADDR": address})


def test_a_strangers_import_is_refused_before_it_takes_the_slot_or_is_read(make_app):
    """No such group, no owner key, a wrong one, the page without the owner's cookie: refused
    at once, the body unread and the process's import slot never taken."""
    app = make_app(BODY_SECONDS=2)
    group = app.test_client().post("/api/groups", json={"name": "Fri", "players": []}).get_json()
    gate = app.extensions["import_gate"]
    taken = []
    acquire = gate.acquire

    class Watched:
        def acquire(self, *args, **kwargs):
            taken.append(True)
            return acquire(*args, **kwargs)

        def release(self):
            gate.release()

    app.extensions["import_gate"] = Watched()
    for url, headers, status in [
            ("/api/groups/ZZZZZZZZZZ/plays", {}, 404),
            (f"/api/groups/{group['code']}/plays", {}, 403),
            (f"/api/groups/{group['code']}/plays", bearer("not-the-key"), 403),
            (f"/g/{group['code']}/import", {}, 403),
            ("/g/ZZZZZZZZZZ/import", {}, 404)]:
        body = Trickle()
        answer = _upload(app, url, body, headers)
        assert answer.status_code == status, (url, answer.status_code)
        assert body.read_bytes == 0 and taken == [], url
    # The owner's import takes it, and gives it back.
    play = {"uid": "g1", "game": "scorepad", "started_at": "2026-11-27T20:00:00+01:00",
            "ended_at": "2026-11-27T21:00:00+01:00", "players": [{"name": "Ann", "score": 1}]}
    owned = app.test_client().post(f"/api/groups/{group['code']}/plays", json={"plays": [play]},
                                   headers=bearer(group["owner_key"]))
    assert owned.status_code == 200 and taken == [True]
    assert gate.acquire(blocking=False)
    gate.release()


def test_ten_strangers_slow_uploads_never_make_the_owner_wait(make_app):
    import gevent

    app = make_app(BODY_SECONDS=5)
    group = app.test_client().post("/api/groups", json={"name": "Fri", "players": []}).get_json()
    strangers = [gevent.spawn(_upload, app, url, Trickle(0.5), address=f"10.9.9.{n}")
                 for n in range(10) for url in ("/api/groups/ZZZZZZZZZZ/plays",
                                                f"/api/groups/{group['code']}/plays")]
    gevent.sleep(0.1)  # every stranger has sent its headers
    play = {"uid": "g1", "game": "scorepad", "started_at": "2026-11-27T20:00:00+01:00",
            "ended_at": "2026-11-27T21:00:00+01:00", "players": [{"name": "Ann", "score": 1}]}
    owned = app.test_client().post(f"/api/groups/{group['code']}/plays", json={"plays": [play]},
                                   headers=bearer(group["owner_key"]))
    assert owned.status_code == 200, owned.get_json()
    gevent.joinall(strangers, timeout=10)
    assert sorted(g.value.status_code for g in strangers) == [403] * 10 + [404] * 10


def test_a_client_past_its_limit_is_refused_before_an_import_takes_the_slot(make_app):
    app = make_app(RATE_LIMITS={"code": 0, "action": 5, "live": 0, "create": 0})
    group = app.test_client().post("/api/groups", json={"name": "Fri", "players": []}).get_json()
    url = f"/api/groups/{group['code']}/plays"
    client = app.test_client()
    room_in_this_minute(5)
    answers = [client.post(url, json={"plays": []}, headers=bearer(group["owner_key"])).status_code
               for _ in range(6)]  # an owner key is no phone: its address's minute, and one more
    assert answers == [200] * 5 + [429]
    gate = app.extensions["import_gate"]
    assert gate.acquire(blocking=False)  # another import being read just now
    try:
        assert client.post(url, json={"plays": []},
                           headers=bearer(group["owner_key"])).status_code == 429
    finally:
        gate.release()
