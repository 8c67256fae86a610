"""What only the real server (gunicorn, as `companion serve` starts it) shows: a body sent in
chunks, as a socket sends it, meets the same limits as one with a length, and what gunicorn
refuses before the app (a long request line, large headers, a bad length) is answered in the
app's shape, JSON with its kind under /api/."""

from __future__ import annotations

import json
import socket
import threading

import pytest

# The real-browser tests' server (`companion serve` on a fresh instance), one per session.
from tests.browser.conftest import api, server  # noqa: F401


def exchange(server, request: bytes) -> tuple[int, dict, bytes]:
    """Send ``request`` on a socket of its own (the server may answer before it has read it
    all) and read the first answer: its status, headers and body."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=20) as sock:
        def send():
            try:
                sock.sendall(request)
            except OSError:  # the server answered and closed before taking it all
                pass
        sender = threading.Thread(target=send)
        sender.start()
        received = b""
        try:
            while b"\r\n\r\n" not in received or not _whole(received):
                part = sock.recv(65536)
                if not part:
                    break
                received += part
        except ConnectionResetError:
            pass
        sender.join()
    head, _, body = received.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    length = int(headers.get("Content-Length", len(body)))
    return int(lines[0].split()[1]), headers, body[:length]


def _whole(received: bytes) -> bool:
    head, _, body = received.partition(b"\r\n\r\n")
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return len(body) >= int(line.split(b":")[1])
    return False


def chunked(path: str, body: bytes, headers: dict | None = None, size: bytes | None = None,
            pieces: int = 8) -> bytes:
    """A POST whose body goes in ``pieces`` chunks (``size``: the first chunk's size line as
    sent, to make it malformed)."""
    step = max(1, -(-len(body) // pieces))
    chunks = [body[at:at + step] for at in range(0, len(body), step)]
    encoded = b"".join((size if size and n == 0 else b"%x" % len(chunk)) + b"\r\n" + chunk + b"\r\n"
                       for n, chunk in enumerate(chunks))
    head = "".join(f"{name}: {value}\r\n" for name, value in {
        "Host": "127.0.0.1", "Content-Type": "application/json", **(headers or {}),
        "Transfer-Encoding": "chunked"}.items())
    return f"POST {path} HTTP/1.1\r\n{head}\r\n".encode() + encoded + b"0\r\n\r\n"


def refusal(status: int, body: bytes, kind: str) -> str:
    answer = json.loads(body)
    assert set(answer) == {"error", "kind"} and answer["kind"] == kind, answer
    return answer["error"]


@pytest.fixture
def table(server):
    made = api(server.url, "POST", "/api/tables", {"game": "scorepad", "players": ["Ann", "Ben"]})
    return {**made, "auth": {"Authorization": f"Bearer {made['token']}"},
            "actions": f"/api/tables/{made['code']}/actions"}


def score(points: int) -> bytes:
    return json.dumps({"type": "enter_score", "player": "Ann", "round": 1,
                       "points": points}).encode()


def version(server, table) -> int:
    return api(server.url, "GET", f"/api/tables/{table['code']}")["version"]


def test_a_chunked_action_within_the_limit_is_played(server, table):
    status, _, body = exchange(server, chunked(table["actions"], score(7), table["auth"]))
    assert status == 200, body
    assert json.loads(body)["scores"] == {"Ann": 7, "Ben": 0}


def test_a_chunked_body_past_the_limit_is_refused_whole_never_cut(server, table):
    """The JSON first, then 100 KB of spaces: cut at 64 KB it would still be a valid action."""
    before = version(server, table)
    padded = score(7) + b" " * 100_000
    status, _, body = exchange(server, chunked(table["actions"], padded, table["auth"]))
    assert status == 413
    assert refusal(status, body, "too_large").startswith("The request is larger than 64 KB")
    assert version(server, table) == before


def test_a_chunked_import_past_its_limit_adds_no_play(server):
    group = api(server.url, "POST", "/api/groups", {"name": "Friday", "players": []})
    play = {"uid": "u1", "game": "scorepad", "started_at": "2026-11-27T20:00:00+01:00",
            "ended_at": "2026-11-27T21:00:00+01:00", "players": [{"name": "Ann", "score": 1}]}
    padded = json.dumps({"format": "table-companion-plays/1", "plays": [play]}).encode()
    status, _, body = exchange(server, chunked(
        f"/api/groups/{group['code']}/plays", padded + b" " * 7_000_000,
        {"Authorization": f"Bearer {group['owner_key']}"}, pieces=100))
    assert status == 413, body[:300]
    refusal(status, body, "too_large")
    assert api(server.url, "GET", f"/api/groups/{group['code']}")["plays"] == []


def test_a_malformed_chunk_is_a_400_with_a_sentence(server, table):
    before = version(server, table)
    status, _, body = exchange(server, chunked(table["actions"], score(7), table["auth"],
                                               size=b"zz"))
    assert status == 400
    assert "chunk" in refusal(status, body, "invalid")
    assert version(server, table) == before
    assert "Traceback" not in server.log.read_text()


LONG_LINE = b"GET /api/tables/" + b"A" * 5000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
LARGE_HEADER = (b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Notes: " + b"n" * 9000
                + b"\r\n\r\n")


@pytest.mark.parametrize("request_bytes, status, kind", [
    (LONG_LINE, 414, "too_large"),
    (LARGE_HEADER, 431, "too_large"),
    (b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n", 400,
     "invalid"),
    (b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n"
     b"Content-Length: 3\r\n\r\n{}", 400, "invalid"),
    (b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -5\r\n\r\n", 400,
     "invalid"),
    (b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: br\r\n\r\n", 501,
     "invalid"),
    (b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 200-ok\r\n\r\n", 400,
     "invalid"),
])
def test_what_gunicorn_refuses_under_api_is_json_with_its_kind(server, request_bytes, status,
                                                                kind):
    got, headers, body = exchange(server, request_bytes)
    assert got == status, body[:300]
    assert headers["Content-Type"].startswith("application/json")
    sentence = refusal(got, body, kind)
    assert sentence.endswith("nothing was read or changed.")


def test_what_gunicorn_refuses_for_a_page_is_a_sentence_in_the_phones_language(server):
    got, headers, body = exchange(server, b"POST /t/ABCDEF/act HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                          b"Accept-Language: de-DE,de;q=0.9\r\n"
                                          b"Content-Length: 1x\r\n\r\n")
    assert got == 400 and headers["Content-Type"].startswith("text/plain")
    assert body.decode().startswith("Die Kopfzeilen der Anfrage ließen sich nicht lesen")
    got, _, body = exchange(server, b"GET /t/" + b"A" * 5000 + b" HTTP/1.1\r\nHost: x\r\n"
                                    b"Cookie: lang=de\r\n\r\n")
    assert got == 414 and "<html>" not in body.decode()
