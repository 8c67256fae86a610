"""The seven victory tokens: who takes each one, and who wins, with a sentence per token."""

from __future__ import annotations

from ..text import N_, Sentence, plural_sentence
from .cards import COLOUR_TITLES, COLOURS, card_name

# Each colour's token and a card of that colour, as the explanations name them.
TOKENS = {"red": N_("the red token"), "blue": N_("the blue token"), "yellow": N_("the yellow token"),
          "green": N_("the green token"), "purple": N_("the purple token")}
COLOUR_CARDS = {"red": N_("a red card"), "blue": N_("a blue card"), "yellow": N_("a yellow card"),
                "green": N_("a green card"), "purple": N_("a purple card")}


def _cards(count: int) -> Sentence:
    return plural_sentence("%(count)s card", "%(count)s cards", count)


def _tokens(count: int) -> Sentence:
    return plural_sentence("%(count)s token", "%(count)s tokens", count)


def score_piles(piles: list[dict]) -> dict:
    """Score two secured piles token by token.

    Each pile is {"name", "legionaries": {colour: n}, "centurions": [colour, ...],
    "pirates": n, "traitor": bool}. Returns the token holders (None: nobody), points
    (tokens) per player, the winners, one explanation sentence per token, and the
    tie-break details (colour tokens, cards secured, a verdict sentence).
    """
    first, second = piles
    names = [first["name"], second["name"]]
    tokens: dict[str, str | None] = {}
    explanation: list[Sentence] = []

    traitors = [pile for pile in piles if pile["traitor"]]
    if traitors:
        tokens["traitor"] = traitors[0]["name"]
        explanation.append(Sentence("Traitor: %(player)s secured the traitor and takes his token.",
                                    player=traitors[0]["name"]))
    else:
        tokens["traitor"] = None
        explanation.append(Sentence("Traitor: nobody secured the traitor, so nobody takes his token."))

    a, b = first["pirates"], second["pirates"]
    if a != b:
        leader, trailer = (first, second) if a > b else (second, first)
        tokens["pirates"] = leader["name"]
        explanation.append(Sentence(
            "Pirates: %(leader)s has %(pirates)s to %(trailer)s's %(trail)s and takes the pirate token.",
            leader=leader["name"], trailer=trailer["name"], trail=trailer["pirates"],
            pirates=plural_sentence("%(count)s pirate", "%(count)s pirates", leader["pirates"])))
    else:
        tokens["pirates"] = None
        if a == 0:
            explanation.append(Sentence("Pirates: neither player secured a pirate, so nobody takes the pirate token."))
        else:
            explanation.append(Sentence(
                "Pirates: %(first)s and %(second)s have %(pirates)s each, a tie, so nobody takes the pirate token.",
                first=names[0], second=names[1],
                pirates=plural_sentence("%(count)s pirate", "%(count)s pirates", a)))

    for colour in COLOURS:
        tokens[colour], sentence = _colour_token(colour, piles, names)
        explanation.append(sentence)

    points = {name: sum(1 for holder in tokens.values() if holder == name) for name in names}
    colour_tokens = {name: sum(1 for colour in COLOURS if tokens[colour] == name) for name in names}
    cards = {
        pile["name"]: sum(pile["legionaries"].get(colour, 0) for colour in COLOURS)
        + len(pile["centurions"]) + pile["pirates"] + int(bool(pile["traitor"]))
        for pile in piles
    }
    winners, verdict = decide(names, points, colour_tokens, cards)
    return {
        "tokens": tokens,
        "points": points,
        "winners": winners,
        "explanation": explanation,
        "colour_tokens": colour_tokens,
        "cards": cards,
        "verdict": verdict,
    }


