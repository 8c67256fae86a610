"""The headers every answer carries (security.py): a Content-Security-Policy that runs only the
companion's own scripts and styles, nosniff, no framing, no referrer to other sites; pages that
need nothing the policy forbids; cookies that are Secure on HTTPS, behind a trusted proxy too."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path

import pytest

from companion.games import GAMES

ROOT = Path(__file__).resolve().parents[2]

POLICY = {
    "default-src": {"'self'"},
    "script-src": {"'self'"},
    "img-src": {"'self'", "data:"},
    "connect-src": {"'self'"},
    "manifest-src": {"'self'"},
    "object-src": {"'none'"},
    "base-uri": {"'self'"},
    "form-action": {"'self'"},
    "frame-ancestors": {"'none'"},
}


def policy_of(response) -> dict[str, set[str]]:
    header = response.headers.get("Content-Security-Policy")
    assert header, f"{response.request.path} answered without a Content-Security-Policy"
    directives = {}
    for part in header.split(";"):
        name, *values = part.split()
        assert name not in directives, f"{name} twice"
        directives[name] = set(values)
    return directives


def assert_protected(response) -> None:
    directives = policy_of(response)
    for name, values in POLICY.items():
        assert directives.get(name) == values, (name, directives.get(name))
    # Styles: the site's own files, and inline <style> blocks only by the hash of their text.
    styles = directives["style-src"]
    assert "'self'" in styles and all(v == "'self'" or v.startswith("'sha256-") for v in styles), styles
    assert "style-src-attr" not in directives and "style-src-elem" not in directives
    assert "unsafe" not in response.headers["Content-Security-Policy"]
    assert response.headers.get("X-Content-Type-Options") == "nosniff"
    assert response.headers.get("X-Frame-Options") == "DENY"
    assert response.headers.get("Referrer-Policy") == "same-origin"


def test_a_page_a_fragment_json_an_error_and_a_static_file_all_carry_the_headers(phone, client):
    host = phone()
    page = host.get("/")
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert_protected(page)
    code = host.start(me="0")
    table = host.get(f"/t/{code}")
    assert table.status_code == 200
    assert_protected(table)
    # An htmx answer: the regions an action changed; and the rules search's fragment.
    tapped = host.act(type="enter_score", player="Ann", round=1, points=5)
    assert tapped.status_code == 200 and "<html" not in tapped.get_data(as_text=True)
    assert_protected(tapped)
    found = host.get("/rules/search?q=dogmatix", headers={"HX-Request": "true"})
    assert found.status_code == 200 and "<html" not in found.get_data(as_text=True)
    assert_protected(found)
    # The JSON API, an answer of it and one of its refusals.
    api = client.get(f"/api/tables/{code}")
    assert api.status_code == 200 and api.is_json
    assert_protected(api)
    refused = client.post("/api/tables", json={"game": "no-such-game"})
    assert refused.status_code >= 400 and refused.is_json
    assert_protected(refused)
    # Error pages, and a static file.
    missing = client.get("/no/such/page")
    assert missing.status_code == 404 and missing.mimetype == "text/html"
    assert_protected(missing)
    missing_table = client.get("/t/ZZZZZZ")
    assert missing_table.status_code == 404
    assert_protected(missing_table)
    with client.get("/static/app.css") as css:
        assert css.status_code == 200 and css.mimetype == "text/css"
        assert_protected(css)
    with client.get("/static/vendor/htmx.min.js") as script:
        assert script.status_code == 200
        assert_protected(script)


def test_the_nothing_changed_poll_carries_them_too(phone):
    host = phone()
    code = host.start()
    version = host.client.get(f"/api/tables/{code}").get_json()["version"]
    unchanged = host.get(f"/t/{code}/live?v={version}", headers={"HX-Request": "true"})
    assert unchanged.status_code == 204
    assert_protected(unchanged)


# -- pages that need nothing the policy forbids ------------------------------------------

STYLE_ATTRIBUTE = re.compile(r"<[a-zA-Z][^>]*\sstyle\s*=", re.S)
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\ssrc=)[^>]*>", re.S)
EVAL_ATTRIBUTES = re.compile(r"\s(?:data-)?hx-on[:\-]|\shx-vars=|['\"](?:js|javascript):|\son[a-z]+\s*=")
STYLE_BLOCK = re.compile(r"<style[^>]*>(.*?)</style>", re.S)


def sha256(text: str) -> str:
    return "'sha256-%s'" % base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()


def assert_needs_nothing_forbidden(response) -> None:
    html = response.get_data(as_text=True)
    where = response.request.path
    assert not STYLE_ATTRIBUTE.search(html), (where, STYLE_ATTRIBUTE.search(html).group(0)[:200])
    assert not INLINE_SCRIPT.search(html), (where, INLINE_SCRIPT.search(html).group(0))
    assert not EVAL_ATTRIBUTES.search(html), (where, EVAL_ATTRIBUTES.search(html).group(0))
    allowed = policy_of(response)["style-src"]
    for block in STYLE_BLOCK.findall(html):
        assert sha256(block) in allowed, f"an inline <style> on {where} that the policy does not allow"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_s_pages_use_no_inline_style_or_script(phone, game):
    host = phone()
    for path in ("/", f"/new/{game}", "/rules", f"/rules/{game}"):
        page = host.get(path)
        assert page.status_code == 200, path
        assert_needs_nothing_forbidden(page)
    players = ("Ann", "Ben", "Cy") if game in ("kartenspiel", "zaubertrank") else ("Ann", "Ben")
    code = host.start(game=game, players=players, me="0")
    guest = phone("10.0.0.3")
    for who, path in ((host, f"/t/{code}"), (host, f"/t/{code}/history"), (guest, f"/j/{code}")):
        page = who.get(path)
        assert page.status_code == 200, (path, page.status_code)
        assert_needs_nothing_forbidden(page)


def test_the_statistics_page_s_chart_styles_are_allowed_by_their_hash(client):
    group = client.post("/api/groups", json={"name": "Friday", "players": ["Ann", "Ben"]})
    assert group.status_code == 201
    stats = client.get(f"/g/{group.get_json()['code']}/stats")
    assert stats.status_code == 200
    assert STYLE_BLOCK.search(stats.get_data(as_text=True)), "the charts' styles are missing"
    assert_needs_nothing_forbidden(stats)
    assert_protected(stats)


def test_no_template_writes_a_style_attribute_or_an_inline_script():
    # Every state of every game, not only those the tests above reach.
    for path in sorted((ROOT / "templates").rglob("*.html")):
        source = path.read_text()
        assert not re.search(r"\sstyle\s*=", source), f"{path.relative_to(ROOT)} has a style attribute"
        assert not INLINE_SCRIPT.search(source), f"{path.relative_to(ROOT)} has an inline script"
        assert not EVAL_ATTRIBUTES.search(source), f"{path.relative_to(ROOT)} has script in an attribute"
    for path in sorted((ROOT / "static").rglob("*.js")):
        if "vendor" in path.parts:
            continue
        source = path.read_text()
        # element.style.x = … (CSSOM) is allowed; a style attribute or a <style> is not.
        assert not re.search(r"setAttribute\(\s*['\"]style|<style|\sstyle=|\beval\(|new Function",
                             source), f"{path.relative_to(ROOT)} sets inline style or evaluates text"


def test_htmx_adds_no_inline_style_and_evaluates_nothing(client):
    html = client.get("/").get_data(as_text=True)
    config = json.loads(re.search(r"""<meta name="htmx-config" content='([^']+)'>""", html).group(1))
    # No indicator <style>, no eval, and settling copies no style attribute onto a new element.
    assert config == {"includeIndicatorStyles": False, "allowEval": False,
                      "attributesToSettle": ["class", "width", "height"]}
    with client.get("/static/app.css") as answer:
        css = answer.get_data(as_text=True)
    assert ".htmx-indicator" in css and ".htmx-request" in css


