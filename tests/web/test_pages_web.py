"""The host's first minute and the pages around the table: "this is me" on the set-up form,
the invite that opens the host's page, the invite when phones cannot reach the server, the
terminal banner of `companion serve`, and the wording of counts."""

from __future__ import annotations

import os
import re
import socket

import pytest

from sqlmodel import Session, select

from companion import cli
from companion.web import network
from companion.service.models import GameTable
from companion.web.network import (LISTEN_HOST_VARIABLE, LISTEN_PORT_VARIABLE, base_url,
                                    unreachable_reason)
from tests.conftest import Phone


def text(response) -> str:
    return response.get_data(as_text=True)


def invite_of(html: str) -> str:
    found = re.search(r'<details class="card invite.*?</details>', html, re.S)
    assert found, "the table page has no invite"
    return " ".join(found.group(0).split())  # as read: line breaks of the template are spaces


@pytest.fixture
def lan(monkeypatch):
    """This machine's network addresses, as the test says (the default: one Wi-Fi address)."""
    addresses = ["192.168.1.20"]
    monkeypatch.setattr(network, "lan_addresses", lambda: list(addresses))
    monkeypatch.setattr(cli, "lan_addresses", lambda: list(addresses))
    return addresses


# -- "this is me" on the set-up form ---------------------------------------------------------


def test_the_set_up_form_offers_this_is_me_on_every_row_and_host_only(phone):
    html = text(phone().get("/new/kartenspiel"))
    radios = re.findall(r'<input type="radio" name="me" value="([^"]+)"[^>]*>', html)
    assert radios == ["0", "1", "2", "3", "4", "host"]  # five seats at most, then "host only"
    # Row 1 is chosen until the creator says otherwise: most hosts type their own name first.
    assert re.search(r'name="me" value="0"[^>]*checked', html)
    assert "I only host or watch" in html
    assert "Choose <strong>me</strong> next to your own name" in html


def test_the_creator_takes_the_seat_marked_me(phone):
    host = phone()
    response = host.post("/new/scorepad", {"player": ["Ann", " Ben ", "Cleo"], "me": "1"})
    assert response.status_code == 303
    code = response.headers["Location"].rsplit("/", 1)[-1]
    page = text(host.get(f"/t/{code}"))
    assert "You are <strong>Ben</strong> (host)" in page
    # The seat is really this phone's: another phone finds it taken.
    other = phone("10.0.0.3")
    join_page = text(other.get(f"/j/{code}"))
    assert re.search(r'value="Ben"[^>]*disabled', join_page)
    assert "Ben <small>(taken)</small>" in join_page
    assert other.join(code, "Ben").status_code == 403


def test_host_only_seats_nobody_and_so_does_a_form_without_the_choice(phone):
    host = phone()
    code = host.start(players=("Ann", "Ben"), me="host")
    assert "You are the host" in text(host.get(f"/t/{code}"))
    plain = phone("10.0.0.4")
    code = plain.start(players=("Ann", "Ben"))  # as older forms and scripts post it
    assert "You are the host" in text(plain.get(f"/t/{code}"))


@pytest.mark.parametrize("players, me, problem", [
    (["Ann", "Ben", ""], "2", 'You chose "me" on row 3, which has no name'),
    (["Ann", "Ben"], "4", 'You chose "me" on row 5, which has no name'),
    (["Ann", "Ben"], "Ann", "The form did not say which player you are"),
])
def test_a_me_naming_no_player_is_refused_and_keeps_what_was_typed(app, phone, players, me,
                                                                   problem):
    host = phone()
    response = host.post("/new/kartenspiel", {"player": players, "me": me, "rounds": "3",
                                              "pair_bonus": "25"})
    assert response.status_code == 422
    html = text(response)
    found = re.search(r'<p class="error" role="alert">(.*?)</p>', html)
    assert found and problem in found.group(1).replace("&#34;", '"'), found
    assert 'value="Ann"' in html and 'value="Ben"' in html
    # The options stay as typed.
    assert re.search(r'id="opt-rounds"[^>]*value="3"', html)
    assert re.search(r'id="opt-pair_bonus"[^>]*value="25"', html)
    if me.isdigit():  # the row that was marked stays marked and in view, to type a name in
        row = int(me)
        assert re.search(rf'name="me" value="{row}"[^>]*checked', html)
        rows = re.findall(r'<div class="player-row( extra)?">', html)
        assert rows[row] == ""
    # Nothing was started.
    with Session(app.extensions["engine"]) as db:
        assert db.exec(select(GameTable)).all() == []


def test_a_bad_player_list_keeps_the_me_choice(phone):
    response = phone().post("/new/scorepad", {"player": ["Ann", "ann"], "me": "1"})
    assert response.status_code == 422
    assert "Two players are called" in text(response)
    assert re.search(r'name="me" value="1"[^>]*checked', text(response))


