"""Every game of the registry brings all its parts, and the rules stay pure at import."""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
GAME_IDS = sorted(GAMES)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_game_is_a_package_of_small_files(game_id):
    module = importlib.import_module(type(GAMES[game_id]).__module__)
    folder = Path(module.__file__).parent
    assert Path(module.__file__).name == "__init__.py", f"{game_id} is one module, not a package"
    assert folder.parent == ROOT / "companion" / "games"
    for path in folder.glob("*.py"):
        lines = len(path.read_text().splitlines())
        assert lines <= 420, f"{path.relative_to(ROOT)} has {lines} lines"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_game_has_its_template_regions_and_rules(game_id):
    game = GAMES[game_id]
    template = ROOT / "templates" / "games" / game_id / "table.html"
    assert template.is_file(), f"templates/games/{game_id}/table.html is missing"
    blocks = set(re.findall(r"{%-?\s*block\s+(\w+)", template.read_text()))
    assert set(game.regions) <= blocks, f"regions without a block: {set(game.regions) - blocks}"
    assert (ROOT / "companion" / "rules" / "content" / f"{game_id}.md").is_file()
    if game.quick_score_model is not None:
        assert (ROOT / "templates" / "games" / game_id / "score.html").is_file()


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_is_offered_and_titled_from_the_registry(client, game_id):
    from companion.rules import GAME_TITLES

    game = GAMES[game_id]
    assert GAME_TITLES[game_id] == game.name
    home = client.get("/").get_data(as_text=True)
    assert f'href="/new/{game_id}"' in home
    assert client.get(f"/rules/{game_id}").status_code == 200


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_game_declares_its_moves(game_id):
    game = GAMES[game_id]
    assert game.moves, f"{game_id} does not declare its moves"
    assert {move.kind for move in game.moves} <= set(game.action_types())


def test_importing_the_games_loads_no_web_framework_and_no_database():
    probe = ("import json, sys; import companion.games; "
             "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))")
    loaded = set(json.loads(subprocess.run([sys.executable, "-c", probe], cwd=ROOT, check=True,
                                           capture_output=True, text=True).stdout))
    assert not loaded & {"flask", "werkzeug", "jinja2", "sqlalchemy", "sqlmodel", "psycopg",
                         "gevent", "flask_wtf", "markupsafe"}, loaded
