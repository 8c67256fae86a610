"""The registry: game id -> game module. Views and the API never branch on the game."""

from __future__ import annotations

from .asterix_co import AsterixCo
from .asterix_obelix import AsterixObelix
from .base import Action, Game, GameError, Options
from .kartenspiel import Kartenspiel
from .scorepad import ScorePad
from .zaubertrank import Zaubertrank

GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    GAMES[game.id] = game
    return game


for _game in (AsterixObelix(), Kartenspiel(), AsterixCo(), Zaubertrank(), ScorePad()):
    register(_game)


def get_game(game_id: str) -> Game | None:
    return GAMES.get(game_id)


__all__ = ["Action", "Game", "GameError", "Options", "GAMES", "get_game", "register"]
