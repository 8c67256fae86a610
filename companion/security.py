"""Headers every answer carries, and cookies that stay on HTTPS when the companion is on it.

- **Content-Security-Policy**: the browser runs only the companion's own script files and
  style sheets: no inline script, no ``eval`` (htmx evaluates only ``hx-on``, ``js:`` values,
  ``hx-vars`` and ``[…]`` trigger filters, none of which the templates use; ``allowEval`` is off
  in ``base.html``'s ``htmx-config``), no ``style="…"`` attribute (styles set by script
  through ``element.style`` are not affected). The one inline ``<style>`` is the statistics
  charts' (``stats/charts.html``: ``chart_styles()``), allowed by the hash of its text, which
  is computed here at start-up from the template itself, so it cannot go stale.
- ``X-Content-Type-Options: nosniff``, ``X-Frame-Options: DENY`` (and ``frame-ancestors
  'none'``): no page in another site's frame.
- ``Referrer-Policy: same-origin``: the addresses of tables, joins and groups carry their
  codes, which are the key to them; no other site is ever told an address of the companion,
  not even its host name (the companion links to no site that needs to know where a visitor
  came from).

Cookies are ``Secure`` when the companion is served over HTTPS: when ``PUBLIC_URL`` starts with
``https://`` (always), or for a request that came over HTTPS. Behind a reverse proxy the
request the app sees is the proxy's plain HTTP one: ``TRUSTED_PROXIES`` (the number of proxies in
front, default 0) makes the app believe the last that many ``X-Forwarded-For``,
``X-Forwarded-Proto`` and ``X-Forwarded-Host`` values (werkzeug's ``ProxyFix``), so the scheme,
the host and the client's address (``web.client_address``, the rate limits) are the real ones.
Never set it above the number of proxies really in front: a client could then name its own
address and scheme.
"""

from __future__ import annotations

import base64
import hashlib
import re

from flask import Flask, current_app, has_request_context, request
from flask.sessions import SecureCookieSessionInterface
from werkzeug.middleware.proxy_fix import ProxyFix

STYLE_BLOCK = re.compile(r"<style>(.*?)</style>", re.S)


def style_hashes(app: Flask) -> list[str]:
    """CSP hashes of the inline ``<style>`` blocks the templates write (the charts')."""
    with app.app_context():
        css = str(app.jinja_env.get_template("stats/charts.html").module.chart_styles())
    return ["'sha256-%s'" % base64.b64encode(hashlib.sha256(block.encode()).digest()).decode()
            for block in STYLE_BLOCK.findall(css)]


def content_security_policy(app: Flask) -> str:
    return "; ".join([
        "default-src 'self'",
        "script-src 'self'",
        " ".join(["style-src 'self'", *style_hashes(app)]),
        "img-src 'self' data:",
        "connect-src 'self'",
        "manifest-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ])


class SecurityHeaders:
    """WSGI middleware: every answer gets the headers, those made before Flask too (the
    "nothing changed" 204, a 408 of a body too slow); a header already set is kept."""

    def __init__(self, app, headers: dict[str, str]):
        self.app = app
        self.headers = list(headers.items())

    def __call__(self, environ, start_response):
        def start(status, headers, exc_info=None):
            have = {name.lower() for name, _value in headers}
            headers = list(headers) + [(name, value) for name, value in self.headers
                                       if name.lower() not in have]
            return start_response(status, headers, exc_info)

        return self.app(environ, start)


def cookie_secure() -> bool:
    """Whether a cookie set now gets ``Secure``: on an HTTPS site, or on a request over HTTPS
    (seen through ``TRUSTED_PROXIES`` behind a proxy)."""
    if current_app.config.get("SESSION_COOKIE_SECURE"):
        return True
    return has_request_context() and request.is_secure


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed cookie session, ``Secure`` by :func:`cookie_secure`."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return cookie_secure()


def init_security(app: Flask) -> None:
    """Call last in ``create_app``: the middlewares wrap everything else."""
    if str(app.config.get("PUBLIC_URL") or "").lower().startswith("https://"):
        app.config["SESSION_COOKIE_SECURE"] = True
    app.session_interface = SessionInterface()
    headers = {
        "Content-Security-Policy": content_security_policy(app),
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "same-origin",
    }
    app.extensions["security_headers"] = headers
    app.wsgi_app = SecurityHeaders(app.wsgi_app, headers)
    proxies = int(app.config.get("TRUSTED_PROXIES") or 0)
    if proxies < 0:
        raise ValueError(f"TRUSTED_PROXIES must be 0 or more proxies, not {proxies}.")
    if proxies:
        # Outermost: every other layer (the shortcut, the limits) sees the real client.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies)
