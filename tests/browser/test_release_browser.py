"""The release a family installs: the wheel `python -m build` makes (as `make dist` does),
installed into a new virtual environment outside the checkout, serves every game from what
it carries: the templates and static files, htmx and its SSE extension, NoSleep.js, the
German catalogue and the rules.

The new environment finds the app's dependencies in this one's: a .pth line puts that folder
on its path without running the .pth files in it, so the checkout's editable install of the
companion stays out of sight, and whatever is served comes from the wheel alone. (The list
of dependencies is the one CI's `make run` installs into a fresh environment.)"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import sysconfig
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from companion.games import GAMES
from companion.web.assets import PREMADE, premade_name
from tests.browser.conftest import Server, create_table, join, settle

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.fixture(scope="module")
def release(tmp_path_factory) -> Path:
    """A folder outside the checkout: the wheel in dist/, the environment it went into in venv/."""
    folder = tmp_path_factory.mktemp("release")
    built = subprocess.run([sys.executable, "-m", "build", "--outdir", str(folder / "dist"),
                            str(ROOT)], capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, (built.stdout + built.stderr)[-3000:]
    wheel = next((folder / "dist").glob("table_companion-*-py3-none-any.whl"))
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder / "venv")],
                   check=True, timeout=120)
    python = folder / "venv" / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
                    "--no-deps", "--no-index", str(wheel)], check=True, timeout=300)
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          capture_output=True, text=True, check=True).stdout.strip()
    ours = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
    (Path(site) / "dependencies-of-the-tests.pth").write_text("\n".join(sorted(ours)) + "\n")
    return folder


@pytest.fixture(scope="module")
def release_server(release):
    """The installed `companion serve`, started in the release's folder on a fresh instance."""
    with Server(release / "instance", command=[str(release / "venv" / "bin" / "companion")],
                cwd=release) as server:
        yield server


def get(url: str, language: str = "en") -> tuple[int, str, bytes]:
    request = urllib.request.Request(url, headers={"Accept-Language": language})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return answer.status, answer.headers.get_content_type(), answer.read()


def test_the_installed_companion_is_the_wheels_own_with_its_folders_inside(release):
    found = subprocess.run([str(release / "venv" / "bin" / "python"), "-c",
                            "import companion; print(companion.__file__)"],
                           capture_output=True, text=True, check=True, cwd=release).stdout
    package = Path(found.strip()).parent
    assert package.is_relative_to(release / "venv")
    assert (package / "templates" / "table.html").is_file()
    assert (package / "static" / "vendor" / "htmx.min.js").is_file()


def test_the_wheel_serves_every_game_with_its_qr_code_bundle_and_rules(release_server):
    url = release_server.url
    for game in GAMES:
        code = create_table(url, game, ["Ann", "Ben"])["code"]
        status, _kind, page = get(f"{url}/j/{code}")
        assert status == 200 and b'value="Ann"' in page and b'value="Ben"' in page
        assert "Nur zuschauen" in get(f"{url}/j/{code}", "de")[2].decode()  # the catalogue
        assert get(f"{url}/t/{code}/qr.svg")[1] == "image/svg+xml"
        script = re.search(rf'src="(/static/bundle/{game}\.js\?v=\w+)"', page.decode())
        assert script, f"the join page of {game} names no bundle"
        status, kind, bundle = get(url + script.group(1))
        assert status == 200 and kind == "text/javascript"
        assert b'version:"' in bundle and b"sse-connect" in bundle  # htmx and its SSE extension
        assert get(f"{url}/rules/{game}")[0] == 200
    # Sent as terser minified it at set-up, as every script: the wheel carries the copies.
    vendor = ROOT / "static" / "vendor" / "NoSleep.min.js"
    terser = ROOT / "static" / PREMADE / premade_name(vendor.read_bytes())
    assert get(f"{url}/static/vendor/NoSleep.min.js")[2].decode() == terser.read_text()


def test_phones_seated_through_the_installed_wheel_share_a_score_live(release_server, new_phone):
    url = release_server.url
    table = create_table(url, "scorepad", ["Ann", "Ben"])
    ann, ben = new_phone(), new_phone()
    join(ann, url, table["code"], "Ann")
    join(ben, url, table["code"], "Ben")
    settle(ben, url, table["code"])
    pinned = json.loads((ROOT / "package.json").read_text())["dependencies"]["htmx.org"]
    assert ben.evaluate("() => htmx.version") == pinned
    ann.locator("form.score-entry select[name=player]").select_option("Ann")
    ann.locator("form.score-entry input[name=round]").fill("1")
    ann.locator("form.score-entry input[name=points]").fill("17")
    ann.get_by_role("button", name="Save score").click()
    expect(ben.locator("#scoresheet tfoot")).to_contain_text("17", timeout=5000)
