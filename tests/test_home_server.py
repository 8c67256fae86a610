"""The home server of docs/operating.md: its systemd units are the files the page quotes, and
systemd itself finds nothing wrong in them (`systemd-analyze verify`, with the companion's
path on this machine in place of /opt/table-companion's)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
UNITS = ("table-companion.service", "table-companion-backup.service",
         "table-companion-backup.timer")
INSTALLED = "/opt/table-companion/bin/companion"


def test_the_operating_page_quotes_each_unit_whole():
    page = (DOCS / "operating.md").read_text()
    for name in UNITS:
        assert f"`docs/{name}`" in page
        assert f"```ini\n{(DOCS / name).read_text()}```" in page, f"{name} differs from the page"


def test_systemd_finds_nothing_wrong_in_the_units(tmp_path):
    if not shutil.which("systemd-analyze"):
        if os.environ.get("CI"):
            pytest.fail("systemd-analyze is missing; .ci/run installs systemd.")
        pytest.skip("systemd-analyze is not installed (Debian's package systemd)")
    companion = str(Path(sys.executable).with_name("companion"))
    for name in UNITS:
        text = (DOCS / name).read_text()
        assert name == UNITS[-1] or INSTALLED in text
        (tmp_path / name).write_text(text.replace(INSTALLED, companion))
    checked = subprocess.run(["systemd-analyze", "verify", *(str(tmp_path / name) for name in UNITS)],
                             capture_output=True, text=True, timeout=120)
    assert (checked.returncode, checked.stdout + checked.stderr) == (0, "")