# -- the invite opens the host's page until every seat has a phone ----------------------------


def test_the_hosts_page_opens_on_the_invite_until_every_seat_has_a_phone(phone, lan):
    host = phone()
    code = host.start(players=("Ann", "Ben", "Cleo"), me="0")
    html = text(host.get(f"/t/{code}"))
    invite = invite_of(html)
    assert "invite-first" in invite and re.match(r'<details[^>]*\bopen\b', invite)
    assert html.index('class="card invite') < html.index('id="status"')  # before the game, not below
    assert "Share the link" in invite and "<svg" in invite
    assert 'data-free-seats="2"' in html

    ben, cleo = phone("10.0.0.3"), phone("10.0.0.4")
    ben.join(code, "Ben")
    assert 'data-free-seats="1"' in text(host.get(f"/t/{code}"))
    cleo.join(code, "Cleo")
    html = text(host.get(f"/t/{code}"))
    invite = invite_of(html)
    # Everyone has a phone: the invite folds away at the foot of the page, still there.
    assert not re.match(r'<details[^>]*\bopen\b', invite) and "invite-first" not in invite
    assert html.index('class="card invite') > html.index('id="seats"')
    assert f'<span class="invite-code">{code}</span>' in invite and "<svg" in invite
    assert 'data-free-seats="0"' in html


def test_a_players_page_keeps_the_invite_folded(phone, lan):
    host = phone()
    code = host.start(players=("Ann", "Ben", "Cleo"), me="0")
    ben = phone("10.0.0.3")
    ben.join(code, "Ben")
    html = text(ben.get(f"/t/{code}"))  # Cleo has no phone yet, but Ben is not the host
    assert not re.match(r'<details[^>]*\bopen\b', invite_of(html))
    assert html.index('class="card invite') > html.index('id="status"')


# -- an invite phones can open, or the reason they cannot ---------------------------------


def test_listening_everywhere_the_invite_names_the_lan_address(phone, lan, monkeypatch):
    monkeypatch.setenv(LISTEN_HOST_VARIABLE, "0.0.0.0")
    host = phone()
    code = host.start(me="0")
    invite = invite_of(text(host.get(f"/t/{code}")))
    assert f'href="http://192.168.1.20/j/{code}"' in invite
    assert "<svg" in invite and "cannot join" not in invite


def test_listening_on_loopback_the_invite_says_phones_cannot_join_and_what_to_start(
        phone, lan, monkeypatch):
    monkeypatch.setenv(LISTEN_HOST_VARIABLE, "127.0.0.1")
    host = phone()
    code = host.start(me="0")
    invite = invite_of(text(host.get(f"/t/{code}")))  # the test client's host: localhost
    # No QR code of an address where nothing listens, and no LAN address at all.
    assert "<svg" not in invite and "192.168.1.20" not in invite
    assert "Other phones cannot join" in invite
    assert "listens on 127.0.0.1 only" in invite
    assert "<code>make run</code>" in invite and "HOST=0.0.0.0" in invite
    # The address shown is one this computer can open.
    assert f'href="http://localhost/j/{code}"' in invite
    assert "Share the link" not in invite


def test_behind_a_public_url_a_loopback_server_still_invites(make_app, lan, monkeypatch):
    monkeypatch.setenv(LISTEN_HOST_VARIABLE, "127.0.0.1")  # a proxy in front, as in README
    host = Phone(make_app(PUBLIC_URL="https://table.example.org"))
    code = host.start(me="0")
    invite = invite_of(text(host.get(f"/t/{code}")))
    assert f"https://table.example.org/j/{code}" in invite
    assert "<svg" in invite and "cannot join" not in invite


def test_without_a_network_the_invite_says_so(phone, lan, monkeypatch):
    monkeypatch.setenv(LISTEN_HOST_VARIABLE, "0.0.0.0")
    lan.clear()
    host = phone()
    code = host.start(me="0")
    invite = invite_of(text(host.get(f"/t/{code}")))
    assert "<svg" not in invite
    assert "no network address a phone could reach" in invite
    assert "Connect it to the table's Wi-Fi" in invite


def test_base_url_keeps_loopback_when_the_server_listens_only_there():
    assert base_url("http://127.0.0.1:5000/", lan=["192.168.1.20"],
                    listening="127.0.0.1") == "http://127.0.0.1:5000"
    assert base_url("http://localhost:5000/", lan=["192.168.1.20"],
                    listening="::1") == "http://localhost:5000"
    assert base_url("http://127.0.0.1:5000/", lan=["192.168.1.20"],
                    listening="0.0.0.0") == "http://192.168.1.20:5000"
    # Reached through a proxy by a name the server trusts (TRUSTED_HOSTS): phones use it too.
    assert base_url("http://games.example.org/", lan=["192.168.1.20"], listening="127.0.0.1",
                    trusted_host=True) == "http://games.example.org"


