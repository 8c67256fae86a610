"""The tortoise on the table: lines, holes, the attacked line and what is known of the cards.

Plain questions about a state; nothing here changes it. Rows count from the top and
columns from the left, both from 1, as seen from the first player's seat.
"""

from __future__ import annotations

from ..text import Sentence
from .cards import COLOURS, COMPOSITION, FIGHT_CARDS_EACH, FIGHT_CARDS_IN_HAND, GRID_SIZE, card_key

ALL_LINES = tuple((line, number) for line in ("row", "column") for number in range(1, GRID_SIZE + 1))


def line_label(line: str, number: int) -> Sentence:
    """'row 3' / 'Zeile 3': a row or column inside a sentence."""
    if line == "row":
        return Sentence("row %(number)s", number=number)
    return Sentence("column %(number)s", number=number)


def line_title(line: str, number: int) -> Sentence:
    """'Row 3' / 'Zeile 3': a row or column starting a sentence."""
    if line == "row":
        return Sentence("Row %(number)s", number=number)
    return Sentence("Column %(number)s", number=number)


def line_cells(line: str, number: int, start: str | None = None) -> list[tuple[int, int]]:
    """The (row, column) cells of a line in the order the figure meets them (1-based)."""
    if line == "row":
        cells = [(number, column) for column in range(1, GRID_SIZE + 1)]
        return cells[::-1] if start == "right" else cells
    cells = [(row, number) for row in range(1, GRID_SIZE + 1)]
    return cells[::-1] if start == "bottom" else cells


def cell(state: dict, row: int, column: int) -> dict:
    return state["grid"][row - 1][column - 1]


def opponent(state: dict, name: str) -> str:
    first, second = state["players"]
    return second if name == first else first


def face_down_in(state: dict, line: str, number: int) -> int:
    """How many face-down cards a line holds."""
    return sum(1 for row, column in line_cells(line, number) if cell(state, row, column)["state"] == "down")


def is_blocked(state: dict, line: str, number: int) -> bool:
    blocked = state["blocked"]
    return bool(blocked and blocked["for"] == state["attacker"]
                and blocked["line"] == line and blocked["number"] == number)


def _choice(state: dict, line: str, number: int) -> dict:
    return {"line": line, "number": number, "label": line_label(line, number),
            "face_down": face_down_in(state, line, number)}


def open_lines(state: dict) -> list[dict]:
    """Lines the attacker may pick for a first attack: not blocked and with a face-down card."""
    return [_choice(state, line, number) for line, number in ALL_LINES
            if face_down_in(state, line, number) and not is_blocked(state, line, number)]


def further_lines(state: dict) -> list[dict]:
    """Lines a further attack may take now (a one-attack block no longer holds then)."""
    if not formation_broken(state):
        return []
    block_holds = state["options"]["block_lasts"] == "turn"
    return [_choice(state, line, number) for line, number in ALL_LINES
            if face_down_in(state, line, number) and not (block_holds and is_blocked(state, line, number))]


def next_in_line(state: dict) -> tuple[int, int, int] | None:
    """(index along the line, row, column) of the next face-down card, or None."""
    attack = state["attack"]
    cells = line_cells(attack["line"], attack["number"], attack["start"])
    for index in range(attack["position"] + 1, GRID_SIZE):
        row, column = cells[index]
        if cell(state, row, column)["state"] == "down":
            return index, row, column
    return None


def last_in_line(state: dict) -> tuple[int, int] | None:
    """The last face-down card of the attacked line: the one a player may peek at."""
    attack = state["attack"]
    for row, column in reversed(line_cells(attack["line"], attack["number"], attack["start"])):
        if cell(state, row, column)["state"] == "down":
            return row, column
    return None


def last_turned(state: dict) -> dict | None:
    """The cell of the card the running attack turned over last (None: none yet)."""
    last = state["attack"]["last"]
    return cell(state, last["row"], last["column"]) if last else None


