"""What a finished table's final state tells the statistics beyond scores and winners.

``facts_of(game_id, state)`` is called once when a play is recorded; its answer is stored with
the play (JSON) and read by ``insights.py``. It only reads the state: each game's own helpers
compute what the game shows at the table, so the facts agree with what the players saw.
"""

from __future__ import annotations

from collections.abc import Callable

from ...games.asterix_co.scoring import (ALBUM_SESTERCES, CENTURION_HELMET_SESTERCES,
                                        LEGIONARY_HELMET_SESTERCES)
from ...games.asterix_obelix.cards import FEAST_COUNT, TOKEN_ORDER
from ...games.asterix_obelix.formation import feast_total
from ...games.asterix_obelix.scoring import scoring
from ...games.kartenspiel.scoring import work_out_pile
from ...games.zaubertrank.board import spaces_to_camp

TOKEN_KINDS: tuple[str, ...] = TOKEN_ORDER  # traitor, pirates, then the five legion colours
SESTERCE_SOURCES = ("albums", "centurion_helmets", "legionary_helmets")


def asterix_obelix(state: dict) -> dict:
    """The seven victory tokens by holder, the tokens each player won, and whether the fifth
    village feast ended the game (the only way it ends; False for a table left unfinished)."""
    players = list(state["players"])
    holders = scoring(state)["tokens"]
    feasts = feast_total(state)
    return {
        "tokens": {kind: holders.get(kind) for kind in TOKEN_ORDER},
        "tokens_won": {name: [kind for kind in TOKEN_ORDER if holders.get(kind) == name]
                       for name in players},
        "feasts": feasts,
        "fifth_feast_ended": bool(state["finished"]) and feasts >= FEAST_COUNT,
        "finished": bool(state["finished"]),
    }


def kartenspiel(state: dict) -> dict:
    """Points each player lost to pirates in every closed round: the pile's total without its
    pirates minus its total with them (the Romans that escaped and the set bonuses they broke)."""
    players = list(state["players"])
    rounds = []
    for closed in state["closed"]:
        lost, escaped = {}, {}
        for name in players:
            pile = closed["piles"][name]
            scored = closed["working"][name]
            unharmed = work_out_pile(pile["romans"], [], state["ranks"], state["bonus"])["total"]
            lost[name] = unharmed - scored["total"]
            escaped[name] = list(scored["escaped"])
        rounds.append({"round": closed["round"], "lost_to_pirates": lost, "escaped": escaped,
                       "scores": dict(closed["totals"])})
    return {
        "rounds": rounds,
        "lost_to_pirates": {name: sum(r["lost_to_pirates"][name] for r in rounds) for name in players},
        "rounds_planned": state["rounds"],
        "finished": bool(state["finished"]),
    }


def asterix_co(state: dict) -> dict:
    """Each player's sesterces by source and the albums they won. The ledger keeps helmets as
    counts, so helmets won with albums, given by powers and the starting one are one source."""
    sesterces, albums, helmets = {}, {}, {}
    for name in state["players"]:
        held = state["ledger"][name]
        albums[name] = len(held["albums"])
        helmets[name] = {"centurion": held["centurion_helmets"], "legionary": held["legionary_helmets"]}
        sesterces[name] = {
            "albums": albums[name] * ALBUM_SESTERCES,
            "centurion_helmets": held["centurion_helmets"] * CENTURION_HELMET_SESTERCES,
            "legionary_helmets": held["legionary_helmets"] * LEGIONARY_HELMET_SESTERCES,
        }
    return {"sesterces": sesterces, "albums_won": albums, "helmets": helmets,
            "finished": bool(state["finished"])}


def zaubertrank(state: dict) -> dict:
    """The difficulty, the result, the tasks done, and the spaces the Roman still had to walk
    back to his camp (0 after a loss)."""
    return {
        "difficulty": state["difficulty"],
        "challenge": bool(state["challenge"]),
        "task_cards": state["tasks"]["total"],
        "tasks_completed": state["tasks"]["completed"],
        "result": state["result"],
        "roman_spaces_left": max(0, spaces_to_camp(state)),
        "lap_length": state["lap_length"],
        "finished": bool(state["finished"]),
    }


def scorepad(state: dict) -> dict:
    """Which total wins (a golf-like game: the lowest), and how many rounds were written."""
    rounds = [int(r) for cells in state["entries"].values() for r in cells]
    return {"winning": state["winning"], "rounds": max(rounds, default=0),
            "finished": bool(state["finished"])}


EXTRACTORS: dict[str, Callable[[dict], dict]] = {
    "asterix-obelix": asterix_obelix,
    "kartenspiel": kartenspiel,
    "asterix-co": asterix_co,
    "zaubertrank": zaubertrank,
    "scorepad": scorepad,
}


def facts_of(game_id: str, state: dict) -> dict:
    """The facts of one final state; an empty dict for an unknown game or a state that lacks
    what the extractor reads (an old or damaged state must never stop a play being recorded)."""
    extract = EXTRACTORS.get(game_id)
    if extract is None or not isinstance(state, dict):
        return {}
    try:
        return extract(state)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, ZeroDivisionError):
        return {}
