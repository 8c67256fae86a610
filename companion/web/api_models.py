"""The JSON API's models: what each request's body and query may hold, and what each answer
holds. The views (``views/api.py``) read and answer through them, and the document
(``openapi.py``) describes them, so the two cannot differ."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import (AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, RootModel,
                      StrictInt, create_model)

from ..games import GAMES
from ..games.base import Game
from ..games.patterns import NO_CONTROLS_PATTERN
from ..games.text import N_
from ..service.groups import GROUP_NAME_MAX
from ..service.inputs import CONTROL, NAME_MAX, name_pattern, tidy_name
from ..service.tables import LOG_PAGE
from .openapi import FreeObject

# -- the requests ------------------------------------------------------------------------------


def _tidied(least: int, most: int):
    """A name as sent (at most ``most`` characters, checked before) holds no control character
    (what the document says); then it is what the server keeps (``inputs.tidy_name``), with
    something visible in it when ``least``."""

    def tidy(value: str) -> str:
        if CONTROL.search(value):
            raise ValueError(N_("holds a control character (a tab, a line break or another)"))
        kept = tidy_name(value)
        if len(kept) < least:
            raise ValueError(N_("needs a letter or another visible character"))
        if len(kept) > most:  # a few characters take more than one in their usual form (NFC)
            raise ValueError(N_("is too long once written in its usual form"))
        return kept

    return tidy


def _named(schema: dict) -> None:
    schema["pattern"] = name_pattern()  # something visible must be left (built on first use)


def _no_controls(schema: dict) -> None:
    schema["pattern"] = NO_CONTROLS_PATTERN


def name_text(most: int, least: int = 1) -> Any:
    """A person's or group's name: ``least``–``most`` characters as sent, no control
    character, then tidied; the document says the lengths, the control characters and, for a
    name that must be there, that something visible is in it."""
    return Annotated[str, Field(min_length=least, max_length=most,
                                json_schema_extra=_named if least else _no_controls),
                     AfterValidator(_tidied(least, most))]


SeatName = name_text(NAME_MAX)


class CreateTableFields(BaseModel):
    """What every game's table takes besides its game, seats and options."""

    model_config = ConfigDict(extra="forbid")
    group: str | None = Field(None, description="A group's code: the table's end becomes one "
                                                 "of the group's plays.")
    seat_players: dict[str, name_text(NAME_MAX, least=0)] | None = Field(
        None, description="With a group: the group player's name per seat (default: the "
                          "seat's own name; empty: the seat is no group player).")
    coach: bool = Field(False, strict=True, description="Teaching mode (\"Our first game\"): "
                        "every phone shows what to do now; the host may switch it later.")


def _create_model(game: Game) -> type[CreateTableFields]:
    """The body that starts a table of ``game``: its seats as many as it is played by, its own
    options."""
    return create_model(
        f"Create{type(game).__name__}Table", __base__=CreateTableFields,
        __doc__=f"Start a table of {game.name}; the answer's token is the host's.",
        game=(Literal[game.id], Field(description="A game id from GET /api/games.")),
        players=(list[SeatName], Field(
            min_length=game.min_players, max_length=game.max_players,
            description=f"Seat names, {game.min_players}–{game.max_players} of them, each "
                        f"1–{NAME_MAX} characters, all different (case aside).",
            json_schema_extra={"uniqueItems": True})),
        options=(game.options_model, Field(default_factory=game.options_model,
                                           description="The game's table options.")),
    )


CREATE_MODELS = {game.id: _create_model(game) for game in GAMES.values()}


class CreateTable(RootModel[Annotated[Union[tuple(CREATE_MODELS.values())],  # noqa: UP007
                                      Field(discriminator="game")]]):
    """Start a table; the answer's token is the host's. The game decides the number of seats
    and the options."""


class CreateGroup(BaseModel):
    """Start a group of players (more players join it as its tables are set up)."""

    model_config = ConfigDict(extra="forbid")
    name: name_text(GROUP_NAME_MAX) = Field(
        description=f"The group's name, 1–{GROUP_NAME_MAX} characters.")
    players: list[SeatName] = Field(default_factory=list,
                                    description=f"Player names, 1–{NAME_MAX} characters.")


def _seat_or_watch(schema: dict) -> None:
    # tables.join_table: a seat with a name in it, or watching (then any seat is ignored).
    schema["anyOf"] = [
        {"required": ["seat"], "properties": {"seat": {"type": "string",
                                                       "pattern": name_pattern()}}},
        {"required": ["watch"], "properties": {"watch": {"const": True}}},
    ]


