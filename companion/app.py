"""The Flask app factory: configuration, the database engine, the blueprints."""

from __future__ import annotations

import os
import secrets
import sys
from datetime import timedelta
from pathlib import Path

from flask import Flask

from .tables import JOIN_LIMIT

ROOT = Path(__file__).resolve().parent.parent
# In a checkout templates/ and static/ sit beside the package; pip installs them here.
INSTALLED = Path(sys.prefix) / "share" / "table-companion"
WEB_ROOT = ROOT if (ROOT / "templates").is_dir() else INSTALLED


def _secret_key(instance_path: str) -> str:
    """Read the key from instance/, writing a fresh random one on the first run."""
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        key = secrets.token_hex(32)
        # Exclusive create: two workers starting at once must end up with the same key.
        try:
            with open(path, "x") as fh:
                fh.write(key)
            os.chmod(path, 0o600)
        except FileExistsError:
            pass
    return path.read_text().strip()


def create_app(test_config: dict | None = None) -> Flask:
    """Create and configure an instance of the companion."""
    # instance/ of the checkout, or Flask's own place for an installed package.
    instance = os.environ.get("COMPANION_INSTANCE") or (
        str(ROOT / "instance") if WEB_ROOT == ROOT else None
    )
    app = Flask(
        __name__,
        instance_relative_config=True,
        instance_path=instance,
        template_folder=str(WEB_ROOT / "templates"),
        static_folder=str(WEB_ROOT / "static"),
    )
    # JSON keys in the order the answer's model gives (scores in seat order); Flask 3 reads
    # this from the provider, no longer from a JSON_SORT_KEYS setting.
    app.json.sort_keys = False
    app.config.from_mapping(
        DATABASE_URL=None,
        PUBLIC_URL=os.environ.get("PUBLIC_URL") or None,
        # Host names this server answers to ("games.example.org,.example.net"): Flask refuses
        # any other Host header, and invites may use the name the phone came by. Unset: every
        # Host is answered, and invites name PUBLIC_URL or this machine's address only.
        TRUSTED_HOSTS=[name.strip() for name in os.environ.get("TRUSTED_HOSTS", "").split(",")
                       if name.strip()] or None,
        POLL_SECONDS=1,
        # Join attempts per client address per minute (the bench raises it: all its phones
        # come from one address).
        JOIN_LIMIT=int(os.environ.get("JOIN_LIMIT", JOIN_LIMIT)),
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=timedelta(days=30),
        # The cookie is re-sent when a table page opens (web.keep_session_alive), not with
        # every tap, stream and poll: re-signing it costs each of those a good share of its time.
        SESSION_REFRESH_EACH_REQUEST=False,
        WTF_CSRF_TIME_LIMIT=None,  # a phone left on the table page all evening still works
        WTF_CSRF_SSL_STRICT=False,
        # Live streams: an SSE comment this often keeps idle connections open through home
        # routers; a dropped stream is reopened after LIVE_RETRY_MS; one client address may
        # hold STREAMS_PER_CLIENT streams per server process (a household shares an address).
        LIVE_HEARTBEAT_SECONDS=float(os.environ.get("LIVE_HEARTBEAT_SECONDS", "20")),
        LIVE_RETRY_MS=2000,
        STREAMS_PER_CLIENT=int(os.environ.get("STREAMS_PER_CLIENT", "100")),
        # Pages, fragments, JSON and static files are compressed: brotli for browsers that ask
        # for it, else gzip (the live streams: gzip, in views/table.py, flushed event by event).
        # Scripts and style sheets are minified and compressed once (assets.py).
        COMPRESS_ALGORITHM=["br", "gzip"],
        COMPRESS_BR_LEVEL=5,  # a tenth smaller than gzip's 6 (4: no smaller), 1 ms more per page
        COMPRESS_MIMETYPES=["text/html", "text/css", "text/javascript", "application/javascript",
                            "application/json", "image/svg+xml", "text/plain",
                            "application/manifest+json"],
        COMPRESS_MIN_SIZE=500,
        COMPRESS_STREAMS=False,
        STATIC_MINIFY=os.environ.get("STATIC_MINIFY", "1") != "0",
        # Request bodies: far above any real action or form (a few hundred bytes), refused
        # with 413 before they are read whole; a group's import of a play export may be larger.
        BODY_LIMIT_BYTES=int(os.environ.get("BODY_LIMIT_KB", "64")) * 1024,
        # Requests per client address per minute, by kind (limits.py): "code=600,action=300".
        RATE_LIMITS=os.environ.get("RATE_LIMITS", ""),
        RATE_LIMIT_TARPIT=float(os.environ.get("RATE_LIMIT_TARPIT", "1")),  # seconds a 429 waits
        # A table without activity this many days is put away: out of reach of its code
        # (guessing finds only tables in use); 0 keeps every table reachable.
        ARCHIVE_DAYS=int(os.environ.get("ARCHIVE_DAYS", "30")),
        IMPORT_LIMIT_BYTES=6 * 1024 * 1024,
        # A request body must arrive whole within this many seconds (web.BodyDeadline).
        BODY_SECONDS=float(os.environ.get("BODY_SECONDS", "10")),
        # Reverse proxies in front whose X-Forwarded-For/-Proto/-Host are believed (security.py).
        TRUSTED_PROXIES=int(os.environ.get("TRUSTED_PROXIES", "0")),
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    os.makedirs(app.instance_path, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(app.instance_path)
    if not app.config["DATABASE_URL"]:
        app.config["DATABASE_URL"] = os.environ.get("DATABASE_URL") or (
            "sqlite:///" + os.path.join(app.instance_path, "companion.sqlite3")
        )
    url = app.config["DATABASE_URL"]
    if url.startswith("postgres://"):  # the form some hosts hand out
        url = "postgresql+psycopg://" + url[len("postgres://"):]
    elif url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    app.config["DATABASE_URL"] = url

    from . import database

    app.extensions["engine"] = database.make_engine(url)
    app.teardown_appcontext(database.close_db)
    if app.config.get("CREATE_TABLES", True):
        # Workers starting together take turns (init_db locks); what was done, for init-db.
        app.extensions["schema_upgrade"] = database.init_db(app.extensions["engine"])

    from .limits import parse_limits

    limits = app.config["RATE_LIMITS"]
    app.extensions["rate_limits"] = (dict(limits) if isinstance(limits, dict)
                                     else parse_limits(limits))

    from .web import init_web

    init_web(app)
    from .security import init_security

    init_security(app)
    return app
