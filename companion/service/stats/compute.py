"""Statistics from a group's plays: per player, per game, head to head, trends, the group.

Every function takes the plays as the history records them (dicts, see ``__init__``) or as
rows from ``plays.prepare`` (parse once, call several), and returns dataclasses from
``results.Data`` (``as_dict()`` for JSON). A shared win counts as a win for each winner; a
cooperative play is won or lost by everybody at the table.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import tzinfo

from .insights import (AsterixCoInsights, AsterixObelixInsights, KartenspielInsights, ZaubertrankInsights,
                       game_insights)
from .plays import PlayRow, night_of, prepare
from .results import Data, average, game_name, paced, ratio, rounded


@dataclass
class PlayerStats(Data):
    name: str
    plays: int = 0
    wins: int = 0
    win_rate: float | None = None  # wins / plays, 0 to 1
    scored_plays: int = 0  # plays with a score (cooperative games keep none)
    average_score: float | None = None
    best_score: float | None = None  # the highest, or the lowest where the lowest total wins
    worst_score: float | None = None
    longest_streak: int = 0  # most wins in a row among this player's own plays
    current_streak: int = 0  # wins in a row up to this player's latest play
    first_played: str | None = None
    last_played: str | None = None


@dataclass
class HeadToHead(Data):
    a: str
    b: str
    game: str | None  # None: all games
    plays: int = 0  # plays both took part in
    a_wins: int = 0  # a won and b did not
    b_wins: int = 0
    both_won: int = 0  # a shared win or a cooperative win
    neither_won: int = 0  # somebody else won, or a cooperative loss
    scored_plays: int = 0  # plays where both have a score
    average_difference: float | None = None  # a's score minus b's, on average
    a_ahead: int = 0  # plays where a's score was better
    b_ahead: int = 0


@dataclass
class TrendPoint(Data):
    index: int  # the play's place among the game's plays, oldest 0
    date: str | None
    score: float
    won: bool
    uid: str


@dataclass
class TrendSeries(Data):
    player: str
    game: str
    points: list[TrendPoint] = field(default_factory=list)


@dataclass
class ScoreRecord(Data):
    player: str  # who made it first
    score: float
    date: str | None
    uid: str
    players: list[str] = field(default_factory=list)  # everyone who made it, first first


@dataclass
class GameStats(Data):
    game: str
    name: str
    cooperative: bool
    plays: int
    average_minutes: float | None
    players: list[PlayerStats]
    high_score: ScoreRecord | None = None  # the best single score ever (by the game's direction)
    won: int | None = None  # cooperative games: plays won together
    lost: int | None = None
    win_rate: float | None = None  # cooperative games: won / plays
    # The game's own insights (insights.py); the score pad has none.
    insights: AsterixObelixInsights | KartenspielInsights | AsterixCoInsights | ZaubertrankInsights | None = None


@dataclass
class GameCount(Data):
    game: str
    name: str
    plays: int
    last_played: str | None
    average_minutes: float | None


@dataclass
class Night(Data):
    date: str  # the evening it began
    plays: int
    games: list[str]  # game ids, in the order first played that night
    players: list[str]
    minutes: float


@dataclass
class GroupStats(Data):
    plays: int
    first_played: str | None
    last_played: str | None
    total_minutes: float
    games: list[GameCount]  # most played first
    nights: list[Night]  # oldest first
    players: list[PlayerStats]


@dataclass
class PlayerGame(Data):
    game: str
    name: str  # the game's
    stats: PlayerStats


@dataclass
class PlayerProfile(Data):
    name: str
    overall: PlayerStats
    games: list[PlayerGame]  # most played first
    opponents: list[HeadToHead]  # this player as ``a``, most plays together first


@dataclass
class Statistics(Data):
    group: GroupStats
    games: list[GameStats]
    head_to_heads: list[HeadToHead]


def rows_of(plays: Iterable[dict | PlayRow], game: str | None = None) -> list[PlayRow]:
    rows = prepare(plays)
    return rows if game is None else [row for row in rows if row.game == game]


def _better(row: PlayRow, score: float) -> float:
    """A score made comparable across plays: higher is better."""
    return -score if row.lowest_wins else score


# -- per player ------------------------------------------------------------------------------
def player_stats(plays: Iterable[dict | PlayRow], game: str | None = None) -> list[PlayerStats]:
    """Every player's record (in one game, or all): most wins first."""
    found: dict[str, PlayerStats] = {}
    scores: dict[str, list[tuple[float, float]]] = {}
    for row in paced(rows_of(plays, game)):
        for seat in row.seats:
            stats = found.get(seat.name)
            if stats is None:
                stats = found[seat.name] = PlayerStats(seat.name, first_played=row.date)
                scores[seat.name] = []
            stats.plays += 1
            stats.last_played = row.date
            if seat.winner:
                stats.wins += 1
                stats.current_streak += 1
                stats.longest_streak = max(stats.longest_streak, stats.current_streak)
            else:
                stats.current_streak = 0
            if seat.score is not None:
                scores[seat.name].append((_better(row, seat.score), seat.score))
    for name, stats in found.items():
        stats.win_rate = ratio(stats.wins, stats.plays)
        played = scores[name]
        stats.scored_plays = len(played)
        stats.average_score = average([score for _key, score in played])
        if played:
            stats.best_score = max(played)[1]
            stats.worst_score = min(played)[1]
    return sorted(found.values(), key=lambda s: (-s.wins, -(s.win_rate or 0), -s.plays, s.name.casefold()))


