"""The language switch of the top bar: each phone reads the companion in its own language."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, Response, redirect, request, url_for

from ..i18n import COOKIE, COOKIE_DAYS, LANGUAGES, unknown_language
from ..security import cookie_secure

bp = Blueprint("language", __name__)


def _back_to(target: str | None) -> str:
    """Where to go after switching: a path of this site (never another site), else home."""
    parts = urlsplit(target or "")
    if parts.scheme or parts.netloc or not parts.path.startswith("/") or parts.path.startswith("//"):
        return url_for("pages.home")
    return parts.path + (f"?{parts.query}" if parts.query else "")


@bp.post("/language")
def choose():
    """Remember the phone's language and show the page it came from again."""
    lang = request.form.get("lang", "")
    if lang not in LANGUAGES:
        return Response(unknown_language(lang), status=400, mimetype="text/plain")
    response = redirect(_back_to(request.form.get("next")), 303)
    response.set_cookie(COOKIE, lang, max_age=COOKIE_DAYS * 24 * 3600, samesite="Lax",
                        httponly=True, secure=cookie_secure())
    return response
