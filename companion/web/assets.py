"""Static files: versioned addresses cached for good; scripts and style sheets minified and
compressed once (kept in the instance folder for every worker and the next start).

A phone's first visit downloads htmx, the app's script and the style sheets (most of the
first load). Minified and compressed at the highest levels once (brotli's 11; zopfli, 3 %
under gzip's own best: 1.2 KB of a first load), they cost a third less than gzipped per
request, and nothing per request. Scripts are minified by terser at set-up (``make setup``
runs minify.mjs: local names shortened too, a table's first load about 1.8 KB smaller), each
copy kept in ``vendor/min/`` under its source's hash and served while the source is unchanged;
a script changed since, and the style sheets, are minified here (rjsmin, rcssmin: comments
and spaces go, nothing is renamed). Brotli goes to browsers that ask for it (they do over
HTTPS), gzip to the others (a laptop's plain-HTTP address on the Wi-Fi).

A page loads one script and one style sheet, its *bundle* (``bundle/<name>.js`` and ``.css``):
the files it needs, in order, minified and put together. One request each instead of up to
six, and compressed together they are smaller than apart (the words of app/ are htmx's,
the game's style sheet repeats app.css's): a table page's first load is 2.2 KB smaller with
gzip. The bundles (``bundle_files``): ``core`` for the pages outside a table (with
``pages.css``, their own rules); one per game
for its table, join, set-up and quick-score pages, with the game's own files and the
invite's script. The teaching card's script and the worker's registration are in none: a
page loads them when it needs them (``ON_DEMAND``).

``worker.js`` is the service worker (``offline.js``, in every bundle, registers it where the
page is a secure context): served from here with ``Service-Worker-Allowed``, registered at an
address carrying ``release``, a hash of every bundle and of itself, which names its cache.
"""

from __future__ import annotations

import hashlib
import mimetypes
import os
from dataclasses import dataclass

import brotli
import rcssmin
import rjsmin
import zopfli.gzip
from flask import Flask, Response, request, url_for
from markupsafe import Markup
from werkzeug.security import safe_join

from ..games import GAMES

YEAR = 365 * 24 * 3600
MINIFIERS = {".js": rjsmin.jsmin, ".css": rcssmin.cssmin}
# Between two files of a bundle: a script without its last semicolon must not run on.
JOINERS = {".js": ";\n", ".css": "\n"}
# app/: the layer over htmx, one file per part (app/core.js says which); events.js listens.
APP_PARTS = ["core", "still", "live", "unsent", "awake", "forms", "events"]
CORE_FILES = {".js": ["vendor/htmx.min.js", "vendor/sse.min.js",
                      *(f"app/{part}.js" for part in APP_PARTS)],
              ".css": ["app.css"]}
# In the core bundle only: what no game's pages use (a table's first load is smaller without).
PAGES_ONLY = {".js": [], ".css": ["pages.css"]}
# Loaded by a page only when it needs them (app/core.js: loadWanted): the teaching card's
# script, and the worker's registration where a worker may be registered (a secure context).
ON_DEMAND = ("coach.js", "offline.js")
WORKER = "worker.js"  # the service worker (offline.js registers it where the page is secure)
PREMADE = "vendor/min"  # terser's copies of the scripts, by their source's hash (minify.mjs)
BUNDLES = "bundle/"  # the addresses of bundles, as if they were a folder of static/
CODINGS = ("br", "gzip", None)
_BUILT: dict[str, dict[str | None, bytes]] = {}  # this process's builds, by content (every app)


