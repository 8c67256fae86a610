"""The wheel carries everything the server serves: templates/ and static/ go inside the package
(companion/templates, companion/static: where web/app.py finds them once installed), with
htmx, its SSE extension and NoSleep.js (static/vendor/, from the npm registry by `make
setup`), terser's copy of every script (static/vendor/min/, made by `make setup` too) and the
compiled German catalogue (package data). A build that would miss one of those stops with a
sentence instead of making a wheel whose pages do nothing, or send more than they need."""

import hashlib
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.errors import FileError

ROOT = Path(__file__).resolve().parent
WEB_FOLDERS = ("templates", "static")
# Made by `make setup` (so by `make dist`), never committed: htmx and the rest from the npm
# registry (package-lock.json), the catalogue compiled from messages.po.
MADE_AT_SETUP = ("static/vendor/htmx.min.js", "static/vendor/sse.min.js",
                 "static/vendor/NoSleep.min.js",
                 "companion/translations/de/LC_MESSAGES/messages.mo")


def scripts_without_terser_copy() -> list[str]:
    """The scripts whose terser copy (minify.mjs names it by the source's hash, as
    companion/web/assets.py looks for it) is missing: new or changed since `make setup`."""
    copies = ROOT / "static" / "vendor" / "min"
    return [str(path.relative_to(ROOT)) for path in sorted((ROOT / "static").rglob("*.js"))
            if copies not in path.parents and not (
                copies / (hashlib.sha256(path.read_bytes()).hexdigest()[:24] + ".js")).is_file()]


class BuildWithWebFiles(build_py):
    """build_py, then templates/ and static/ copied into the package being built."""

    def run(self):
        if self.editable_mode:  # `pip install -e .`: the checkout serves its own folders
            super().run()
            return
        missing = [name for name in MADE_AT_SETUP if not (ROOT / name).is_file()]
        missing += [f"terser's copy of {name}" for name in scripts_without_terser_copy()]
        if missing:
            raise FileError(
                f"The wheel would serve pages without {', '.join(missing)}: run `make dist` "
                f"(it fetches them from the npm registry and compiles the catalogue first), "
                f"or `make setup` before `python -m build`.")
        super().run()
        for folder in WEB_FOLDERS:
            target = Path(self.build_lib) / "companion" / folder
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(ROOT / folder, target,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


setup(cmdclass={"build_py": BuildWithWebFiles})