def test_an_invite_never_names_a_host_header_anyone_could_write():
    lan = ["192.168.1.20"]
    # A made-up name (or port) in the Host header: the invite names this machine instead.
    assert base_url("http://evil.example/", lan=lan, listening="0.0.0.0",
                    port=5000) == "http://192.168.1.20:5000"
    assert base_url("http://192.168.1.20:6666/", lan=lan, listening="0.0.0.0",
                    port=5000) == "http://192.168.1.20:5000"
    # Served on loopback only: a made-up name does not make it reachable.
    assert base_url("http://evil.example/", lan=lan, listening="127.0.0.1",
                    port=5000) == "http://127.0.0.1:5000"
    # The LAN address a phone typed is kept as it is.
    assert base_url("http://192.168.1.20:5000/", lan=["10.0.0.3", "192.168.1.20"],
                    listening="0.0.0.0") == "http://192.168.1.20:5000"


def test_a_made_up_host_header_never_reaches_an_invite_or_a_group_qr(make_app, monkeypatch):
    import companion.web.network

    monkeypatch.setattr(companion.web.network, "lan_addresses", lambda: ["192.168.1.20"])
    client = make_app().test_client()
    made = client.post("/api/tables", json={"game": "scorepad", "players": ["Ann", "Ben"]},
                       headers={"Host": "evil.example"}).get_json()
    assert "evil.example" not in made["url"]
    assert made["url"].startswith("http://192.168.1.20")
    page = client.get(f"/t/{made['code']}", headers={"Host": "evil.example"})
    assert "evil.example" not in page.get_data(as_text=True)
    # Told which names to trust, the server refuses the others outright.
    trusting = make_app(TRUSTED_HOSTS=["games.example.org"]).test_client()
    assert trusting.get("/", headers={"Host": "evil.example"}).status_code == 400
    made = trusting.post("/api/tables", json={"game": "scorepad", "players": ["Ann", "Ben"]},
                         headers={"Host": "games.example.org"}).get_json()
    assert made["url"].startswith("http://games.example.org/j/")


def test_a_name_outside_trusted_hosts_is_refused_with_a_sentence_in_the_phone_language(make_app):
    app = make_app(TRUSTED_HOSTS=["games.example.org"])
    trusting = app.test_client()
    german = {"Host": "10.0.0.5:5000", "Accept-Language": "de"}
    page = trusting.get("/", headers=german)
    assert page.status_code == 400
    text = page.get_data(as_text=True)
    assert '<html lang="de">' in text and "<title>Falsche Adresse</title>" in text
    assert ("Dieser Tischbegleiter antwortet nicht unter dem Namen 10.0.0.5:5000. Öffne ihn über "
            "die Adresse auf seiner Einladung oder über seinen QR-Code.") in text
    # A form sent by that name (its CSRF check comes after), a tap and the API: the same
    # sentence, as each expects it; nothing is made.
    made = trusting.post("/new/scorepad", data={"player": ["Ann", "Ben"]},
                         headers={"Host": "evil.example"})
    assert made.status_code == 400
    assert "does not answer to the name evil.example" in made.get_data(as_text=True)
    tap = trusting.post("/t/ABCDEF/act", data={"type": "x"},
                        headers={"Host": "evil.example", "HX-Request": "true"})
    assert tap.status_code == 400 and tap.get_data(as_text=True).startswith("This companion does not")
    api = trusting.post("/api/tables", json={"game": "scorepad", "players": ["Ann", "Ben"]},
                        headers={"Host": "evil.example"})
    assert api.status_code == 400
    assert api.get_json() == {"error": "This companion does not answer to the name evil.example. "
                                       "Open it by the address on its invite or its QR code.",
                              "kind": "forbidden"}
    with app.extensions["engine"].connect() as connection:
        assert connection.exec_driver_sql("SELECT count(*) FROM game_table").scalar() == 0


def test_unreachable_reason_tells_loopback_from_no_network():
    assert unreachable_reason("http://127.0.0.1:5000", "127.0.0.1") == "loopback"
    assert unreachable_reason("http://localhost:5000", "0.0.0.0") == "no-network"
    assert unreachable_reason("http://localhost:5000", None) == "no-network"
    assert unreachable_reason("http://192.168.1.20:5000", "0.0.0.0") is None
    assert unreachable_reason("https://table.example.org", "127.0.0.1") is None


# -- the terminal banner of `make run` / `companion serve` ------------------------------------


def test_the_banner_on_loopback_says_phones_cannot_join_and_shows_no_qr(monkeypatch, lan):
    monkeypatch.delenv("PUBLIC_URL", raising=False)
    shown = cli.banner("127.0.0.1", 5000)
    assert "http://127.0.0.1:5000/ (this computer only)" in shown
    assert "other phones cannot join" in shown
    assert "`make run`" in shown and "HOST=0.0.0.0" in shown
    assert "█" not in shown and "scan" not in shown


