"""What only this companion knows about a game, summed over the plays' facts (facts.py).

A play without facts (typed in afterwards, imported from elsewhere) counts in the ordinary
statistics but not here: each insight says over how many plays it was taken (``plays``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ...games.zaubertrank.components import TASK_CARDS
from ...games.text import N_
from .facts import SESTERCE_SOURCES, TOKEN_KINDS
from .plays import PlayRow, prepare
from .results import Data, average, ratio

TOKEN_LABELS = {"traitor": N_("Traitor"), "pirates": N_("Pirates"), "red": N_("Red"), "blue": N_("Blue"),
                "yellow": N_("Yellow"), "green": N_("Green"), "purple": N_("Purple")}
SOURCE_LABELS = {"albums": N_("Albums"), "centurion_helmets": N_("Centurion helmets"),
                 "legionary_helmets": N_("Legionary helmets")}


def _number(value) -> int:
    """A count from the facts; anything else (a word, a list, a number past any real game:
    an imported play's facts are only loosely checked) counts 0."""
    return value if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**6 else 0


def _with_facts(rows: list[PlayRow], key: str) -> list[PlayRow]:
    return [row for row in rows if isinstance(row.facts.get(key), dict | list)]


# -- Asterix & Obelix ------------------------------------------------------------------------
@dataclass
class PlayerTokens(Data):
    name: str
    plays: int = 0
    tokens: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TOKEN_KINDS, 0))
    total: int = 0
    per_play: float | None = None


@dataclass
class AsterixObelixInsights(Data):
    game: str
    plays: int
    fifth_feast_endings: int
    fifth_feast_share: float | None  # of the plays counted, 0 to 1
    token_kinds: list[str]
    players: list[PlayerTokens]


def asterix_obelix(rows: list[PlayRow]) -> AsterixObelixInsights:
    counted = _with_facts(rows, "tokens_won")
    players: dict[str, PlayerTokens] = {}
    for row in counted:
        won = row.facts["tokens_won"]
        for name in row.names:
            player = players.setdefault(name, PlayerTokens(name))
            player.plays += 1
            for kind in won.get(name) or ():
                if kind in player.tokens:
                    player.tokens[kind] += 1
                    player.total += 1
    for player in players.values():
        player.per_play = ratio(player.total, player.plays, 2)
    endings = sum(1 for row in counted if row.facts.get("fifth_feast_ended"))
    return AsterixObelixInsights(
        game="asterix-obelix", plays=len(counted), fifth_feast_endings=endings,
        fifth_feast_share=ratio(endings, len(counted)), token_kinds=list(TOKEN_KINDS),
        players=sorted(players.values(), key=lambda p: (-p.total, p.name.casefold())),
    )


# -- Asterix: Das Kartenspiel -----------------------------------------------------------------
@dataclass
class PlayerPirateLosses(Data):
    name: str
    plays: int = 0
    rounds: int = 0
    lost: int = 0
    per_round: float | None = None


@dataclass
class RoundPirateLosses(Data):
    round: int
    player_rounds: int = 0  # one player's pile in one round is one
    lost: int = 0
    per_player: float | None = None


@dataclass
class KartenspielInsights(Data):
    game: str
    plays: int
    player_rounds: int
    lost: int
    per_round: float | None  # points a player loses to pirates in an average round
    players: list[PlayerPirateLosses]
    by_round: list[RoundPirateLosses]  # round 1, 2, …


def kartenspiel(rows: list[PlayRow]) -> KartenspielInsights:
    counted = _with_facts(rows, "rounds")
    players: dict[str, PlayerPirateLosses] = {}
    rounds: dict[int, RoundPirateLosses] = {}
    for row in counted:
        for name in row.names:
            players.setdefault(name, PlayerPirateLosses(name)).plays += 1
        for closed in row.facts["rounds"]:
            number = _number(closed.get("round"))
            for name, lost in (closed.get("lost_to_pirates") or {}).items():
                if name not in players:
                    continue
                players[name].rounds += 1
                players[name].lost += _number(lost)
                by_round = rounds.setdefault(number, RoundPirateLosses(number))
                by_round.player_rounds += 1
                by_round.lost += _number(lost)
    for player in players.values():
        player.per_round = ratio(player.lost, player.rounds, 2)
    for by_round in rounds.values():
        by_round.per_player = ratio(by_round.lost, by_round.player_rounds, 2)
    player_rounds = sum(p.rounds for p in players.values())
    lost = sum(p.lost for p in players.values())
    return KartenspielInsights(
        game="kartenspiel", plays=len(counted), player_rounds=player_rounds, lost=lost,
        per_round=ratio(lost, player_rounds, 2),
        players=sorted(players.values(), key=lambda p: (-(p.per_round or 0), p.name.casefold())),
        by_round=[rounds[number] for number in sorted(rounds)],
    )