@dataclass(frozen=True)
class Asset:
    mimetype: str
    etag: str
    bodies: dict[str | None, bytes]  # by content coding: "br", "gzip", None (as it is)

    @classmethod
    def build(cls, paths: list[str], minify: bool, cache: str | None,
              premade: str | None = None) -> Asset:
        """The files of ``paths`` (of one kind: scripts or style sheets) minified (a script
        by terser where the folder ``premade`` has its copy), put together and compressed, or
        as the cache folder keeps them from an earlier build of the same files (another
        worker's, or before a restart: brotli's and zopfli's highest levels take some
        seconds for all the files)."""
        kind = os.path.splitext(paths[0])[1]
        raws = []
        for path in paths:
            with open(path, "rb") as fh:
                raws.append(fh.read())
        copies = [_premade(premade, raw) if minify and kind == ".js" else None for raw in raws]
        mimetype = mimetypes.guess_type(paths[0])[0] or "application/octet-stream"
        key = hashlib.blake2b(b"\0".join(raws) + (b"minified" if minify else b"")
                              + b"\0".join(copy.encode() for copy in copies if copy is not None),
                              digest_size=12).hexdigest()
        bodies = _BUILT.get(key) or _read_cache(cache, key)
        if bodies is None:
            minifier = MINIFIERS[kind]
            texts = [copy if copy is not None else minifier(raw.decode("utf-8")) if minify
                     else raw.decode("utf-8") for raw, copy in zip(raws, copies)]
            body = JOINERS[kind].join(texts).encode("utf-8")
            bodies = {"br": brotli.compress(body, quality=11),
                      "gzip": zopfli.gzip.compress(body),
                      None: body}
            _write_cache(cache, key, bodies)
        _BUILT[key] = bodies
        return cls(mimetype, hashlib.blake2b(bodies[None], digest_size=8).hexdigest(), bodies)


def premade_name(raw: bytes) -> str:
    """The name of terser's copy of a script (minify.mjs names it by the same hash)."""
    return hashlib.sha256(raw).hexdigest()[:24] + ".js"


def _premade(folder: str | None, raw: bytes) -> str | None:
    """Terser's copy of the script ``raw``, or None (none made since the script changed)."""
    if folder is None:
        return None
    try:
        with open(os.path.join(folder, premade_name(raw)), encoding="utf-8") as fh:
            return fh.read()
    except OSError:
        return None


def _cache_name(cache: str, key: str, coding: str | None) -> str:
    return os.path.join(cache, f"{key}.{coding or 'plain'}")


def _read_cache(cache: str | None, key: str) -> dict[str | None, bytes] | None:
    if cache is None:
        return None
    bodies = {}
    for coding in CODINGS:
        try:
            with open(_cache_name(cache, key, coding), "rb") as fh:
                bodies[coding] = fh.read()
        except OSError:
            return None
    return bodies


def _write_cache(cache: str | None, key: str, bodies: dict[str | None, bytes]) -> None:
    """Each file written whole under a temporary name, then renamed: a worker reading at the
    same moment finds the whole file or none. A cache that cannot be written is no error."""
    if cache is None:
        return
    try:
        os.makedirs(cache, exist_ok=True)
        for coding in CODINGS:
            name = _cache_name(cache, key, coding)
            temporary = f"{name}.{os.getpid()}.tmp"
            with open(temporary, "wb") as fh:
                fh.write(bodies[coding])
            os.replace(temporary, name)
    except OSError:
        pass