def pending_card(state: dict) -> dict | None:
    """The card the attacker just turned that still waits to be beaten (or to fail the
    attack): a soldier, a pirate or the traitor. None when there is none."""
    attack = state["attack"]
    if not attack or not attack.get("pending"):  # .get: a table stored before this existed
        return None
    return last_turned(state)["card"]


def in_hand(state: dict) -> int:
    """Fight cards in the attacker's hand now: 5 at the start of each line, less what was paid."""
    return FIGHT_CARDS_IN_HAND - state["attack"]["spent"]


def fight_cards(state: dict, player: str) -> dict:
    """A player's draw pile and discard pile of fight cards (counts)."""
    # A table stored before the piles were counted starts counting now.
    piles = state.get("fight_cards") or {}
    return piles.get(player) or {"pile": FIGHT_CARDS_EACH - FIGHT_CARDS_IN_HAND, "discard": 0}


def refill_plan(state: dict, player: str, count: int) -> dict:
    """What drawing ``count`` fight cards back to 5 takes from ``player``'s piles: cards from
    the draw pile, whether the discards become a new draw pile first (or, as the table may
    set, whether the game ends because the pile cannot refill the hand)."""
    piles = fight_cards(state, player)
    from_pile = min(count, piles["pile"])
    short = count - from_pile
    reshuffle = bool(short) and state["options"].get("fight_cards_out", "reshuffle") == "reshuffle"
    return {"draw": count, "from_pile": from_pile, "reshuffle": reshuffle, "runs_out": bool(short) and not reshuffle}


def feast_total(state: dict) -> int:
    """Feasts set aside plus feasts turned over in the running attack."""
    turned = sum(1 for row in state["grid"] for place in row if place["state"] == "feast")
    return state["feasts_set_aside"] + turned


def holes(state: dict) -> list[tuple[int, int]]:
    """Cells without a face-down card (empty, or face up during an attack)."""
    return [(r + 1, c + 1) for r, row in enumerate(state["grid"])
            for c, place in enumerate(row) if place["state"] != "down"]


def defeated_cards(state: dict) -> list[dict]:
    """This attack's defeated cards in the order they were turned."""
    latest: dict[tuple[int, int], int] = {}
    for index, entry in enumerate(state["revealed"]):
        latest[(entry["row"], entry["column"])] = index
    return [cell(state, row, column)["card"] for row, column in sorted(latest, key=latest.get)
            if cell(state, row, column)["state"] == "defeated"]


def accounted(state: dict) -> dict[str, int]:
    """Cards whose face is known, per counting key (see cards.py)."""
    counts = {key: 0 for key in COMPOSITION}
    for pile in state["secured"].values():
        for colour in COLOURS:
            counts[f"legionary:{colour}"] += pile["legionaries"][colour]
            counts[f"centurion:{colour}"] += pile["centurions"][colour]
        counts["pirate"] += pile["pirates"]
        counts["traitor"] += pile["traitor"]
    for entry in state["out_of_game"]:
        counts[card_key(entry["card"])] += 1
    counts["feast"] += state["feasts_set_aside"]
    for row in state["grid"]:
        for place in row:
            if place["card"] is not None:
                counts[card_key(place["card"])] += 1
    return counts


def unseen(state: dict) -> dict[str, int]:
    """Cards not yet accounted for, per counting key."""
    known = accounted(state)
    return {key: max(COMPOSITION[key] - known[key], 0) for key in COMPOSITION}


def formation_broken(state: dict) -> bool:
    """Whether the attacker may take a further attack now (rulebook: formation broken)."""
    attack = state["attack"]
    if state["phase"] != "attack" or attack is None or not attack["full_line"]:
        return False
    if attack["revealed_in_line"] < GRID_SIZE or next_in_line(state) is not None:
        return False
    if last_turned(state)["state"] not in ("defeated", "feast"):
        return False
    # The bonus lapses once the supply can no longer fill every hole.
    if len(holes(state)) > state["supply"]:
        return False
    return any(face_down_in(state, line, number) for line, number in ALL_LINES)
