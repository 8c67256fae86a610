"""Regions: each part of the table page that changes is a ``{% block %}`` whose root element
carries ``{{ region('name') }}``, drawn alone (jinja2-fragments) and hashed, so a phone is sent
only the regions whose hash differs from what it shows. A region is drawn once per version for
every phone that agrees on the facts it read (``regions_for``)."""

from __future__ import annotations

import hashlib
import re
import threading
from contextlib import ExitStack, contextmanager
from contextvars import ContextVar

from flask import has_request_context, render_template
from flask_babel import get_translations
from flask_wtf.csrf import generate_csrf
from jinja2.runtime import Context
from jinja2_fragments.flask import render_block
from markupsafe import Markup

# The catalogue of the render in progress (``one_catalogue``), each greenlet its own.
_catalogue: ContextVar = ContextVar("companion_catalogue", default=None)


def catalogue():
    """The catalogue templates and sentences speak in now: the render's, else the request's."""
    found = _catalogue.get()
    return found if found is not None else get_translations()


def catalogue_in_use():
    """The render's catalogue, or None outside ``one_catalogue``."""
    return _catalogue.get()


@contextmanager
def one_catalogue():
    """Within: templates (and sentences) use this request's catalogue, looked up once."""
    token = _catalogue.set(get_translations() if has_request_context() else None)
    try:
        yield
    finally:
        _catalogue.reset(token)


def region(name: str) -> Markup:
    """The attributes of a live region's root element (its hash is filled in after render)."""
    return Markup(f'id="{name}" data-region="{name}" data-hash="@@{name}@@"')


# What differs between renders of one state (static/app/ keeps it current): left out of the hash.
_VOLATILE = re.compile(r'data-live-version value="\d+"')


def _finish(html: str, name: str, oob: bool, token: str | None = None) -> tuple[str, str]:
    """The region with its hash filled in; ``token``: the CSRF token in it (default: this
    request's), left out of the hash. Shared renders carry none ("")."""
    if token is None:
        token = generate_csrf()
    stable = _VOLATILE.sub("", html.replace(token, "") if token else html)
    digest = hashlib.blake2b(stable.encode(), digest_size=6).hexdigest()
    extra = ' hx-swap-oob="true"' if oob else ""
    return html.replace(f'data-hash="@@{name}@@"', f'data-hash="{digest}"{extra}', 1), digest


def render_page_with_regions(page_template: str, regions: list[tuple[str, str]],
                             context: dict) -> str:
    """The full page, each region carrying the same hash a later update will compute."""
    with one_catalogue():
        page = render_template(page_template, **context)
        for template, name in regions:
            _html, digest = _finish(render_block(template, name, **context), name, oob=False)
            page = page.replace(f'data-hash="@@{name}@@"', f'data-hash="{digest}"', 1)
    return page


# -- one render per kind of viewer (see regions_for) -----------------------------------------

_reads = threading.local()


class TrackingContext(Context):
    """Jinja's context, noting which names a template looks up (see ``regions_for``)."""

    def resolve_or_missing(self, key):
        seen = getattr(_reads, "names", None)
        if seen is not None:
            seen.add(key)
        return super().resolve_or_missing(key)


@contextmanager
def _tracking():
    outer = getattr(_reads, "names", None)
    _reads.names = set()
    try:
        yield _reads.names
    finally:
        _reads.names = outer


# Per-request objects: a region that reads them cannot be shared between phones.
_PER_REQUEST = {"request", "session", "g", "get_flashed_messages"}


def _no_token() -> str:
    """Shared renders carry no CSRF token: htmx sends the page's in a header (static/app/ fills
    plain forms from the page's meta tag when they are submitted)."""
    return ""


def regions_for(current, regions: list[tuple[str, str]], viewer: dict,
                before_render=None) -> list[tuple[str, str, str]]:
    """(name, hash, html as an out-of-band swap) of every region, for this viewer.

    ``current.data`` is the shared context of one table version; ``viewer`` the facts about
    one phone. Renders are cached in ``current.renders`` by the facts each region read.
    ``before_render`` is called before any render (a stream pushes its request context
    only then: most of its events are made of renders already cached)."""
    out = []
    context = None  # made (and the catalogue looked up) for the first render, if any
    with ExitStack() as rendering:
        for template, name in regions:
            cached = current.renders.setdefault(name, [])
            for facts, digest, html in cached:
                if all(viewer.get(key, _MISSING) == value for key, value in facts.items()):
                    break
            else:
                if context is None:
                    if before_render is not None:
                        before_render()
                    rendering.enter_context(one_catalogue())
                    context = {**current.data, **viewer, "csrf_token": _no_token}
                with _tracking() as names:
                    raw = render_block(template, name, **context)
                html, digest = _finish(raw, name, oob=True, token="")
                html = html.strip()
                if names & _PER_REQUEST:
                    facts = {"phone": viewer.get("phone")}
                else:
                    facts = {key: viewer[key] for key in names if key in viewer}
                # Words come from gettext, not the context: every render is in one language.
                facts["lang"] = viewer.get("lang")
                cached.append((facts, digest, html))
            out.append((name, digest, html))
    return out


_MISSING = object()


def parse_have(raw: str | None) -> dict[str, str]:
    """``name:hash,name:hash`` as sent by static/app/live.js: what each region on the phone shows."""
    have = {}
    for part in (raw or "").split(",")[:50]:
        name, _, digest = part.partition(":")
        if name and digest:
            have[name] = digest
    return have