# -- Asterix & Co. -------------------------------------------------------------------------------
@dataclass
class PlayerSesterces(Data):
    name: str
    plays: int = 0
    albums_won: int = 0
    albums_per_play: float | None = None
    sesterces: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SESTERCE_SOURCES, 0))
    per_play: dict[str, float | None] = field(default_factory=dict)  # by source, on average
    total_per_play: float | None = None


@dataclass
class AsterixCoInsights(Data):
    game: str
    plays: int
    sources: list[str]
    players: list[PlayerSesterces]


def asterix_co(rows: list[PlayRow]) -> AsterixCoInsights:
    counted = _with_facts(rows, "sesterces")
    players: dict[str, PlayerSesterces] = {}
    for row in counted:
        sesterces, albums = row.facts["sesterces"], row.facts.get("albums_won") or {}
        for name in row.names:
            player = players.setdefault(name, PlayerSesterces(name))
            player.plays += 1
            player.albums_won += _number(albums.get(name))
            for source in SESTERCE_SOURCES:
                player.sesterces[source] += _number((sesterces.get(name) or {}).get(source))
    for player in players.values():
        player.albums_per_play = ratio(player.albums_won, player.plays, 2)
        player.per_play = {source: ratio(player.sesterces[source], player.plays, 2) for source in SESTERCE_SOURCES}
        player.total_per_play = ratio(sum(player.sesterces.values()), player.plays, 2)
    return AsterixCoInsights(
        game="asterix-co", plays=len(counted), sources=list(SESTERCE_SOURCES),
        players=sorted(players.values(), key=lambda p: (-(p.total_per_play or 0), p.name.casefold())),
    )


# -- Mission Zaubertrank! ----------------------------------------------------------------------
@dataclass
class DifficultyResults(Data):
    difficulty: str
    challenge: bool
    label: str  # "a cohort", "a cohort + challenge" (English, for the API; charts say it per phone)
    task_cards: int
    plays: int = 0
    wins: int = 0
    win_rate: float | None = None
    spaces_left_when_won: float | None = None  # on average, over the wins


@dataclass
class ZaubertrankInsights(Data):
    game: str
    plays: int
    wins: int
    win_rate: float | None
    spaces_left: float | None  # on average over every play (a loss leaves 0)
    spaces_left_when_won: float | None
    by_difficulty: list[DifficultyResults]  # easiest first


def zaubertrank(rows: list[PlayRow]) -> ZaubertrankInsights:
    counted = [row for row in rows if isinstance(row.facts.get("difficulty"), str)]
    levels: dict[tuple[str, bool], tuple[DifficultyResults, list[int]]] = {}
    spaces, spaces_won = [], []
    for row in counted:
        difficulty, challenge = row.facts["difficulty"], bool(row.facts.get("challenge"))
        won = (row.result or row.facts.get("result")) == "won"
        left = _number(row.facts.get("roman_spaces_left"))
        cards = _number(row.facts.get("task_cards")) or TASK_CARDS.get(difficulty, 0) + challenge
        label = difficulty + (" + challenge" if challenge else "")
        level, won_spaces = levels.setdefault(
            (difficulty, challenge), (DifficultyResults(difficulty, challenge, label, cards), []))
        level.plays += 1
        level.wins += won
        spaces.append(left)
        if won:
            won_spaces.append(left)
            spaces_won.append(left)
    for level, won_spaces in levels.values():
        level.win_rate = ratio(level.wins, level.plays)
        level.spaces_left_when_won = average(won_spaces)
    wins = sum(level.wins for level, _s in levels.values())
    return ZaubertrankInsights(
        game="zaubertrank", plays=len(counted), wins=wins, win_rate=ratio(wins, len(counted)),
        spaces_left=average(spaces), spaces_left_when_won=average(spaces_won),
        by_difficulty=sorted((level for level, _s in levels.values()),
                             key=lambda level: (level.task_cards, level.challenge, str(level.label))),
    )


INSIGHTS: dict[str, Callable[[list[PlayRow]], Data]] = {
    "asterix-obelix": asterix_obelix,
    "kartenspiel": kartenspiel,
    "asterix-co": asterix_co,
    "zaubertrank": zaubertrank,
}


def game_insights(game: str, plays: Iterable[dict | PlayRow]) -> Data | None:
    """The insights of ``game`` over its plays (plays of other games are skipped); None for a
    game without any (the score pad)."""
    summarise = INSIGHTS.get(game)
    if summarise is None:
        return None
    rows = [row for row in prepare(plays) if row.game == game]
    try:
        return summarise(rows)
    except _BAD_FACTS:
        # An imported play whose facts are not of the shape this game writes: it counts in
        # the ordinary statistics, not in these (one such play never breaks the page).
        return summarise([row for row in rows if _readable(summarise, row)])


_BAD_FACTS = (TypeError, AttributeError, ValueError, KeyError, OverflowError)


def _readable(summarise, row: PlayRow) -> bool:
    try:
        summarise([row])
    except _BAD_FACTS:
        return False
    return True
