"""The teaching mode, "Our first game": the companion as the person at the table who knows it.

Each game says, for any state, what happens at the table now (``Game.coach``: a ``Coach``)
and how a first game opens (``Game.intro``: an ``Intro``). The table page shows the coach
card at the top of every phone while the host has the mode on: the sentence, the control it
names highlighted, a "Why?" to the rules section behind it, and, on the acting player's own
phone, a hint. Pure, like the games: no Flask, no database; the words are ``Sentence``s, so
each phone reads them in its own language.
"""

from __future__ import annotations

from dataclasses import dataclass

from .text import Sentence

# A player who has made a kind of move this often sees the card for it as one line.
SHORT_AFTER = 3


@dataclass(frozen=True)
class Coach:
    """What the table does now, for people new to the game."""

    say: Sentence  # one or two short sentences for this exact moment, naming who acts
    player: str | None = None  # who acts now (None: the whole table, or the host)
    control: str | None = None  # the action type of the control to tap, highlighted on the page
    rule: str | None = None  # the rules section behind it (an id of rules/content/<game>.md)
    short: Sentence | None = None  # one line for a player who has made this move SHORT_AFTER times
    scoring: Sentence | None = None  # before a scoring: what is about to count, and the standing
    after: Sentence | None = None  # after a scoring: why each got what they got
    see: str | None = None  # the id of the element on the table page that shows it in full
    hint: Sentence | None = None  # a tip for the acting player's own phone; never a choice


@dataclass(frozen=True)
class Intro:
    """How a first game opens, said to the whole table."""

    goal: Sentence  # the goal of the game, in two sentences
    need: Sentence  # what everyone needs in front of them
    start: Sentence  # who starts, and why
