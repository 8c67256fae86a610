"""The group's statistics: pure functions from plays to numbers, and charts drawn from them.

A play is the dict the group's history records::

    {"uid": "…", "game": "asterix-obelix",
     "started_at": "2026-11-27T19:02:11+00:00", "ended_at": "2026-11-27T19:48:40+00:00",
     "players": [{"name": "Katrin", "score": 34, "winner": True}, …],  # seat order; score may be None
     "cooperative": False, "result": None,  # cooperative: "won" | "lost"
     "facts": {…}}  # facts_of(game, final state), stored when the play is recorded

No Flask and no database: ``facts`` reads a final state, ``compute`` and ``insights`` count,
``charts`` and ``lines`` turn the counts into SVG coordinates for ``templates/stats/charts.html``.
"""

from __future__ import annotations

from .charts import (bar_chart, difficulty_chart, pirate_chart, sesterces_chart, stacked_chart, token_chart,
                     win_rate_chart)
from .compute import (GameStats, GroupStats, HeadToHead, PlayerProfile, PlayerStats, Statistics, TrendSeries,
                      game_stats, group_stats, head_to_head, head_to_heads, player_profile, player_stats,
                      score_trends, statistics)
from .facts import facts_of
from .insights import game_insights
from .lines import trend_chart
from .plays import PlayRow, prepare

__all__ = [
    "GameStats", "GroupStats", "HeadToHead", "PlayRow", "PlayerProfile", "PlayerStats", "Statistics", "TrendSeries",
    "bar_chart", "difficulty_chart", "facts_of", "game_insights", "game_stats", "group_stats",
    "head_to_head", "head_to_heads", "pirate_chart", "player_profile", "player_stats", "prepare", "score_trends",
    "sesterces_chart", "stacked_chart", "statistics", "token_chart", "trend_chart", "win_rate_chart",
]
