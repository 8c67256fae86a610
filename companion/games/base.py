"""What every game module provides: pure rules, no web framework and no database.

A game is a subclass of :class:`Game`. Its state is JSON-serialisable data (dicts,
lists, strings, numbers, booleans); ``apply`` returns a new state and never mutates
the one it was given; an illegal move raises :class:`GameError` with a sentence a
player at the table understands.
"""

from __future__ import annotations

import copy
from typing import Annotated, Any, ClassVar, Union

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter, ValidationError


class GameError(Exception):
    """An illegal move or impossible input, explained in one human sentence."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _no_bool(value: Any) -> Any:
    if isinstance(value, bool):
        raise ValueError("expected a whole number, not true/false")
    return value


# A whole number that also arrives as a form string ("5") but never as true/false.
Whole = Annotated[int, BeforeValidator(_no_bool)]


class Action(BaseModel):
    """Base of every action payload; subclasses set ``type`` to a ``Literal``."""

    model_config = ConfigDict(extra="forbid")

    type: str


class Options(BaseModel):
    """Base of every game's table options (all fields need defaults)."""

    model_config = ConfigDict(extra="forbid")


def field_label(loc: tuple) -> str:
    """Turn a pydantic error location into the name a player typed or an API caller sent."""
    parts = [str(p) for p in loc if not (isinstance(p, str) and p.startswith("function-"))]
    if not parts:
        return "input"
    label = parts[0]
    for part in parts[1:]:
        label += f"[{part}]" if part.isdigit() else f".{part}"
    return label


def explain(exc: ValidationError, skip_first: bool = False) -> str:
    """One sentence naming the first problem of a validation error."""
    error = exc.errors(include_url=False)[0]
    loc = tuple(error.get("loc", ()))
    if skip_first and loc:
        loc = loc[1:]
    message = error.get("msg", "is not valid")
    if error.get("type") == "missing":
        return f"The field '{field_label(loc)}' is missing."
    if error.get("type") == "extra_forbidden":
        return f"The field '{field_label(loc)}' is not expected here."
    if message.startswith("Value error, "):
        message = message[len("Value error, "):].rstrip(".")
        if not loc:  # a whole-model check already names what it is about
            return message + "."
    return f"The field '{field_label(loc)}' is not valid: {message[0].lower() + message[1:].rstrip('.')}."


class Game:
    """A game module. Subclasses fill in the class attributes and override the methods."""

    id: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str] = ""
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    cooperative: ClassVar[bool] = False
    options_model: ClassVar[type[Options]] = Options
    actions: ClassVar[tuple[type[Action], ...]] = ()
    # Blocks of templates/games/<id>/table.html that change with the state; each one is
    # a live region swapped in place on every phone.
    regions: ClassVar[tuple[str, ...]] = ()
    # Games that can be scored from final piles alone offer a quick score (page and JSON).
    quick_score_model: ClassVar[type[BaseModel] | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.actions:
            union = Union[tuple(cls.actions)] if len(cls.actions) > 1 else cls.actions[0]
            if len(cls.actions) > 1:
                union = Annotated[union, Field(discriminator="type")]
            cls._action_adapter = TypeAdapter(union)

    # -- names and templates -------------------------------------------------
    @property
    def template(self) -> str:
        return f"games/{self.id}/table.html"

    def action_types(self) -> list[str]:
        return [model.model_fields["type"].default for model in self.actions]

    # -- input ---------------------------------------------------------------
    def parse_options(self, raw: dict | None) -> Options:
        """Validate table options; raise GameError naming the problem."""
        try:
            return self.options_model.model_validate(raw or {})
        except ValidationError as exc:
            raise GameError(explain(exc)) from None

    def parse_action(self, raw: dict) -> Action:
        """Validate an action payload against this game's action models."""
        if not isinstance(raw, dict):
            raise GameError("An action must be an object with a 'type' field.")
        kind = raw.get("type")
        known = self.action_types()
        if kind not in known:
            shown = f"'{kind}'" if isinstance(kind, str) and kind else "missing"
            raise GameError(
                f"The action type is {shown}; {self.name} knows: {', '.join(known)}."
            )
        try:
            return self._action_adapter.validate_python(raw)
        except ValidationError as exc:
            skip = len(self.actions) > 1
            raise GameError(explain(exc, skip_first=skip)) from None

    # -- rules (override) ----------------------------------------------------
    def initial_state(self, players: list[str], options: Options) -> dict:
        raise NotImplementedError

    def apply(self, state: dict, action: Action, actor: str | None) -> dict:
        """Return the state after ``action``; ``actor`` is the seat that made it (None: host)."""
        raise NotImplementedError

    def describe(self, state: dict, action: Action, actor: str | None) -> str:
        """A log sentence for ``action`` made against ``state`` (the state before it)."""
        who = actor or "The host"
        return f"{who}: {action.type.replace('_', ' ')}."

    def is_over(self, state: dict) -> bool:
        return bool(state.get("finished"))

    def scores(self, state: dict) -> dict[str, int] | None:
        """Points per player name where the game has them, else None."""
        return None

    def winners(self, state: dict) -> list[str]:
        """The winners' names once over (several for a shared win, all for a co-op win)."""
        return []

    def status(self, state: dict) -> str:
        """One line for the top of the table page: whose turn, what happens next, the result."""
        return ""

    def view(self, state: dict) -> dict:
        """Extra template context derived from the state (totals, odds, layouts)."""
        return {}

    def quick_score(self, payload: dict) -> dict:
        """Score final piles without a table; raise GameError when they are impossible."""
        raise GameError(f"{self.name} has no quick score.")

    def quick_score_payload(self, form: dict[str, list[str]]) -> dict:
        """Turn the quick-score page's form (field -> values) into a quick_score payload."""
        raise GameError(f"{self.name} has no quick score.")

    # -- helpers for subclasses ------------------------------------------------
    @staticmethod
    def copy(state: dict) -> dict:
        return copy.deepcopy(state)

    @staticmethod
    def best(totals: dict[str, int], highest: bool = True) -> list[str]:
        """Everyone on the best total, in seating order (several: a shared win)."""
        target = (max if highest else min)(totals.values())
        return [name for name, total in totals.items() if total == target]
