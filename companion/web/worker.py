"""The gunicorn worker `companion serve` runs: gunicorn's gevent worker, whose own refusals (a
request line or headers too large to read, a length that is no length) are answered as the app
answers: JSON with its kind under /api/, the sentence alone elsewhere, in the phone's language.

gunicorn loads this module in its main process before any worker patches the standard library
for gevent: it imports gunicorn, Werkzeug's header parsers and Babel, never the app or a
database driver.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from babel.support import NullTranslations, Translations
from gunicorn.http import errors
from gunicorn.util import write_nonblock
from gunicorn.workers.ggevent import GeventWorker
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header, parse_cookie


def N_(text: str) -> str:  # noqa: N802 - the catalogue's marker (web/messages.KEYWORDS)
    return text


TOO_LONG = (414, "URI Too Long", "too_large",
            N_("The address is longer than the companion reads; nothing was read or changed."))
HEADERS_TOO_LARGE = (431, "Request Header Fields Too Large", "too_large",
                     N_("The request's headers are larger than the companion reads; nothing was "
                        "read or changed."))
BAD_HEADERS = (400, "Bad Request", "invalid",
               N_("The request's headers could not be read (a length that is not a number, two "
                  "lengths, or a malformed header); nothing was read or changed."))
BAD_LINE = (400, "Bad Request", "invalid",
            N_("The request's first line could not be read (its method, address or HTTP "
               "version); nothing was read or changed."))
BAD_CHUNKS = (400, "Bad Request", "invalid",
              N_("The request body's chunks could not be read (a chunk's size is not a number, "
                 "or a chunk has no end); nothing was read or changed."))
BAD_CODING = (501, "Not Implemented", "invalid",
              N_("The request's Transfer-Encoding is not one the companion reads (chunked is); "
                 "nothing was read or changed."))
UNREADABLE = (400, "Bad Request", "invalid",
              N_("The request could not be read; nothing was read or changed."))
# What gunicorn refuses before the app, answered here; any other error is gunicorn's to answer.
REFUSALS = {
    errors.LimitRequestLine: TOO_LONG,
    errors.LimitRequestHeaders: HEADERS_TOO_LARGE,
    errors.InvalidHeader: BAD_HEADERS,
    errors.InvalidHeaderName: BAD_HEADERS,
    errors.ObsoleteFolding: BAD_HEADERS,
    errors.InvalidRequestLine: BAD_LINE,
    errors.InvalidRequestMethod: BAD_LINE,
    errors.InvalidHTTPVersion: BAD_LINE,
    errors.InvalidChunkSize: BAD_CHUNKS,
    errors.ChunkMissingTerminator: BAD_CHUNKS,
    errors.InvalidChunkExtension: BAD_CHUNKS,
    errors.UnsupportedTransferCoding: BAD_CODING,
    errors.ParseException: UNREADABLE,  # any other request gunicorn could not read
}
LANGUAGES = ("en", "de")  # as web/i18n.py chooses: the phone's `lang` cookie, else its browser's


@cache
def _catalogue(language: str) -> NullTranslations:
    if language == "en":
        return NullTranslations()
    return Translations.load(str(Path(__file__).parent.parent / "translations"), [language])


def _language(headers: dict[str, str]) -> str:
    chosen = parse_cookie(headers.get("COOKIE", "")).get("lang", "")
    if chosen in LANGUAGES:
        return chosen
    accepted = parse_accept_header(headers.get("ACCEPT-LANGUAGE", ""), LanguageAccept)
    return accepted.best_match(LANGUAGES, default="en") or "en"


def refusal(exc: Exception, req) -> tuple[int, str, str, bytes] | None:
    """The answer to a request gunicorn refused: status, reason, content type and body (None:
    not a refusal of ours). Where the address could not be read, the API's shape: a script can
    act on it and a person can still read it."""
    found = next((answer for kind, answer in REFUSALS.items() if isinstance(exc, kind)), None)
    if found is None:
        return None
    status, reason, kind, sentence = found
    req = req or getattr(exc, "req", None)
    headers = dict(getattr(req, "headers", None) or ())
    text = _catalogue(_language(headers)).ugettext(sentence)
    path = getattr(req, "path", None)
    if path is None or path.startswith("/api/"):
        body = json.dumps({"error": text, "kind": kind}, ensure_ascii=False,
                          separators=(",", ":")) + "\n"  # as Flask writes the app's
        return status, reason, "application/json", body.encode()
    return status, reason, "text/plain; charset=utf-8", text.encode()


class Worker(GeventWorker):
    """gunicorn's gevent worker, its refusals in the app's shape (see the module docstring)."""

    def handle_error(self, req, client, addr, exc):
        answer = refusal(exc, req)
        if answer is None:
            super().handle_error(req, client, addr, exc)
            return
        status, reason, content_type, body = answer
        # One line, naming the kind of refusal, never the address (it may hold a table's code).
        self.log.warning("Refused before the app: %s, answered %d", type(exc).__name__, status)
        head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\n"
                f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\n\r\n")
        try:
            write_nonblock(client, head.encode("latin-1") + body)
        except OSError:
            self.log.debug("The refusal could not be sent: the client has gone.")