class JoinTable(BaseModel):
    """Take a seat by its player name, or watch."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=_seat_or_watch)
    seat: name_text(NAME_MAX, least=0) | None = Field(
        None, description="The player whose seat to take (needed unless watching).")
    watch: bool = Field(False, strict=True,
                        description="Join as a watcher who cannot change anything.")


def whole_float(value: Any) -> Any:
    """7.0 is the number 7 in JSON (and to JSON Schema's "integer"); anything else as sent."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


class VersionOnly(BaseModel):
    """Only the version the caller saw, for undo and redo."""

    model_config = ConfigDict(extra="forbid")
    expected_version: Annotated[StrictInt, BeforeValidator(whole_float)] | None = Field(
        None, ge=0, description="The table's state_version the caller saw (a whole number); "
        "older than the table's → 409, unless every change since was this token's own."
    )


class Rematch(BaseModel):
    """Start the rematch of an ended game."""

    model_config = ConfigDict(extra="forbid")
    rotate: bool = Field(False, description="The next player in seat order starts.")


# -- the answers ---------------------------------------------------------------------------


class Answer(BaseModel):
    # An answer with a field the model lacks is a bug, not something to drop quietly.
    model_config = ConfigDict(extra="forbid")


class GameInfo(Answer):
    """A game this companion tracks."""

    id: str = Field(description="The game id to start a table with.")
    name: str
    min_players: int
    max_players: int
    cooperative: bool = Field(description="Everyone wins or loses together.")


class GameList(RootModel[list[GameInfo]]):
    """Every game this companion tracks."""


class Created(Answer):
    """A new table; the token is the host's."""

    code: str = Field(description="The table's six-character code.")
    url: str = Field(description="The join page, for the QR code.")
    token: str = Field(description="The host's bearer token.")
    version: int


class Joined(Answer):
    """A phone joined: its bearer token and its seat (none for a watcher)."""

    token: str = Field(description="The phone's bearer token.")
    seat: str | None = Field(description="The seat taken; null for a watcher.")
    version: int


class RematchJoined(Answer):
    """The rematch's table and the caller's place at it (same seat; host if host before)."""

    code: str
    url: str
    token: str = Field(description="The caller's bearer token at the new table.")
    seat: str | None
    version: int


class LogLine(Answer):
    """One entry of the table's log."""

    seq: int = Field(description="The table version the entry made.")
    kind: Literal["action", "undo", "redo", "admin"]
    actor: str | None = Field(description="The seat that made it; null for the host or a script.")
    text: str = Field(description="What happened, in a sentence.")
    at: str = Field(description="When, in ISO 8601.", json_schema_extra={"format": "date-time"})


class Snapshot(Answer):
    """The table: its game's state, scores, winners and the log, newest first."""

    code: str
    game: str = Field(description="The game id.")
    version: int = Field(description="Bumped by every change to the table.")
    state_version: int = Field(
        description="Bumped by changes to the game: what expected_version is checked against.")
    players: list[str] = Field(description="The seats, in seat order.")
    options: dict[str, Any] = Field(description="The game's table options.")
    state: dict[str, Any] = Field(description="The game's own state (its shape is the game's).")
    scores: dict[str, int] | None = Field(
        description="Points per player in seat order, where the game has points.")
    finished: bool
    winners: list[str]
    status: str = Field(description="One line: whose turn, what happens next, the result.")
    locked: bool = Field(description="The host closed the table to new phones.")
    coach: bool = Field(description="Teaching mode: every phone shows what to do now.")
    can_undo: bool
    can_redo: bool
    log: list[LogLine] = Field(description="The newest entries (50, or as many as ?log= asks).")
    log_next: int | None = Field(
        description="More entries are older: ask GET /api/tables/{code}?log_before=<this> "
                    "for the next page. Null: the log is complete.")


class LogPage(BaseModel):
    """Which part of the log a snapshot carries."""

    model_config = ConfigDict(extra="forbid")
    log: int = Field(LOG_PAGE, ge=1, le=500, description="How many log entries, newest first.")
    log_before: int | None = Field(
        None, ge=1, le=2**31 - 1, description="Only entries before this version (the log_next of a snapshot).")


class PlayPlayer(Answer):
    """One player of a play."""

    name: str = Field(description="The group player's name.")
    score: int | None = Field(description="Final score; null where the game has none.")
    winner: bool


class PlayRecord(Answer):
    """One finished game of a group."""

    uid: str = Field(description="Stable id: importing a play twice adds it once.")
    game: str = Field(description="The game id.")
    bgg_id: int | None = Field(description="BoardGameGeek's id of the game, where known.")
    started_at: str = Field(json_schema_extra={"format": "date-time"})
    ended_at: str = Field(json_schema_extra={"format": "date-time"})
    duration_minutes: int
    players: list[PlayPlayer] = Field(description="In seat order.")
    cooperative: bool = Field(description="Everyone won or lost together.")
    result: Literal["won", "lost"] | None = Field(description="A cooperative game's result.")
    facts: dict[str, Any] = Field(description="What the game's end showed (per game).")
    corrected_at: str | None = Field(None, json_schema_extra={"format": "date-time"}, description=(
        "When its table last changed the result after the end; null if it never did."))
    reopened: bool = Field(False, description="Its table's end was undone: the result may "
                                              "still change there.")


class GroupInfo(Answer):
    """A group: its players and plays, newest first."""

    code: str
    name: str
    url: str = Field(description="The group's page, for its QR code.")
    players: list[str]
    plays: list[PlayRecord]


class CreatedGroup(GroupInfo):
    """A new group, and the key that changes its history."""

    owner_key: str = Field(description="The group's owner key: send it as the bearer token to "
                                        "import plays; its page's owner link carries it too. "
                                        "Answered only now: keep it.")


class PlayExport(Answer):
    """A group's plays as exported and imported (format table-companion-plays/1)."""

    format: str
    group: str
    players: list[str]
    plays: list[PlayRecord]


class Imported(Answer):
    """What an import added."""

    added: int = Field(description="Plays new to the group (the others it had already).")
    plays: int = Field(description="Plays of the group now.")
    conflicts: list[str] = Field(description="Ids of plays the group had already with other "
                                             "content (game, times, players, scores, result): "
                                             "left as they were, not overwritten.")


class DeletedPlay(Answer):
    """What deleting a play left."""

    deleted: str = Field(description="The deleted play's id; the group page's undo brings it "
                                     "back.")
    plays: int = Field(description="Plays of the group now.")


class GroupStats(FreeObject):
    """Statistics of a group: per game and per player, head-to-head, trends and insights."""


class QuickScoreResult(FreeObject):
    """The game's own result of a quick score (its keys are the game's; see its rules)."""


class OpenAPIDocument(FreeObject):
    """This document."""
