"""Rules lookup: the rules pages, the search, the overlay's fragments and the JSON."""

from __future__ import annotations

from flask import Blueprint, Response, abort, render_template, request
from jinja2_fragments.flask import render_block
from markupsafe import Markup
from pydantic import BaseModel, ConfigDict, Field, RootModel, ValidationError

from ...games.refusals import explain
from ...games.text import say
from ..i18n import select_language
from ..openapi import Error, documented, query_args, reply
from ...rules import RulesError, UnknownGame, UnknownSection, load_library
from ..phone import is_fragment_request, vary

bp = Blueprint("rules", __name__)


def _words(problem: RulesError) -> str:
    """A rules error's sentence in the phone's language."""
    return say(problem.args[0]) if problem.args else str(problem)


def _results(query: str, game: str | None):
    """Search hits, or the sentence that says why the query was not searched."""
    library = load_library()
    if game and game not in {g.id for g in library.games()}:
        game = None  # a page about a game without rules: search everything
    try:
        return library.search(query, game=game, limit=12, lang=select_language()), None
    except RulesError as problem:
        return [], _words(problem)


@bp.get("/rules")
def index():
    """Every game's rules, and the search box."""
    return render_template("rules/index.html", games=load_library().games(select_language()))


@bp.get("/rules/search")
def search():
    """Search results: a page, or the overlay's list when htmx asks."""
    query = request.args.get("q", "")
    game = request.args.get("game") or None
    hits, problem = _results(query, game)
    context = {"query": query, "game_id": game or "", "hits": hits, "problem": problem,
               "games": load_library().games(select_language())}
    if is_fragment_request():
        return vary(Response(render_block("rules/search.html", "results", **context)))
    return vary(Response(render_template("rules/search.html", **context)))


@bp.get("/rules/<game_id>")
def game(game_id: str):
    """One game's rules as a page of sections with a table of contents."""
    try:
        rules = load_library().game(game_id, select_language())
    except UnknownGame:
        abort(404)
    return render_template("rules/game.html", rules=rules)


@bp.get("/rules/<game_id>/<section_id>")
def section(game_id: str, section_id: str):
    """One section, to read in place (the overlay) or on its own page."""
    try:
        lang = select_language()
        found = load_library().section(game_id, section_id, lang)
        rules = load_library().game(game_id, lang)
    except (UnknownGame, UnknownSection) as problem:
        return _section_response({"section": None, "message": _words(problem)}, 404)
    return _section_response({"section": found, "rules": rules, "body": Markup(found.html)})


def _section_response(context: dict, status: int = 200) -> Response:
    """The section block alone for the overlay, or the whole page for a plain link."""
    if is_fragment_request():
        return vary(Response(render_block("rules/section.html", "section", **context), status))
    return vary(Response(render_template("rules/section.html", **context), status))


# -- JSON ------------------------------------------------------------------------------------


class RulesQuery(BaseModel):
    """What the search API reads from the query string."""

    model_config = ConfigDict(extra="ignore")
    q: str = Field("", description="The player's question; blank gives no hits.")
    game: str | None = Field(None, description="The current game: its sections come first.")
    limit: int = Field(10, description="At most this many hits (capped at 50).")


class RulesHit(BaseModel):
    """One section found by the search."""

    model_config = ConfigDict(extra="forbid")
    game: str
    section: str
    title: str
    snippet: str = Field(description="An excerpt as HTML, the matches in <mark>.")
    url: str = Field(description="The section's place on the game's rules page.")
    score: float = Field(description="How well it matches; the list is best first.")


class RulesHits(RootModel[list[RulesHit]]):
    """Search hits: the given game's sections first, each group best first."""


class RulesSection(BaseModel):
    """One section of a game's rules."""

    model_config = ConfigDict(extra="forbid")
    section: str = Field(description="The section id.")
    title: str
    tags: list[str]
    aliases: list[str]
    markdown: str
    html: str
    url: str


class RulesSections(RootModel[list[RulesSection]]):
    """A game's rules, section by section in reading order."""


@bp.get("/api/rules/search")
@documented(query=RulesQuery, responses={
    200: RulesHits, 404: (Error, "No rules for that game"),
    422: (Error, "The query is too long or the limit not a number")})
def api_search():
    """JSON search: best first, the given game's sections before the others."""
    try:
        query = RulesQuery.model_validate(query_args())
    except ValidationError as exc:
        return reply(Error(error=say(explain(exc)), kind="invalid"), 422)
    try:
        hits = load_library().search(query.q, game=query.game or None, limit=query.limit,
                                     lang=select_language())
    except UnknownGame as problem:
        return reply(Error(error=_words(problem), kind="not_found"), 404)
    except RulesError as problem:
        return reply(Error(error=_words(problem), kind="invalid"), 422)
    return reply(RulesHits([RulesHit.model_validate(hit.as_dict()) for hit in hits]))


@bp.get("/api/rules/<game_id>")
@documented(path={"game_id": "A game id with rules."},
            responses={200: RulesSections, 404: (Error, "No rules for that game")})
def api_game(game_id: str):
    """One game's sections as JSON."""
    try:
        sections = load_library().sections(game_id, select_language())
    except UnknownGame as problem:
        return reply(Error(error=_words(problem), kind="not_found"), 404)
    return reply(RulesSections([
        RulesSection(section=s.id, title=s.title, tags=list(s.tags), aliases=list(s.aliases),
                     markdown=s.body, html=s.html, url=s.url_path)
        for s in sections
    ]))
