"""The Flask app factory: settings, the database, live push, the checks before every view,
the blueprints, the error pages and the security headers."""

from __future__ import annotations

import importlib.util
import os
import secrets
from pathlib import Path

from flask import Flask, url_for
from flask_compress import Compress
from flask_wtf.csrf import CSRFProtect
from sqlalchemy.exc import OperationalError

from ..live.hub import Hub
from ..live.versions import use_act_url
from ..service.database import init_db, make_engine, writing
from ..service.pending import forget_dead
from ..service.tables import put_away_after
from .assets import init_assets
from .config import defaults
from .db import close_db
from .errors import init_errors
from .guards import init_guards
from .i18n import init_i18n
from .limits import make_limiter
from .metrics import init_metrics
from .security import init_security
from .templating import init_templating
from .views import api, groups, health, language, pages, rematch, rules, table

PACKAGE = Path(__file__).resolve().parent.parent
ROOT = PACKAGE.parent
# The wheel carries templates/ and static/ inside the package (setup.py); a checkout has them
# beside it.
WEB_ROOT = PACKAGE if (PACKAGE / "templates").is_dir() else ROOT


def create_app(test_config: dict | None = None) -> Flask:
    """Create and configure an instance of the companion."""
    app = Flask("companion", instance_relative_config=True, instance_path=_instance_path(),
                template_folder=str(WEB_ROOT / "templates"),
                static_folder=str(WEB_ROOT / "static"))
    app.json.sort_keys = False  # JSON keys in the order the answer's model gives
    app.config.from_mapping(defaults())
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    os.makedirs(app.instance_path, exist_ok=True)
    if not hasattr(os, "getuid") or os.stat(app.instance_path).st_uid == os.getuid():
        os.chmod(app.instance_path, 0o700)  # its database and secret key are the owner's alone
    app.config["SECRET_KEY"] = app.config.get("SECRET_KEY") or _secret_key(app.instance_path)
    app.config["DATABASE_URL"] = database_url(app.config["DATABASE_URL"], app.instance_path)

    engine = app.extensions["engine"] = make_engine(app.config["DATABASE_URL"])
    put_away_after(app.config["ARCHIVE_DAYS"])
    app.teardown_appcontext(close_db)
    if app.config.get("CREATE_TABLES", True):
        _prepare_database(app)
    app.extensions["live"] = Hub(engine, app.config["STREAMS_PER_CLIENT"])
    use_act_url(lambda code: url_for("table.act_view", code=code))

    init_i18n(app)
    init_templating(app)
    limiter = app.extensions["rate_limiter"] = make_limiter(app)
    init_guards(app, limiter)
    CSRFProtect(app)
    for blueprint in (language.bp, groups.bp, rematch.bp, pages.bp, table.bp, rules.bp,
                      health.bp, api.bp):
        app.register_blueprint(blueprint)
    app.extensions["csrf"].exempt(api.bp)  # the API takes bearer tokens only, never the cookie
    init_metrics(app)
    Compress(app)
    init_assets(app)
    init_errors(app)
    init_security(app)

    @app.cli.command("init-db")
    def init_db_command():
        """Create or upgrade the database tables (done already when the app was built)."""
        print(f"Database ready: {app.extensions['schema_upgrade']}.")

    return app


def _prepare_database(app: Flask) -> None:
    """Bring the schema up to date; processes starting together take turns (init_db locks).
    A database that cannot be reached yet does not stop the server: it serves /healthz, and
    ``guards.database_ready`` tries again at each request until the database answers."""
    try:
        app.extensions["schema_upgrade"] = init_db(app.extensions["engine"])  # for init-db
    except OperationalError as error:
        app.extensions["schema_upgrade"] = None
        app.extensions["database_problem"] = str(error.orig or error).strip().splitlines()[0]
        app.logger.warning("The database cannot be reached (%s); serving anyway: /readyz "
                           "answers 503 until it does.", app.extensions["database_problem"])


def forget_dead_imports(app: Flask) -> None:
    """A server starting (cli.post_worker_init): what the imports of its last run left
    half-written (killed with it) is cleared; another server's imports under way stay. A
    database away at the start: the next import clears them."""
    if "database_problem" in app.extensions:
        return
    with writing(app.extensions["engine"]) as db:
        forget_dead(db)


def _instance_path() -> str | None:
    """instance/ of the checkout, or Flask's own place for an installed package."""
    return os.environ.get("COMPANION_INSTANCE") or (
        str(ROOT / "instance") if WEB_ROOT == ROOT else None)


def _secret_key(instance_path: str) -> str:
    """Read the key from instance/, writing a fresh random one on the first run."""
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        key = secrets.token_hex(32)
        # Exclusive create: two processes starting at once must end up with the same key.
        try:
            with open(path, "x") as fh:
                fh.write(key)
            os.chmod(path, 0o600)
        except FileExistsError:
            pass
    return path.read_text().strip()


NO_DRIVER = ("DATABASE_URL names PostgreSQL, but its driver is not installed: "
             "pip install 'table-companion[postgres]'")


def database_url(url: str | None, instance_path: str) -> str:
    """The URL SQLAlchemy is given: DATABASE_URL (a PostgreSQL one on the psycopg driver), else
    SQLite in the instance folder. SystemExit with a sentence when psycopg is missing."""
    url = url or os.environ.get("DATABASE_URL") or (
        "sqlite:///" + os.path.join(instance_path, "companion.sqlite3"))
    for prefix in ("postgres://", "postgresql://", "postgresql+psycopg://"):  # hosts', ours
        if url.startswith(prefix):
            if importlib.util.find_spec("psycopg") is None:  # an extra: SQLite needs none
                raise SystemExit(NO_DRIVER)
            return "postgresql+psycopg://" + url[len(prefix):]
    return url
