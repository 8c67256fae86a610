"""How the scripts are minified: terser's copy (made at set-up by minify.mjs, named by the hash
of its source) while the source is unchanged, rjsmin's once it changed since; and static/ kept
in parts a reader can hold in mind, as companion/ is."""

from __future__ import annotations

from pathlib import Path

from companion.web.assets import PREMADE, Assets, premade_name

STATIC = Path(__file__).resolve().parents[2] / "static"
SOURCE = "(function () {\n  // Said once.\n  const longName = 1;\n  window.x = longName;\n})();\n"


def test_a_script_is_served_as_terser_made_it_while_its_source_is_unchanged(tmp_path):
    (tmp_path / "part.js").write_text(SOURCE)
    copy = tmp_path / PREMADE / premade_name(SOURCE.encode())
    copy.parent.mkdir(parents=True)
    copy.write_text("window.x=1;")
    assert Assets(str(tmp_path), minify=True).get("part.js").bodies[None] == b"window.x=1;"
    assert Assets(str(tmp_path), minify=False).get("part.js").bodies[None] == SOURCE.encode()


def test_a_script_changed_since_set_up_is_minified_by_rjsmin(tmp_path):
    (tmp_path / "part.js").write_text(SOURCE.replace("1", "2"))
    copy = tmp_path / PREMADE / premade_name(SOURCE.encode())  # of the source before
    copy.parent.mkdir(parents=True)
    copy.write_text("window.x=1;")
    body = Assets(str(tmp_path), minify=True).get("part.js").bodies[None]
    assert b"longName=2" in body and b"Said once" not in body


def test_every_script_of_the_checkout_has_its_terser_copy():
    """`make setup` made them (make test runs it first); the figures of test_first_load.py
    are those of terser's copies."""
    stale = [str(path.relative_to(STATIC)) for path in STATIC.rglob("*.js")
             if STATIC / PREMADE not in path.parents
             and not (STATIC / PREMADE / premade_name(path.read_bytes())).is_file()]
    assert not stale, f"run `make setup`: no terser copy of {', '.join(stale)}"


def test_no_script_or_style_sheet_of_ours_is_over_500_lines():
    long = []
    for path in [*STATIC.rglob("*.js"), *STATIC.rglob("*.css")]:
        if STATIC / "vendor" not in path.parents:
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > 500:
                long.append(f"{path.relative_to(STATIC)}: {lines} lines")
    assert not long, long