# -- Secure cookies ---------------------------------------------------------------------


def cookies(response) -> dict[str, str]:
    return {header.split("=", 1)[0]: header for header in response.headers.getlist("Set-Cookie")}


def secure(header: str) -> bool:
    return "; secure" in header.lower()


def cookies_of_a_visit(app, headers=None, address="10.0.0.2") -> dict[str, str]:
    """The session cookie of a first page and the language cookie of the switch."""
    client = app.test_client()
    environ = {"REMOTE_ADDR": address}
    page = client.get("/", headers=headers or {}, environ_base=environ)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)
    switched = client.post("/language", data={"lang": "de", "next": "/", "csrf_token": token},
                           headers=headers or {}, environ_base=environ)
    assert switched.status_code == 303, switched.get_data(as_text=True)
    found = {**cookies(page), **cookies(switched)}
    assert {"session", "lang"} <= set(found), found
    return found


def test_cookies_are_not_secure_on_plain_http(make_app):
    for name, header in cookies_of_a_visit(make_app()).items():
        assert not secure(header), header
        assert "httponly" in header.lower() and "samesite=lax" in header.lower()


def test_cookies_are_secure_when_the_public_address_is_https(make_app):
    app = make_app(PUBLIC_URL="https://games.example.org")
    assert app.config["SESSION_COOKIE_SECURE"] is True
    for header in cookies_of_a_visit(app).values():
        assert secure(header), header


def test_cookies_are_secure_behind_a_trusted_proxy_that_says_https(make_app, monkeypatch):
    monkeypatch.setenv("TRUSTED_PROXIES", "1")
    app = make_app()
    assert app.config["TRUSTED_PROXIES"] == 1
    over_https = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.7",
                  "X-Forwarded-Host": "games.example.org"}
    for header in cookies_of_a_visit(app, over_https).values():
        assert secure(header), header
    for header in cookies_of_a_visit(app, {"X-Forwarded-Proto": "http"}).values():
        assert not secure(header), header


def test_a_forwarded_scheme_is_not_believed_without_a_trusted_proxy(make_app):
    app = make_app()
    assert app.config["TRUSTED_PROXIES"] == 0
    for header in cookies_of_a_visit(app, {"X-Forwarded-Proto": "https"}).values():
        assert not secure(header), header


@pytest.mark.parametrize("proxies, seen", [
    (0, ("10.0.0.2", "http", "localhost")),
    (1, ("203.0.113.7", "https", "games.example.org")),
    # Two proxies: the client's own claim (the first value) is not believed.
    (2, ("198.51.100.9", "https", "games.example.org")),
])
def test_trusted_proxies_decide_the_client_address_scheme_and_host(make_app, proxies, seen):
    from flask import request

    from companion.web.phone import client_address

    app = make_app(TRUSTED_PROXIES=proxies)

    @app.get("/who")
    def who():
        return {"address": client_address(), "scheme": request.scheme, "host": request.host}

    answer = app.test_client().get("/who", environ_base={"REMOTE_ADDR": "10.0.0.2"}, headers={
        "X-Forwarded-For": "1.2.3.4, 198.51.100.9, 203.0.113.7",
        "X-Forwarded-Proto": "https, https",
        "X-Forwarded-Host": "evil.example, games.example.org, games.example.org"})
    assert answer.status_code == 200
    got = answer.get_json()
    assert (got["address"], got["scheme"], got["host"]) == seen
    assert_protected(answer)