def test_the_lan_address_is_the_wi_fi_not_a_virtual_machines_switch(monkeypatch):
    """A Windows laptop with WSL or Hyper-V has a "vEthernet" switch on a private address too:
    the QR code must name the Wi-Fi's, which phones reach (VirtualBox and VMware alike)."""
    from types import SimpleNamespace

    interfaces = {"vEthernet (WSL)": "172.20.112.1", "VirtualBox Host-Only Network": "192.168.56.1",
                  "VMware Network Adapter VMnet8": "192.168.0.1", "Wi-Fi": "192.168.178.23"}
    monkeypatch.setattr(network.psutil, "net_if_stats", lambda: {
        name: SimpleNamespace(isup=True) for name in interfaces})
    monkeypatch.setattr(network.psutil, "net_if_addrs", lambda: {
        name: [SimpleNamespace(family=socket.AF_INET, address=address)]
        for name, address in interfaces.items()})
    assert network.lan_addresses()[0] == "192.168.178.23"


def test_the_banner_listening_everywhere_shows_the_lan_address_and_its_qr(monkeypatch, lan):
    monkeypatch.delenv("PUBLIC_URL", raising=False)
    shown = cli.banner("0.0.0.0", 5000)
    assert "Table companion on http://192.168.1.20:5000/" in shown
    assert "Phones: scan this" in shown and "█" in shown
    lan.clear()
    shown = cli.banner("0.0.0.0", 5000)
    assert "no network address a phone could reach" in shown and "█" not in shown


def test_serve_tells_its_workers_where_it_listens(monkeypatch, lan, tmp_path):
    """The workers gunicorn starts inherit the address: their invites depend on it."""
    monkeypatch.setenv(LISTEN_HOST_VARIABLE, "")  # so that the value serve sets is undone
    monkeypatch.setattr(cli, "init_db", lambda: (f"sqlite:///{tmp_path}/x.sqlite3", "up to date"))
    started = {}

    def execv(path, args):
        started["args"] = args
        started["listening"] = network.listen_host()

    monkeypatch.setattr(cli.os, "execv", execv)
    cli.serve("127.0.0.1", 5123, 1, 10)
    assert started["listening"] == "127.0.0.1"
    assert "127.0.0.1:5123" in started["args"]


def test_serve_with_several_workers_gives_them_a_folder_to_add_up_metrics(monkeypatch, tmp_path):
    """prometheus_client's multiprocess mode: each worker writes its figures to the folder,
    /metrics adds them up; without it, each worker would answer with its own share."""
    monkeypatch.delenv("PROMETHEUS_MULTIPROC_DIR", raising=False)
    for name in (LISTEN_HOST_VARIABLE, LISTEN_PORT_VARIABLE):  # serve sets them: undone after
        monkeypatch.setenv(name, "")
    monkeypatch.setattr(cli, "init_db", lambda: ("postgresql://x@db/companion", "up to date"))
    monkeypatch.setattr(cli.os, "execv", lambda path, args: None)
    cli.serve("127.0.0.1", 5123, 2, 10)
    folder = os.environ.pop("PROMETHEUS_MULTIPROC_DIR")
    assert os.path.isdir(folder) and os.listdir(folder) == []
    os.rmdir(folder)
    cli.serve("127.0.0.1", 5123, 1, 10)  # one worker: its own figures are the sum
    assert "PROMETHEUS_MULTIPROC_DIR" not in os.environ


# -- wording and numbering ----------------------------------------------------------------


def test_counts_are_worded_in_the_singular_for_one(phone):
    host = phone()
    code = host.start(me="host")  # one log entry so far: "The table was set up …"
    html = text(host.get(f"/t/{code}"))
    assert "The whole history (1 entry)" in html
    host.start(me="0")
    assert "(2 entries)" in text(host.get(f"/t/{host.code}"))


def test_the_table_page_numbers_history_entries_as_the_history_page_does(phone):
    host = phone()
    code = host.start(me="0")
    for n in range(12):
        host.act(type="enter_score", player="Ann", round=n + 1, points=5)
    version = host.snapshot()["version"]
    html = text(host.get(f"/t/{code}"))
    found = re.search(r'<ol class="log" reversed start="(\d+)" data-digits="(\d+)"', html)
    assert found and int(found.group(1)) == version and found.group(2) == str(len(str(version)))
    history = text(host.get(f"/t/{code}/history"))
    items = re.findall(r"<li class=\"log-", history)
    assert len(items) == version  # the history page counts 1 … version, oldest first
    assert f'data-digits="{len(str(version))}"' in history
