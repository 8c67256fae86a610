"""What every coach card must keep, in every game: shared by the scripted whole-game tests of
the teaching mode (tests/games/test_coach_<game>.py)."""

from __future__ import annotations

import re
from pathlib import Path

from companion.games.coach import Coach
from tests.games.languages import english, german

ROOT = Path(__file__).resolve().parents[2]


class Coached:
    """A game's coach, checked against its rules files and its table template."""

    def __init__(self, game, dynamic: tuple[str, ...] = ()):
        self.game = game
        self.rules = [set(re.findall(r"^id: (\S+)$", (ROOT / path).read_text(encoding="utf-8"), re.M))
                      for path in (f"companion/rules/content/{game.id}.md",
                                   f"companion/rules/content/de/{game.id}.md")]
        self.template = (ROOT / f"templates/games/{game.id}/table.html").read_text(encoding="utf-8")
        self.dynamic = dynamic  # moves whose forms the template names by a variable

    def card(self, state: dict) -> Coach:
        """The card for ``state``, after checking what a player relies on: a rules section
        in both languages, the acting player named, a control that player may tap and the
        page renders, the element "Show me" points to, every sentence in German."""
        card = self.game.coach(state)
        assert card.rule in self.rules[0] and card.rule in self.rules[1], card.rule
        if card.player is not None:
            assert card.player in english(card.say) and card.player in german(card.say)
            assert card.player in english(card.short) and card.player in german(card.short)
        else:
            assert card.hint is None  # a hint shows only on the acting player's phone
        if card.short is not None:
            assert len(english(card.short)) <= 70, english(card.short)
        if card.control is not None:
            assert self.game.legal_actions(state, card.player)[card.control] is None, card.control
            assert (f'action_form("{card.control}"' in self.template
                    or card.control in self.dynamic), card.control
        if card.see is not None:
            assert f'id="{card.see}"' in self.template or f"region('{card.see}')" in self.template, card.see
        for sentence in (card.say, card.short, card.scoring, card.after, card.hint):
            if sentence is not None:
                assert german(sentence) != english(sentence), english(sentence)
        return card


def says(sentence, *words) -> None:
    """Each pair of words (English, German) is in the sentence as each language reads it."""
    for en, de in words:
        assert en in english(sentence), (en, english(sentence))
        assert de in german(sentence), (de, german(sentence))


class Table:
    """A table played by real moves: each move answers with the coach's card for the new state,
    checked. A game's test sets ``coached`` and adds its own moves."""

    coached: Coached

    def __init__(self, players, **options):
        game = self.coached.game
        self.state = game.initial_state(players, game.parse_options(options))

    def __call__(self, actor=None, **payload):
        game = self.coached.game
        self.state = game.apply(self.state, game.parse_action(payload), actor)
        return self.coach()

    def coach(self) -> Coach:
        return self.coached.card(self.state)