def _colour_token(colour: str, piles: list[dict], names: list[str]) -> tuple[str | None, Sentence]:
    """Who takes the token of ``colour`` (None: nobody) and why: more cards of the colour, or
    on a tie the player holding its centurion."""
    holders = [pile["name"] for pile in piles if colour in pile["centurions"]]
    a, b = (pile["legionaries"].get(colour, 0) + (colour in pile["centurions"]) for pile in piles)
    fields = {"label": COLOUR_TITLES[colour], "token": TOKENS[colour]}
    if a != b:
        leader, lead, trail = (names[0], a, b) if a > b else (names[1], b, a)
        trailer = names[1] if leader == names[0] else names[0]
        return leader, Sentence(
            "%(label)s: %(leader)s has %(cards)s to %(trailer)s's %(trail)s and takes %(token)s.",
            leader=leader, trailer=trailer, trail=trail, cards=_cards(lead), **fields)
    if a == 0:
        return None, Sentence("%(label)s: neither player secured %(card)s, so nobody takes %(token)s.",
                              card=COLOUR_CARDS[colour], **fields)
    if holders:
        return holders[0], Sentence(
            "%(label)s: %(first)s and %(second)s have %(cards)s each; %(holder)s holds %(centurion)s "
            "and takes %(token)s.", first=names[0], second=names[1], cards=_cards(a), holder=holders[0],
            centurion=card_name({"kind": "centurion", "colour": colour}), **fields)
    return None, Sentence(
        "%(label)s: %(first)s and %(second)s have %(cards)s each and nobody holds %(centurion)s, "
        "so nobody takes %(token)s.", first=names[0], second=names[1], cards=_cards(a),
        centurion=card_name({"kind": "centurion", "colour": colour}), **fields)


def decide(names: list[str], points: dict, colour_tokens: dict, cards: dict) -> tuple[list[str], Sentence]:
    """Most tokens, then more colour tokens, then more cards secured, else a shared win."""
    first, second = names
    if points[first] != points[second]:
        winner, loser = (first, second) if points[first] > points[second] else (second, first)
        return [winner], Sentence("%(winner)s wins with %(tokens)s to %(other)s.", winner=winner,
                                  tokens=_tokens(points[winner]), other=points[loser])
    tied = Sentence("Both have %(tokens)s", tokens=_tokens(points[first]))
    if colour_tokens[first] != colour_tokens[second]:
        winner, loser = (first, second) if colour_tokens[first] > colour_tokens[second] else (second, first)
        return [winner], Sentence("%(tied)s; %(winner)s wins with %(mine)s colour tokens to %(other)s.",
                                  tied=tied, winner=winner, mine=colour_tokens[winner], other=colour_tokens[loser])
    tied = Sentence("Both have %(tokens)s and %(colour_tokens)s", tokens=_tokens(points[first]),
                    colour_tokens=plural_sentence("%(count)s colour token", "%(count)s colour tokens",
                                                  colour_tokens[first]))
    if cards[first] != cards[second]:
        winner, loser = (first, second) if cards[first] > cards[second] else (second, first)
        return [winner], Sentence("%(tied)s; %(winner)s wins with %(mine)s cards secured to %(other)s.",
                                  tied=tied, winner=winner, mine=cards[winner], other=cards[loser])
    return [first, second], Sentence(
        "%(tied)s and %(cards)s secured each: %(first)s and %(second)s share the win.",
        tied=tied, cards=_cards(cards[first]), first=first, second=second)


def piles_for_scoring(state: dict) -> list[dict]:
    """The secured piles of a table in the shape ``score_piles`` takes."""
    return [
        {
            "name": name,
            "legionaries": dict(state["secured"][name]["legionaries"]),
            "centurions": [c for c in COLOURS if state["secured"][name]["centurions"][c]],
            "pirates": state["secured"][name]["pirates"],
            "traitor": bool(state["secured"][name]["traitor"]),
        }
        for name in state["players"]
    ]


def scoring(state: dict) -> dict:
    """The token-by-token scoring of the secured piles as they stand."""
    return score_piles(piles_for_scoring(state))
