"""The layout shows the architecture (docs/architecture.md): the pure games, the table service,
live push, the web layer, the command line, each importing only the ones before it; no import
circles, imports inside functions counted too; no function over 80 lines; and pyproject.toml
declares every package the app imports when it runs (PostgreSQL's driver as an extra)."""

from __future__ import annotations

import ast
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "companion"
# Each layer may import the ones listed for it (and itself); the rules library sits beside the
# games, and the package's own __init__ only builds the app on demand.
LAYERS = {
    "companion.games": set(),
    "companion.rules": {"companion.games"},
    "companion.service": {"companion.games"},
    "companion.live": {"companion.games", "companion.service"},
    "companion.web": {"companion.games", "companion.rules", "companion.service",
                      "companion.live"},
    "companion.cli": {"companion", "companion.web"},
    "companion": {"companion.web"},
}


def module_name(path: Path) -> str:
    parts = list(path.with_suffix("").relative_to(ROOT).parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in PACKAGE.rglob("*.py")}


class Imports(ast.NodeVisitor):
    """The modules one module imports (of the package: the deepest that exists), and which of
    its imports sit inside a function."""

    def __init__(self, name: str, is_package: bool, known: dict[str, Path]):
        self.name, self.is_package, self.known = name, is_package, known
        self.found: set[str] = set()
        self.outside: set[str] = set()  # third-party and standard modules, top level names
        self.in_functions: list[str] = []
        self.functions = 0

    def visit_FunctionDef(self, node):
        self.functions += 1
        self.generic_visit(node)
        self.functions -= 1

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Import(self, node):
        self._note(node, [alias.name for alias in node.names])

    def visit_ImportFrom(self, node):
        if node.level:
            base = self.name.split(".")[: None if self.is_package else -1]
            base = base[: len(base) - (node.level - 1)]
            prefix = ".".join(base + ([node.module] if node.module else []))
        else:
            prefix = node.module
        self._note(node, [f"{prefix}.{alias.name}" if f"{prefix}.{alias.name}" in self.known
                          else prefix for alias in node.names])

    def _note(self, node, targets: list[str]) -> None:
        if self.functions:
            self.in_functions.append(f"{self.name}: {ast.unparse(node)}")
        for target in targets:
            if not target.startswith("companion"):
                self.outside.add(target.split(".")[0])
                continue
            while target not in self.known:
                target = target.rpartition(".")[0]
            if target != self.name:
                self.found.add(target)


def imports() -> dict[str, Imports]:
    known = modules()
    found = {}
    for name, path in known.items():
        visitor = Imports(name, path.name == "__init__.py", known)
        visitor.visit(ast.parse(path.read_text(), str(path)))
        found[name] = visitor
    return found


def layer_of(name: str) -> str:
    return next(layer for layer in sorted(LAYERS, key=len, reverse=True)
                if name == layer or name.startswith(layer + "."))


def test_each_layer_imports_only_the_layers_before_it():
    wrong = [f"{name} imports {target}" for name, visitor in imports().items()
             for target in visitor.found
             if layer_of(target) != layer_of(name)
             and layer_of(target) not in LAYERS[layer_of(name)]]
    assert wrong == []


# What no module of a layer may import from outside: the games, rules and table service know
# nothing of the web (Flask, its extensions, Werkzeug, Jinja), so they run in a script or a
# test without an app; live push serves Flask but through its public API only.
WEB_ONLY = {"flask", "flask_babel", "flask_wtf", "flask_limiter", "flask_talisman",
            "flask_compress", "jinja2", "jinja2_fragments", "werkzeug", "gunicorn"}
FORBIDDEN_OUTSIDE = {
    "companion.games": WEB_ONLY | {"sqlalchemy", "sqlmodel", "gevent"},
    "companion.rules": WEB_ONLY | {"sqlalchemy", "sqlmodel", "gevent"},
    "companion.service": WEB_ONLY,
}


def test_the_games_rules_and_service_import_nothing_of_the_web():
    wrong = sorted(f"{name} imports {outside}" for name, visitor in imports().items()
                   for outside in visitor.outside
                   if outside in FORBIDDEN_OUTSIDE.get(layer_of(name), ()))
    assert wrong == []


def test_live_push_uses_no_private_flask_api_and_names_no_web_endpoint():
    private = []
    for path in (PACKAGE / "live").glob("*.py"):
        text = path.read_text()
        private += [f"{path.name}: {word}" for word in ("request_ctx", "_get_current_object",
                                                         "_app_ctx", "url_for(\"")
                    if word in text]
    assert private == []


def test_no_module_imports_itself_round_a_circle():
    graph = {name: visitor.found for name, visitor in imports().items()}
    circles, state = [], {}

    def visit(name: str, path: list[str]) -> None:
        state[name] = "open"
        for target in sorted(graph[name]):
            if state.get(target) == "open":
                circles.append(path[path.index(target):] + [target])
            elif target not in state:
                visit(target, path + [target])
        state[name] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert circles == []


def test_few_imports_hide_inside_functions():
    hidden = [line for visitor in imports().values() for line in visitor.in_functions]
    assert len(hidden) < 10, hidden


def test_no_function_is_longer_than_80_lines():
    long = []
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > 80:
                    long.append(f"{name}.{node.name}: {lines} lines")
    assert long == []


# A module a newcomer holds in their head (static/: tests/web/test_assets.py).
MOST_LINES = {PACKAGE: 500, ROOT / "bench": 600}


def test_no_module_of_the_app_or_the_bench_is_too_long_to_hold_in_ones_head():
    results = ROOT / "bench" / "results"  # what the bench writes, the baselines' code too
    long = [f"{path.relative_to(ROOT)}: {lines} lines" for folder, most in MOST_LINES.items()
            for path in sorted(folder.rglob("*.py")) if results not in path.parents
            if (lines := len(path.read_text().splitlines())) > most]
    assert long == []


@pytest.mark.skipif(sys.version_info < (3, 11), reason="tomllib")
def test_pyproject_declares_every_package_the_app_imports():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    # PostgreSQL's driver is the postgres extra: SQLite, the default, needs none.
    declared = {Requirement(line).name.lower().replace("_", "-") for line in
                project["dependencies"] + project["optional-dependencies"]["postgres"]}
    providers = packages_distributions()
    used = set().union(*(visitor.outside for visitor in imports().values()))
    missing = sorted(f"{module} ({', '.join(providers[module])})" for module in used
                     if module not in sys.stdlib_module_names and module != "__future__"
                     and not {name.lower().replace("_", "-") for name in providers.get(module, [module])}
                     & declared)
    assert missing == []
