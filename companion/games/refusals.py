"""A move, options or a quick score that do not parse, refused in one sentence a player (or an
API caller) reads in their language: the first problem pydantic found, the field named."""

from __future__ import annotations

from pydantic import ValidationError

from .text import N_, Name, Sentence, quote


def field_label(loc: tuple) -> str:
    """Turn a pydantic error location into the name a player typed or an API caller sent."""
    parts = [str(p) for p in loc if not (isinstance(p, str) and p.startswith("function-"))]
    if not parts:
        return "input"
    label = parts[0]
    for part in parts[1:]:
        label += f"[{part}]" if part.isdigit() else f".{part}"
    return quote(label, 40)  # a field name comes from the caller


# What pydantic's common error types mean, in words that can be translated (the rest keep
# pydantic's English).
_PROBLEMS = {
    "int_type": N_("expected a whole number"),
    "int_parsing": N_("expected a whole number"),
    "int_from_float": N_("expected a whole number"),
    "string_type": N_("expected text"),
    "bool_type": N_("expected true or false"),
    "bool_parsing": N_("expected true or false"),
    "list_type": N_("expected a list"),
    "dict_type": N_("expected an object"),
    "model_type": N_("expected an object"),
    "float_type": N_("expected a number"),
    "float_parsing": N_("expected a number"),
}
_BOUNDED = {
    "greater_than_equal": ("ge", Sentence("must be at least %(limit)s")),
    "greater_than": ("gt", Sentence("must be more than %(limit)s")),
    "less_than_equal": ("le", Sentence("must be at most %(limit)s")),
    "less_than": ("lt", Sentence("must be less than %(limit)s")),
    "string_too_short": ("min_length", Sentence("must have at least %(limit)s characters")),
    "string_too_long": ("max_length", Sentence("must have at most %(limit)s characters")),
    "too_short": ("min_length", Sentence("must have at least %(limit)s items")),
    "too_long": ("max_length", Sentence("must have at most %(limit)s items")),
}


def _problem(error: dict) -> "Name | Sentence | str":
    kind = error.get("type", "")
    ctx = error.get("ctx") or {}
    if kind in ("too_short", "too_long") and isinstance(error.get("input"), str):
        kind = f"string_{kind}"  # a text's length checked after a validator of its own (a name)
    if kind in _PROBLEMS:
        return _PROBLEMS[kind]
    if kind in _BOUNDED:
        key, sentence = _BOUNDED[kind]
        return Sentence(sentence.text, limit=ctx.get(key, "?"))
    if kind == "literal_error":
        return Sentence("expected one of: %(choices)s", choices=str(ctx.get("expected", "")))
    if kind == "enum":
        return Sentence("expected one of: %(choices)s", choices=str(ctx.get("expected", "")))
    message = error.get("msg", "is not valid")
    if message.startswith("Value error, "):  # our own validators: a name that may translate
        message = message[len("Value error, "):].rstrip(".")
        return Name(message)
    return message[0].lower() + message[1:].rstrip(".")


def explain(exc: ValidationError, skip_first: bool = False) -> Sentence:
    """One sentence naming the first problem of a validation error."""
    error = exc.errors(include_url=False)[0]
    loc = tuple(error.get("loc", ()))
    if skip_first and loc:
        loc = loc[1:]
    if error.get("type") == "missing":
        return Sentence("The field '%(field)s' is missing.", field=field_label(loc))
    if error.get("type") == "extra_forbidden":
        return Sentence("The field '%(field)s' is not expected here.", field=field_label(loc))
    problem = _problem(error)
    if not loc and isinstance(problem, Name):  # a whole-model check already names its subject
        return Sentence("%(problem)s.", problem=problem)
    return Sentence("The field '%(field)s' is not valid: %(problem)s.",
                    field=field_label(loc), problem=problem)
