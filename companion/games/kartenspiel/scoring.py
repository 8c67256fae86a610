"""Scoring a pile, shared by the table and the quick score: the pirates' escapes first, then
each kept Roman's value and the set bonuses, with the working shown."""

from __future__ import annotations

from ..text import Sentence
from .cards import ESCAPE_ORDER, PIRATE_LABELS, RANK_NAMES, RANKS


def escape_reason(kind: str, ranks: dict[str, int | None]) -> Sentence:
    """Why a pirate of ``kind`` let nobody escape (the pile's working keeps it as English text;
    the pages ask again for the sentence in the phone's language)."""
    if kind in RANKS:
        if ranks.get(kind) is None:
            return Sentence("no value is set for the %(rank)s, so nobody escapes", rank=RANK_NAMES[kind])
        return Sentence("no %(rank)s (%(value)s) in the pile, so nobody escapes",
                        rank=RANK_NAMES[kind], value=ranks[kind])
    return Sentence("no Roman left in the pile, so nobody escapes")


def set_bonus(bonus: dict[str, int], count: int) -> int:
    """The bonus for ``count`` Romans of one rank (nothing for a single card)."""
    return bonus.get(str(count), 0) if count >= 2 else 0


def escape_cost(romans: list[int], value: int, bonus: dict[str, int]) -> int:
    """Points a pile loses when one Roman of ``value`` escapes: its value and the set bonus it breaks."""
    count = romans.count(value)
    return value + set_bonus(bonus, count) - set_bonus(bonus, count - 1)


def cheapest_escape(romans: list[int], bonus: dict[str, int]) -> int | None:
    """The Roman whose escape costs the fewest points; the lower value on a tie."""
    if not romans:
        return None
    return min(set(romans), key=lambda value: (escape_cost(romans, value, bonus), value))


def work_out_pile(
    romans: list[int],
    pirates: list[str],
    ranks: dict[str, int | None],
    bonus: dict[str, int],
    named_choice: int | None = None,
    choose_cheapest: bool = True,
) -> dict:
    """Score one pile: the pirates' escapes, then values and set bonuses, with the working.

    ``choose_cheapest``: a pirate of choice with no (usable) named Roman takes the cheapest (the
    quick score's "cheapest"); else, with two or more values left for it, it waits for its
    owner's choice and lets nothing escape yet (``choice_pending``).

    Returns ``kept`` (pile order), ``escapes`` (one entry per pirate, in pile order, with the
    Roman that escaped or ``None`` and a reason), ``points``, ``sets``, ``bonus`` and ``total``.
    """
    left = list(romans)
    escaped: list[int | None] = [None] * len(pirates)
    reasons: list[str] = [""] * len(pirates)
    choice_fell_back = choice_pending = False
    for index in sorted(range(len(pirates)), key=lambda i: ESCAPE_ORDER.index(pirates[i])):
        kind = pirates[index]
        target = None
        if kind in RANKS:
            rank_value = ranks.get(kind)
            if rank_value is not None and rank_value in left:
                target = rank_value
            else:
                reasons[index] = str(escape_reason(kind, ranks))
        elif not left:
            reasons[index] = str(escape_reason(kind, ranks))
        elif kind == "highest":
            target = max(left)
        elif kind == "lowest":
            target = min(left)
        elif named_choice is not None and named_choice in left:
            target = named_choice
        elif not choose_cheapest and len(set(left)) >= 2:
            choice_pending = True
        else:
            choice_fell_back = named_choice is not None
            target = cheapest_escape(left, bonus)
        if target is not None:
            left.remove(target)
        escaped[index] = target
    sets = []
    for value in sorted(set(left), reverse=True):
        count = left.count(value)
        if count >= 2:
            sets.append({"value": value, "count": count, "bonus": set_bonus(bonus, count)})
    points = sum(left)
    bonus_points = sum(group["bonus"] for group in sets)
    return {
        "kept": left,
        "escapes": [
            {
                "pirate": kind,
                "label": str(PIRATE_LABELS[kind]),
                "roman": escaped[i],
                "reason": reasons[i],
                "pending": kind == "choice" and choice_pending,
            }
            for i, kind in enumerate(pirates)
        ],
        "escaped": [value for value in escaped if value is not None],
        "named_choice": named_choice,
        "choice_fell_back": choice_fell_back and choose_cheapest,
        "choice_pending": choice_pending,
        "points": points,
        "sets": sets,
        "bonus": bonus_points,
        "total": points + bonus_points,
    }


def working(state: dict, choose_cheapest: bool = False) -> dict[str, dict]:
    """The scoring of the current round's piles, per player: a pirate of choice whose owner
    has not chosen lets nothing escape yet (``choose_cheapest``: only for logs closed before
    the choice was asked for)."""
    return {
        name: work_out_pile(pile["romans"], pile["pirates"], state["ranks"], state["bonus"],
                            pile["choice"], choose_cheapest)
        for name, pile in state["piles"].items()
    }


def left_for_choice(state: dict, player: str) -> list[int]:
    """The Romans of a pile left for its pirate of choice, which escapes last (ESCAPE_ORDER)."""
    pile = state["piles"][player]
    others = list(pile["pirates"])
    others.remove("choice")
    return work_out_pile(pile["romans"], others, state["ranks"], state["bonus"])["kept"]


def choice_owner(state: dict) -> str | None:
    """Who holds the pirate of choice this round (there is one in the deck)."""
    return next((name for name in state["players"] if "choice" in state["piles"][name]["pirates"]), None)


def choice_pending(state: dict, player: str) -> bool:
    """The player's pirate of choice waits for its owner: two or more different Romans are
    left for it and none of them is named."""
    pile = state["piles"][player]
    if "choice" not in pile["pirates"]:
        return False
    left = left_for_choice(state, player)
    return len(set(left)) >= 2 and pile["choice"] not in left


def totals(state: dict) -> dict[str, int]:
    """Running totals over the closed rounds."""
    return {name: sum(closed["totals"][name] for closed in state["closed"]) for name in state["players"]}