# -- two players -----------------------------------------------------------------------------
def _meet(pair: HeadToHead, row: PlayRow, a_won: bool, a_score, b_won: bool, b_score) -> None:
    """One play of the pair counted; ``average_difference`` holds the sum of the differences
    until ``_averaged``."""
    pair.plays += 1
    if a_won and b_won:
        pair.both_won += 1
    elif a_won:
        pair.a_wins += 1
    elif b_won:
        pair.b_wins += 1
    else:
        pair.neither_won += 1
    if a_score is not None and b_score is not None:
        difference = a_score - b_score
        lead = -difference if row.lowest_wins else difference
        pair.scored_plays += 1
        pair.a_ahead += lead > 0
        pair.b_ahead += lead < 0
        pair.average_difference = (pair.average_difference or 0) + difference


def _averaged(pair: HeadToHead) -> HeadToHead:
    if pair.scored_plays:
        pair.average_difference = rounded(pair.average_difference / pair.scored_plays, 2)
    return pair


def head_to_head(plays: Iterable[dict | PlayRow], a: str, b: str, game: str | None = None) -> HeadToHead:
    """a against b over the plays both took part in."""
    result = HeadToHead(a, b, game)
    for row in rows_of(plays, game):
        first, second = row.seat(a), row.seat(b)
        if first and second and a != b:
            _meet(result, row, first.winner, first.score, second.winner, second.score)
    return _averaged(result)


def head_to_heads(plays: Iterable[dict | PlayRow], game: str | None = None) -> list[HeadToHead]:
    """Every pair of players that met, most plays together first (a before b by seat name).
    Each pair is made when it first meets: a play of twelve is 66 pairs."""
    pairs: dict[tuple[str, str], HeadToHead] = {}
    folded: dict[str, tuple[str, str]] = {}  # each name's sort key, made once
    for row in paced(rows_of(plays, game)):
        for seat in row.seats:
            if seat.name not in folded:
                folded[seat.name] = (seat.name.casefold(), seat.name)
        seats = [(seat.name, seat.winner, seat.score) for seat in
                 sorted(row.seats, key=lambda seat: folded[seat.name])]
        for index, (a, a_won, a_score) in enumerate(seats):
            for b, b_won, b_score in seats[index + 1:]:
                pair = pairs.get((a, b))
                if pair is None:
                    pair = pairs[a, b] = HeadToHead(a, b, game)
                _meet(pair, row, a_won, a_score, b_won, b_score)
    found = [_averaged(pair) for pair in pairs.values()]
    return sorted(found, key=lambda h: (-h.plays, folded[h.a][0], folded[h.b][0]))


# -- over time ---------------------------------------------------------------------------------
def score_trends(plays: Iterable[dict | PlayRow], game: str) -> list[TrendSeries]:
    """Each player's scores in one game, oldest first; players with most scored plays first."""
    series: dict[str, TrendSeries] = {}
    for index, row in enumerate(rows_of(plays, game)):
        for seat in row.seats:
            if seat.score is None:
                continue
            line = series.setdefault(seat.name, TrendSeries(seat.name, game))
            line.points.append(TrendPoint(index, row.date, seat.score, seat.winner, row.uid))
    return sorted(series.values(), key=lambda s: (-len(s.points), s.player.casefold()))


