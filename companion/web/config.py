"""The app's settings: these defaults, read from the environment where README.md's table says,
then the instance folder's optional ``config.py``."""

from __future__ import annotations

import os
from datetime import timedelta


def defaults() -> dict:
    env = os.environ.get
    return dict(
        DATABASE_URL=None,
        PUBLIC_URL=env("PUBLIC_URL") or None,
        # Flask refuses any other Host; invites may then use the name the phone came by.
        TRUSTED_HOSTS=[name.strip() for name in env("TRUSTED_HOSTS", "").split(",")
                       if name.strip()] or None,
        POLL_SECONDS=1,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=timedelta(days=30),
        # Re-signed when a table page opens (phone.keep_session_alive), not with every tap.
        SESSION_REFRESH_EACH_REQUEST=False,
        WTF_CSRF_TIME_LIMIT=None,  # a phone left on the table page all evening still works
        WTF_CSRF_SSL_STRICT=False,
        # A heartbeat keeps home routers from closing an idle stream.
        LIVE_HEARTBEAT_SECONDS=float(env("LIVE_HEARTBEAT_SECONDS", "20")),
        LIVE_RETRY_MS=2000,
        STREAMS_PER_CLIENT=int(env("STREAMS_PER_CLIENT", "100")),
        # Streams are gzipped event by event (live/stream.py), scripts and styles once (assets.py).
        COMPRESS_ALGORITHM=["br", "gzip"],
        COMPRESS_BR_LEVEL=5,
        COMPRESS_LEVEL=9,  # gzip, what phones on the table's plain-HTTP Wi-Fi get: pages are small
        COMPRESS_MIMETYPES=["text/html", "text/css", "text/javascript", "application/javascript",
                            "application/json", "image/svg+xml", "text/plain",
                            "application/manifest+json"],
        COMPRESS_MIN_SIZE=500,
        COMPRESS_STREAMS=False,
        STATIC_MINIFY=env("STATIC_MINIFY", "1") != "0",
        # Far above any action or form; a group's import of plays may be larger.
        BODY_LIMIT_BYTES=int(env("BODY_LIMIT_KB", "64")) * 1024,
        IMPORT_LIMIT_BYTES=6 * 1024 * 1024,
        BODY_SECONDS=float(env("BODY_SECONDS", "10")),
        # Requests per phone per minute, by kind (limits.py): "code=600,action=300".
        RATE_LIMITS=env("RATE_LIMITS", ""),
        RATELIMIT_STORAGE_URI=env("RATELIMIT_STORAGE_URI", "memory://"),
        RATE_LIMIT_TARPIT=float(env("RATE_LIMIT_TARPIT", "1")),
        # A table without activity this many days is out of reach of its code; 0: never.
        ARCHIVE_DAYS=int(env("ARCHIVE_DAYS", "30")),
        TRUSTED_PROXIES=int(env("TRUSTED_PROXIES", "0")),
        # /metrics answers this machine, or a scraper elsewhere sending this bearer token.
        METRICS_TOKEN=env("METRICS_TOKEN") or None,
    )
