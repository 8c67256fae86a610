"""An operator's metrics at /metrics (Prometheus' text format): requests by route kind and
status, changes, open streams and imports, read from this machine or with the token; and the
one log line a 429 or a 5xx leaves, with no code or name in it."""

from __future__ import annotations

import logging

from prometheus_client.parser import text_string_to_metric_families

from tests.conftest import api_table, bearer, room_in_this_minute
from tests.web.test_groups_web import Night
from tests.web.test_live_push import Stream

HERE = {"REMOTE_ADDR": "127.0.0.1"}


def scrape(client, **kw) -> dict[tuple, float]:
    """Every sample of /metrics as {(name, (label, value), ...): value}."""
    answer = client.get("/metrics", environ_base=kw.pop("environ_base", HERE), **kw)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert answer.mimetype == "text/plain"
    return {(s.name, *sorted(s.labels.items())): s.value
            for family in text_string_to_metric_families(answer.get_data(as_text=True))
            for s in family.samples}


def requests(samples: dict, kind: str, status: int) -> float:
    return samples.get(("companion_requests_total", ("kind", kind), ("status", str(status))), 0)


def test_requests_and_changes_are_counted_by_route_kind_and_status(client):
    table = api_table(client)
    before = scrape(client)
    for points in (3, 4):
        made = client.post(f"/api/tables/{table['code']}/actions", headers=table["headers"],
                           json={"type": "enter_score", "player": "Ann", "round": 1, "points": points})
        assert made.status_code == 200
    assert client.get("/t/NOSUCH").status_code == 404
    after = scrape(client)
    assert requests(after, "api", 200) - requests(before, "api", 200) == 2
    assert after[("companion_changes_total",)] - before[("companion_changes_total",)] == 2
    assert requests(after, "table", 404) - requests(before, "table", 404) == 1


def test_a_429_is_counted_and_logged_in_one_line_without_the_code(make_app, caplog):
    app = make_app(RATE_LIMITS={"code": 2, "action": 0, "live": 0, "create": 0})
    client = app.test_client()
    guesser = {"REMOTE_ADDR": "10.0.0.66"}
    room_in_this_minute(5)
    before = scrape(client)
    with caplog.at_level(logging.WARNING):
        answers = [client.get(f"/api/tables/{code}", environ_base=guesser).status_code
                   for code in ("AAAAAA", "BBBBBB", "CCCCCC")]
    assert answers == [404, 404, 429]
    assert requests(scrape(client), "api", 429) - requests(before, "api", 429) == 1
    lines = [r.getMessage() for r in caplog.records if "answered" in r.getMessage()]
    assert lines == ["GET /api/tables/<code> answered 429"]


def test_open_streams_and_import_durations_are_shown(make_app, phone):
    app = make_app(LIVE_HEARTBEAT_SECONDS=0.2)
    client = app.test_client()
    host = phone()
    host.client = client
    code = host.start()
    before = scrape(client)[("companion_open_streams",)]
    stream = Stream(host, code, "?v=0")
    stream.next_event("ready")
    assert scrape(client)[("companion_open_streams",)] == before + 1
    stream.close()
    assert scrape(client)[("companion_open_streams",)] == before

    night = Night(client)
    night.play({"Katrin": 30, "Ben": 12})
    exported = client.get(f"/g/{night.code}/plays.json").get_json()
    imports = scrape(client).get(("companion_import_seconds_count",), 0)
    elsewhere = Night(client, name="Restored", players=())
    assert client.post(f"/api/groups/{elsewhere.code}/plays", headers=elsewhere.owner, json=exported).status_code == 200
    assert scrape(client)[("companion_import_seconds_count",)] == imports + 1


def test_only_this_machine_or_the_token_reads_them(make_app):
    app = make_app(METRICS_TOKEN="s3cret-token")
    client = app.test_client()
    elsewhere = {"REMOTE_ADDR": "192.0.2.9"}
    refused = client.get("/metrics", environ_base=elsewhere)
    assert refused.status_code == 403 and "METRICS_TOKEN" in refused.get_data(as_text=True)
    assert client.get("/metrics", environ_base=elsewhere, headers=bearer("wrong")).status_code == 403
    assert scrape(client, environ_base=elsewhere, headers=bearer("s3cret-token"))
    # Through a proxy on this machine, a phone's request arrives from loopback: not trusted,
    # whichever header the proxy names the client in.
    for header in ({"X-Forwarded-For": "192.0.2.9"}, {"Forwarded": "for=192.0.2.9"},
                   {"X-Real-IP": "192.0.2.9"}, {"X-Forwarded-Host": "companion.example"},
                   {"Via": "1.1 nginx"}, {"True-Client-IP": "192.0.2.9"}):
        forwarded = client.get("/metrics", environ_base=HERE, headers=header)
        assert forwarded.status_code == 403, header
    # The token still reads them through the proxy.
    assert scrape(client, environ_base=HERE, headers={"Forwarded": "for=192.0.2.9",
                                                      **bearer("s3cret-token")})
