"""What the templates get besides Flask's own: the live regions' attributes and renderer, the
"?" beside a control that opens its rule, and indentation dropped as a template compiles."""

from __future__ import annotations

import re

from flask import Flask, has_request_context, request, url_for
from flask_babel import gettext as _
from jinja2.ext import Extension
from markupsafe import Markup, escape

from ..live.regions import TrackingContext, region


def init_templating(app: Flask) -> None:
    app.jinja_env.globals["region"] = region
    app.jinja_env.globals["help"] = help_link
    app.jinja_env.add_extension(Unindented)
    app.jinja_env.context_class = TrackingContext  # regions note the names they read
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True


_HELP_LINKS: dict[tuple, Markup] = {}


def help_link(game_id: str, section: str, label=None) -> Markup:
    """``help(game_id, section, label)`` in templates: a "?" that opens the rules section a
    control depends on, in place (app/forms.js; without script, a link to the section on the
    game's rules page). The same few links recur in every region of every change; each is
    drawn once per address and label (its words, in the phone's language)."""
    shown = escape(label or _("How does this work?"))
    key = (request.script_root if has_request_context() else "", game_id, section, str(shown))
    link = _HELP_LINKS.get(key)
    if link is None:
        if len(_HELP_LINKS) > 5000:  # labels are the templates' own words: never reached
            _HELP_LINKS.clear()
        link = _HELP_LINKS[key] = Markup(
            '<a class="help" href="{}#{}" aria-label="{}" title="{}">?</a>').format(
            url_for("rules.game", game_id=game_id), section, shown, shown)
    return link


class Unindented(Extension):
    """The templates are indented for reading; the phones need none of it. Each line's leading
    spaces and tabs go as a template is compiled (the line breaks stay, so words still part
    where they did; no template holds a multi-line string, a <pre> or a textarea's text on a
    line of its own): pages and live updates are smaller, compressed too."""

    INDENT = re.compile(r"\n[ \t]+")

    def preprocess(self, source, name, filename=None):
        return self.INDENT.sub("\n", source)
