"""The release wheel is made whole or not at all: a build that would leave out what `make
setup` fetches and makes (htmx, its SSE extension, NoSleep.js, terser's copies of the scripts,
the German catalogue) stops with a sentence saying how to make it
(tests/browser/test_release_browser.py installs and serves a whole one)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_a_wheel_without_htmx_is_refused_with_a_sentence(tmp_path):
    source = tmp_path / "source"
    skipped = shutil.ignore_patterns("__pycache__", "vendor")  # static/vendor: no npm ran here
    for folder in ("companion", "templates", "static"):
        shutil.copytree(ROOT / folder, source / folder, ignore=skipped)
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md"):
        shutil.copy(ROOT / name, source / name)
    built = subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir",
                            str(tmp_path / "dist"), str(source)],
                           capture_output=True, text=True, timeout=600)
    assert built.returncode != 0
    said = built.stdout + built.stderr
    assert ("The wheel would serve pages without static/vendor/htmx.min.js, "
            "static/vendor/sse.min.js, static/vendor/NoSleep.min.js, "
            "terser's copy of static/app/awake.js, ") in said
    assert "terser's copy of static/worker.js: run `make dist`" in said
    assert not list((tmp_path / "dist").glob("*.whl"))