# -- per game and the group ----------------------------------------------------------------------
def game_stats(plays: Iterable[dict | PlayRow], game: str,
               players: list[PlayerStats] | None = None) -> GameStats:
    """One game's plays: length, each player's record, the high score and the game's insights.
    ``players``: the records of these plays, when they are known already."""
    rows = rows_of(plays, game)
    cooperative = any(row.cooperative for row in rows)
    high: ScoreRecord | None = None
    best_key, named = None, set()
    for row in rows:
        for seat in row.seats:
            if seat.score is None:
                continue
            if best_key is None or _better(row, seat.score) > best_key:
                best_key, named = _better(row, seat.score), {seat.name}
                high = ScoreRecord(seat.name, seat.score, row.date, row.uid, [seat.name])
            elif _better(row, seat.score) == best_key and seat.name not in named:
                high.players.append(seat.name)  # an equal score is named too
                named.add(seat.name)
    stats = GameStats(
        game=game, name=game_name(game), cooperative=cooperative, plays=len(rows),
        average_minutes=average([row.minutes for row in rows if row.minutes is not None], 1),
        players=player_stats(rows) if players is None else players, high_score=high, insights=game_insights(game, rows),
    )
    if cooperative:
        stats.won = sum(1 for row in rows if row.result == "won")
        stats.lost = sum(1 for row in rows if row.result == "lost")
        stats.win_rate = ratio(stats.won, len(rows))
    return stats


def group_stats(plays: Iterable[dict | PlayRow], tz: tzinfo | None = None) -> GroupStats:
    """The group at a glance: plays, games by plays, game nights, and every player's record.
    ``tz``: the group's time zone for telling nights apart (default: the timestamps' own)."""
    rows = rows_of(plays)
    games: dict[str, list[PlayRow]] = {}
    nights: dict[str, Night] = {}
    present: dict[str, set[str]] = {}
    for row in rows:
        games.setdefault(row.game, []).append(row)
        day = night_of(row, tz)
        if day is None:
            continue
        night = nights.setdefault(day.isoformat(), Night(day.isoformat(), 0, [], [], 0.0))
        night.plays += 1
        night.minutes = round(night.minutes + (row.minutes or 0), 1)
        if row.game not in night.games:
            night.games.append(row.game)
        seen = present.setdefault(night.date, set())  # a list's "in" made a night of many slow
        night.players += [name for name in row.names if name not in seen]
        seen.update(row.names)
    counts = [
        GameCount(game, game_name(game), len(played), played[-1].date,
                  average([row.minutes for row in played if row.minutes is not None], 1))
        for game, played in games.items()
    ]
    counts.sort(key=lambda count: (-count.plays, count.name.casefold()))
    return GroupStats(
        plays=len(rows),
        first_played=rows[0].date if rows else None,
        last_played=rows[-1].date if rows else None,
        total_minutes=round(sum(row.minutes or 0 for row in rows), 1),
        games=counts,
        nights=sorted(nights.values(), key=lambda night: night.date),
        players=player_stats(rows),
    )


def player_profile(plays: Iterable[dict | PlayRow], name: str) -> PlayerProfile | None:
    """One player's page: their record overall and per game, and against everyone they met.
    None for a name that took part in no play."""
    rows = [row for row in rows_of(plays) if row.seat(name)]
    if not rows:
        return None
    games = [PlayerGame(game, game_name(game), next(s for s in player_stats(rows, game) if s.name == name))
             for game in dict.fromkeys(row.game for row in rows)]
    games.sort(key=lambda entry: (-entry.stats.plays, entry.name.casefold()))
    others = dict.fromkeys(seat.name for row in rows for seat in row.seats if seat.name != name)
    opponents = [head_to_head(rows, name, other) for other in others]
    opponents.sort(key=lambda h: (-h.plays, h.b.casefold()))
    overall = next(s for s in player_stats(rows) if s.name == name)
    return PlayerProfile(name=name, overall=overall, games=games, opponents=opponents)


def statistics(plays: Iterable[dict | PlayRow], tz: tzinfo | None = None) -> Statistics:
    """Everything the group's statistics page shows, from one parse of the plays."""
    rows = prepare(plays)
    group = group_stats(rows, tz)
    return Statistics(
        group=group,
        # A game with every play of the group has the group's records of its players.
        games=[game_stats(rows, count.game, group.players if count.plays == group.plays else None)
               for count in group.games],
        head_to_heads=head_to_heads(rows),
    )
