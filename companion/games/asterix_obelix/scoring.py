"""The seven victory tokens: who takes each one, and who wins, with a sentence per token."""

from __future__ import annotations

from .cards import COLOURS, plural


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
    explanation: list[str] = []

    traitors = [pile for pile in piles if pile["traitor"]]
    if traitors:
        tokens["traitor"] = traitors[0]["name"]
        explanation.append(f"Traitor: {traitors[0]['name']} secured the traitor and takes his token.")
    else:
        tokens["traitor"] = None
        explanation.append("Traitor: nobody secured the traitor, so nobody takes his token.")

    a, b = first["pirates"], second["pirates"]
    if a != b:
        leader, trailer = (first, second) if a > b else (second, first)
        tokens["pirates"] = leader["name"]
        explanation.append(
            f"Pirates: {leader['name']} has {plural(leader['pirates'], 'pirate')} to "
            f"{trailer['name']}'s {trailer['pirates']} and takes the pirate token."
        )
    else:
        tokens["pirates"] = None
        if a == 0:
            explanation.append("Pirates: neither player secured a pirate, so nobody takes the pirate token.")
        else:
            explanation.append(
                f"Pirates: {names[0]} and {names[1]} have {plural(a, 'pirate')} each, "
                "a tie, so nobody takes the pirate token."
            )

    for colour in COLOURS:
        holders = [pile["name"] for pile in piles if colour in pile["centurions"]]
        a, b = (pile["legionaries"].get(colour, 0) + (colour in pile["centurions"]) for pile in piles)
        label = colour.capitalize()
        if a != b:
            leader, lead, trail = (names[0], a, b) if a > b else (names[1], b, a)
            trailer = names[1] if leader == names[0] else names[0]
            tokens[colour] = leader
            explanation.append(
                f"{label}: {leader} has {plural(lead, 'card')} to {trailer}'s {trail} "
                f"and takes the {colour} token."
            )
        elif a == 0:
            tokens[colour] = None
            explanation.append(f"{label}: neither player secured a {colour} card, so nobody takes the {colour} token.")
        elif holders:
            tokens[colour] = holders[0]
            explanation.append(
                f"{label}: {names[0]} and {names[1]} have {plural(a, 'card')} each; "
                f"{holders[0]} holds the {colour} centurion and takes the {colour} token."
            )
        else:
            tokens[colour] = None
            explanation.append(
                f"{label}: {names[0]} and {names[1]} have {plural(a, 'card')} each and nobody "
                f"holds the {colour} centurion, so nobody takes the {colour} token."
            )

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


def decide(names: list[str], points: dict, colour_tokens: dict, cards: dict) -> tuple[list[str], str]:
    """Most tokens, then more colour tokens, then more cards secured, else a shared win."""
    first, second = names
    if points[first] != points[second]:
        winner, loser = (first, second) if points[first] > points[second] else (second, first)
        return [winner], f"{winner} wins with {plural(points[winner], 'token')} to {points[loser]}."
    tied = f"Both have {plural(points[first], 'token')}"
    if colour_tokens[first] != colour_tokens[second]:
        winner, loser = (first, second) if colour_tokens[first] > colour_tokens[second] else (second, first)
        return [winner], (
            f"{tied}; {winner} wins with {colour_tokens[winner]} colour tokens to {colour_tokens[loser]}."
        )
    tied += f" and {plural(colour_tokens[first], 'colour token')}"
    if cards[first] != cards[second]:
        winner, loser = (first, second) if cards[first] > cards[second] else (second, first)
        return [winner], f"{tied}; {winner} wins with {cards[winner]} cards secured to {cards[loser]}."
    return [first, second], (
        f"{tied} and {plural(cards[first], 'card')} secured each: {first} and {second} share the win."
    )


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
