"""Headers every answer carries (Flask-Talisman), and cookies that stay on HTTPS when the
companion is on it.

- **Content-Security-Policy**: the browser runs only the companion's own script files and
  style sheets: no inline script, no ``eval`` (``allowEval`` is off in ``base.html``'s
  ``htmx-config``), no ``style="…"`` attribute. The one inline ``<style>`` is the statistics
  charts' (``stats/charts.html``: ``chart_styles()``), allowed by the hash of its text, computed
  here at start-up from the template itself, so it cannot go stale.
- ``X-Content-Type-Options: nosniff``, ``X-Frame-Options: DENY`` (and ``frame-ancestors
  'none'``): no page in another site's frame.
- ``Referrer-Policy: same-origin``: the addresses of tables, joins and groups carry their
  codes, which are the key to them; no other site is told an address of the companion.

Cookies are ``Secure`` when the companion is served over HTTPS: when ``PUBLIC_URL`` starts with
``https://`` (always), or for a request that came over HTTPS. Behind a reverse proxy,
``TRUSTED_PROXIES`` (the number of proxies in front, default 0) makes the app believe the last
that many ``X-Forwarded-For``, ``X-Forwarded-Proto`` and ``X-Forwarded-Host`` values (werkzeug's
``ProxyFix``), so the scheme, the host and the client's address are the real ones. Never set it
above the number of proxies really in front: a client could then name its own address.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re

from flask import Flask, current_app, has_request_context, request
from flask.sessions import SecureCookieSessionInterface
from flask_talisman import Talisman
from werkzeug.middleware.proxy_fix import ProxyFix

STYLE_BLOCK = re.compile(r"<style>(.*?)</style>", re.S)


def style_hashes(app: Flask) -> list[str]:
    """CSP hashes of the inline ``<style>`` blocks the templates write (the charts'), worked
    out once per process and version of the template (compiling it takes longer than the rest
    of making an app, which the tests do for every test)."""
    template = os.path.join(app.template_folder, "stats", "charts.html")
    key = (template, os.path.getmtime(template))
    if key not in _STYLE_HASHES:
        with app.app_context():
            css = str(app.jinja_env.get_template("stats/charts.html").module.chart_styles())
        _STYLE_HASHES[key] = [
            "'sha256-%s'" % base64.b64encode(hashlib.sha256(block.encode()).digest()).decode()
            for block in STYLE_BLOCK.findall(css)]
    return _STYLE_HASHES[key]


_STYLE_HASHES: dict[tuple[str, float], list[str]] = {}


def content_security_policy(app: Flask) -> dict[str, str | list[str]]:
    return {
        "default-src": "'self'",
        "script-src": "'self'",
        "style-src": ["'self'", *style_hashes(app)],
        "img-src": ["'self'", "data:"],
        "media-src": ["'self'", "data:"],  # NoSleep.js's silent video is a data: address
        "connect-src": "'self'",
        "manifest-src": "'self'",
        "object-src": "'none'",
        "base-uri": "'self'",
        "form-action": "'self'",
        "frame-ancestors": "'none'",
    }


def cookie_secure() -> bool:
    """Whether a cookie set now gets ``Secure``: on an HTTPS site, or on a request over HTTPS
    (seen through ``TRUSTED_PROXIES`` behind a proxy)."""
    if current_app.config.get("SESSION_COOKIE_SECURE"):
        return True
    return has_request_context() and request.is_secure


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed cookie session, ``Secure`` by :func:`cookie_secure` (Talisman can only
    make it Secure always or never; a phone on the table's Wi-Fi comes over plain HTTP)."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return cookie_secure()


def init_security(app: Flask) -> None:
    # No HTTPS redirect, no HSTS: phones on the Wi-Fi reach a laptop over HTTP (nginx sets HSTS).
    Talisman(app, force_https=False, strict_transport_security=False,
             session_cookie_secure=False, frame_options="DENY", referrer_policy="same-origin",
             content_security_policy=content_security_policy(app))
    app.config["SESSION_COOKIE_SECURE"] = str(app.config.get("PUBLIC_URL") or "").lower(
        ).startswith("https://")
    app.session_interface = SessionInterface()
    proxies = int(app.config.get("TRUSTED_PROXIES") or 0)
    if proxies < 0:
        raise ValueError(f"TRUSTED_PROXIES must be 0 or more proxies, not {proxies}.")
    if proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies)