class Assets:
    """The static folder's scripts and style sheets, each built at its first request (or when
    a worker starts: ``warm``) and again when the file changes."""

    def __init__(self, folder: str, minify: bool, cache: str | None = None,
                 games: tuple[str, ...] = ()):
        self.folder, self.minify, self.cache, self.games = folder, minify, cache, games
        self._built: dict[str, tuple[tuple[float, ...], Asset]] = {}
        self._versions: dict[str, str] = {}
        self._release: str | None = None

    def path(self, filename: str) -> str | None:
        """The file inside the static folder (the name may come from an address: no "../",
        no NUL), or None."""
        if "\x00" in filename:
            return None
        return safe_join(self.folder, filename)

    def bundle_files(self, name: str, kind: str) -> list[str] | None:
        """The static files of the bundle ``name`` (``core`` or a game's id) of ``kind``
        (".js" or ".css"), in the order they run; None: no such bundle."""
        if name != "core" and name not in self.games:
            return None
        files = list(CORE_FILES[kind])
        if name == "core":
            files += PAGES_ONLY[kind]
        else:
            files += ["invite.js"] if kind == ".js" else []
            own = f"games/{name}{kind}"
            if os.path.exists(os.path.join(self.folder, own)):
                files.append(own)
        return files

    def paths(self, filename: str) -> list[str] | None:
        """The file(s) on disk behind an address: a bundle's files, or the file itself."""
        if filename.startswith(BUNDLES):
            name, kind = os.path.splitext(filename[len(BUNDLES):])
            files = self.bundle_files(name, kind) if kind in MINIFIERS else None
            return None if files is None else [os.path.join(self.folder, f) for f in files]
        path = self.path(filename)
        return None if path is None else [path]

    def version(self, filename: str) -> str | None:
        """A short hash of the file(s) as they are on disk: what the address carries."""
        if filename not in self._versions:
            paths = self.paths(filename)
            if paths is None:
                return None
            digest = hashlib.blake2b(digest_size=6)
            try:
                for path in paths:
                    with open(path, "rb") as fh:
                        digest.update(fh.read())
            except OSError:
                return None
            self._versions[filename] = digest.hexdigest()
        return self._versions[filename]

    def get(self, filename: str) -> Asset | None:
        """The built script or style sheet (or bundle), or None for any other file (or none
        at all)."""
        paths = self.paths(filename)
        if paths is None or os.path.splitext(paths[0])[1] not in MINIFIERS:
            return None
        try:
            modified = tuple(os.stat(path).st_mtime for path in paths)
        except OSError:
            return None
        built = self._built.get(filename)
        if built is None or built[0] != modified:
            built = (modified, Asset.build(paths, self.minify, self.cache,
                                           os.path.join(self.folder, PREMADE)))
            self._built[filename] = built
        return built[1]

    def tags(self, name: str) -> Markup:
        """The page's style sheet and script: the bundle ``name``'s (see bundle_files)."""
        return Markup(
            f'<link rel="stylesheet" href="{url_for("static", filename=f"{BUNDLES}{name}.css")}">\n'
            f'  <script src="{url_for("static", filename=f"{BUNDLES}{name}.js")}" defer></script>')

    def release(self) -> str:
        """A short hash of every bundle, of the scripts loaded on demand and of the worker: what
        the worker's address carries, so that a release that changes any of them installs a
        new worker (and its cache)."""
        if self._release is None:  # the versions, too, are read once per process
            digest = hashlib.blake2b(digest_size=6)
            for name in ("core", *self.games):
                for kind in MINIFIERS:
                    digest.update(f"{self.version(f'{BUNDLES}{name}{kind}')}:".encode())
            for name in (*ON_DEMAND, WORKER):
                digest.update(f"{self.version(name)}:".encode())
            self._release = digest.hexdigest()
        return self._release

    def warm(self) -> None:
        """Build every script, style sheet and bundle now (a worker, before its first
        request)."""
        for root, _dirs, files in os.walk(self.folder):
            for name in files:
                if os.path.splitext(name)[1] in MINIFIERS:
                    self.get(os.path.relpath(os.path.join(root, name), self.folder))
        for name in ("core", *self.games):
            for kind in MINIFIERS:
                self.get(f"{BUNDLES}{name}{kind}")


def init_assets(app: Flask) -> None:
    """Every ``url_for('static', ...)`` carries ``?v=<hash of the file>``, and an answer to
    such an address may be kept by the phone for a year: a changed file gets a new address."""
    assets = Assets(app.static_folder, app.config["STATIC_MINIFY"],
                    os.path.join(app.instance_path, "assets"), tuple(GAMES))
    app.extensions["companion.assets"] = assets
    app.jinja_env.globals["assets_for"] = assets.tags
    app.jinja_env.globals["worker_url"] = lambda: url_for(
        "static", filename=WORKER, release=assets.release())
    send_static_file = app.view_functions["static"]

    def static(filename: str):
        asset = assets.get(filename)
        if asset is None:
            response = send_static_file(filename=filename)
            # Read the (small) file here so Flask-Compress compresses it like a page.
            response.direct_passthrough = False
            response.get_data()
            return response
        coding = request.accept_encodings.best_match(["br", "gzip"])
        response = Response(asset.bodies[coding], mimetype=asset.mimetype)
        if coding:
            response.headers["Content-Encoding"] = coding
        response.vary.add("Accept-Encoding")
        if filename == WORKER:  # it serves the whole site, not only the static folder
            response.headers["Service-Worker-Allowed"] = url_for("pages.home")
        response.set_etag(f"{asset.etag}-{coding or 'identity'}")
        return response.make_conditional(request)

    app.view_functions["static"] = static

    @app.url_defaults
    def _versioned(endpoint, values):
        if endpoint == "static" and "v" not in values and values.get("filename"):
            version = assets.version(values["filename"])
            if version:
                values["v"] = version

    @app.after_request
    def _cache_forever(response):
        if (request.endpoint == "static" and response.status_code in (200, 304)
                and request.args.get("v") == assets.version(request.view_args["filename"])):
            response.cache_control.public = True
            response.cache_control.max_age = YEAR
            response.cache_control.immutable = True
            response.cache_control.no_cache = None
        return response
