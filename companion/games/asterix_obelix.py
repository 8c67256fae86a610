"""Asterix & Obelix (Kosmos, 2006): two Gauls attack a 4x4 tortoise of Roman cards.

Pure rules for the table companion: the setup checklist, attacks card by card, the
formation-broken bonus attack, refilling and blocking, card counting with odds,
logged corrections, and the seven victory tokens. ``quick_score`` scores two piles
entered by hand for a game played without tracking.

Card counting: every physical Roman card whose face is known sits in exactly one place —
a secured pile, out of the game, the feast track, face up in the formation during an
attack, or face down in the formation after a failed attack turned it back (its position
is known). "Unseen" is the 40-card composition minus those cards, so a card that was turned
back face down counts as seen and is never counted twice when it is turned over again.
The odds are plain counting: each unseen card is equally likely to be any unknown face-down
card (the 2-feast pile on top makes feasts a little rarer early on; the odds ignore that).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Optional

from pydantic import (BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints, ValidationError,
                      model_validator)

from .base import Action, Game, GameError, Options, Whole, explain

COLOURS = ("red", "blue", "yellow", "green", "purple")
COLOUR_LIST = "red, blue, yellow, green or purple"
LEGIONARIES_PER_COLOUR = 5
PIRATE_COUNT = 3
FEAST_COUNT = 5
GRID_SIZE = 4
DECK_SIZE = 40
SUPPLY_AT_START = DECK_SIZE - GRID_SIZE * GRID_SIZE
FIGHT_CARDS_IN_HAND = 5

# How many of each card the 40-card Roman deck holds, by counting key.
COMPOSITION: dict[str, int] = {
    **{f"legionary:{colour}": LEGIONARIES_PER_COLOUR for colour in COLOURS},
    **{f"centurion:{colour}": 1 for colour in COLOURS},
    "pirate": PIRATE_COUNT,
    "traitor": 1,
    "boar": 1,
    "feast": FEAST_COUNT,
}
assert sum(COMPOSITION.values()) == DECK_SIZE

SETUP_CHECKLIST = (
    {"item": "fight_cards", "text": "Each player takes a figure (Asterix on red, Obelix on blue) "
     "and its 15 fight cards, shuffles them face down and draws 5."},
    {"item": "feast_split", "text": "Take the 5 village feasts out of the 40 Roman cards and split "
     "the other 35 into two piles of about the same size."},
    {"item": "feast_piles", "text": "Shuffle 3 feasts into one pile and 2 into the other, then put "
     "the pile with 2 feasts on top of the pile with 3."},
    {"item": "formation", "text": "Deal 16 cards face down from the top as a 4 × 4 formation "
     "(the tortoise): 4 rows and 4 columns."},
    {"item": "supply", "text": f"The other {SUPPLY_AT_START} cards stay face down as the supply; "
     "put the 7 victory tokens aside."},
    {"item": "starter", "text": "Agree who attacks first (the rulebook says the strongest player), "
     "then tap that name."},
)

TOKEN_ORDER = ("traitor", "pirates") + COLOURS


# -- input normalisation -------------------------------------------------------
def _text(value: Any) -> Any:
    return value.strip().lower() if isinstance(value, str) else value


def _colour(value: Any) -> Any:
    value = _text(value)
    # The overview's "black" legion is the purple one.
    return "purple" if value == "black" else value


_KIND_ALIASES = {"wild boar": "boar", "wild_boar": "boar", "village feast": "feast",
                 "village_feast": "feast", "legionnaire": "legionary"}


def _kind(value: Any) -> Any:
    value = _text(value)
    return _KIND_ALIASES.get(value, value)


Colour = Annotated[Literal["red", "blue", "yellow", "green", "purple"], BeforeValidator(_colour)]
CardKind = Annotated[
    Literal["legionary", "centurion", "pirate", "traitor", "boar", "feast"], BeforeValidator(_kind)
]
PileItem = Annotated[Literal["legionary", "centurion", "pirate", "traitor"], BeforeValidator(_kind)]
LineKind = Annotated[Literal["row", "column"], BeforeValidator(_text)]
LineStart = Annotated[Literal["left", "right", "top", "bottom"], BeforeValidator(_text)]
LineNumber = Annotated[Whole, Field(ge=1, le=GRID_SIZE)]
Reason = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]


# -- options and actions ---------------------------------------------------------
class AsterixObelixOptions(Options):
    blocking: bool = Field(
        True,
        description="After each attack the attacker blocks one row or column for the "
        "opponent's next attack. Described by the overview, not by the rulebook; on by default.",
    )
    block_lasts: Literal["attack", "turn"] = Field(
        "attack",
        description="How long a block holds: the opponent's next attack only (a further attack "
        "after breaking the formation may use the line), or the opponent's whole turn. "
        "The sources do not say; one attack is the assumption.",
    )


class StartGame(Action):
    """The setup checklist is done; name who makes the first attack."""

    type: Literal["start_game"] = "start_game"
    starter: str = Field(description="The player who attacks first.")


class ChooseLine(Action):
    """Place the attacker's figure in front of a row or a column."""

    type: Literal["choose_line"] = "choose_line"
    line: LineKind = Field(description="row or column")
    number: LineNumber = Field(description="Rows count from the top, columns from the left (1–4).")
    start: Optional[LineStart] = Field(
        None, description="The end the figure stands at: left/right for a row, top/bottom for a "
        "column. Empty: left or top.",
    )


class LookAtLastCard(Action):
    """Note that the attacker discarded a fight card to peek at the line's last card."""

    type: Literal["look_at_last_card"] = "look_at_last_card"


class RevealCard(Action):
    """Turn over the next face-down card of the attacked line and say what it is."""

    type: Literal["reveal_card"] = "reveal_card"
    kind: Optional[CardKind] = Field(
        None, description="legionary, centurion, pirate, traitor, boar or feast. Empty only for "
        "a card already known from a failed attack.",
    )
    colour: Optional[Colour] = Field(
        None, description="The legion colour of a legionary or centurion (black is purple); "
        "ignored for other cards.",
    )


class NoMatchingCard(Action):
    """The attacker cannot beat the card just turned over: the attack fails."""

    type: Literal["no_matching_card"] = "no_matching_card"


class EndAttack(Action):
    """Stop attacking and secure this attack's defeated cards."""

    type: Literal["end_attack"] = "end_attack"


class FurtherAttack(Action):
    """After breaking the formation, attack a new line with a full hand."""

    type: Literal["further_attack"] = "further_attack"
    line: LineKind = Field(description="row or column")
    number: LineNumber = Field(description="Rows count from the top, columns from the left (1–4).")
    start: Optional[LineStart] = Field(
        None, description="left/right for a row, top/bottom for a column. Empty: left or top.",
    )


class FillHole(Action):
    """Put one of the last supply cards into a hole of the formation."""

    type: Literal["fill_hole"] = "fill_hole"
    row: LineNumber = Field(description="The hole's row (1–4, from the top).")
    column: LineNumber = Field(description="The hole's column (1–4, from the left).")


class BlockLine(Action):
    """Block a row or column for the opponent's next attack."""

    type: Literal["block_line"] = "block_line"
    line: LineKind = Field(description="row or column")
    number: LineNumber = Field(description="Rows count from the top, columns from the left (1–4).")


class SkipBlock(Action):
    """End the turn without blocking a line."""

    type: Literal["skip_block"] = "skip_block"


class CorrectPile(Action):
    """Fix a mis-tap: set how many cards of one sort a player's secured pile holds."""

    type: Literal["correct_pile"] = "correct_pile"
    player: str = Field(description="Whose secured pile to change.")
    item: PileItem = Field(description="legionary, centurion, pirate or traitor")
    colour: Optional[Colour] = Field(None, description="Needed for legionaries and centurions.")
    count: Whole = Field(ge=0, le=LEGIONARIES_PER_COLOUR, description="The right number of cards.")
    reason: Reason = Field(description="Why; shown in the log.")


class CorrectFeasts(Action):
    """Fix a mis-tap: set how many village feasts lie beside the formation."""

    type: Literal["correct_feasts"] = "correct_feasts"
    count: Whole = Field(ge=0, le=FEAST_COUNT, description="Feasts set aside beside the formation.")
    reason: Reason = Field(description="Why; shown in the log.")


# -- cards and piles -------------------------------------------------------------
def card_key(card: dict) -> str:
    """The counting key of a card: 'legionary:red', 'centurion:blue', 'pirate', ..."""
    if card["kind"] in ("legionary", "centurion"):
        return f"{card['kind']}:{card['colour']}"
    return card["kind"]


def card_name(card: dict) -> str:
    """A card with its article, as a player says it: 'a red legionary', 'the traitor'."""
    kind, colour = card["kind"], card.get("colour")
    return {
        "legionary": f"a {colour} legionary",
        "centurion": f"the {colour} centurion",
        "pirate": "a pirate",
        "traitor": "the traitor",
        "boar": "the wild boar",
        "feast": "a village feast",
    }[kind]


def make_card(kind: str, colour: str | None) -> dict:
    """A card dict; legionaries and centurions need a colour, other cards carry none."""
    if kind in ("legionary", "centurion"):
        if colour is None:
            raise GameError(f"Say which colour the {kind} is: {COLOUR_LIST}.")
        return {"kind": kind, "colour": colour}
    return {"kind": kind, "colour": None}


def empty_pile() -> dict:
    """A secured pile with nothing in it."""
    return {
        "legionaries": {colour: 0 for colour in COLOURS},
        "centurions": {colour: 0 for colour in COLOURS},
        "pirates": 0,
        "traitor": 0,
    }


def add_to_pile(pile: dict, card: dict) -> None:
    """Put a defeated card on a secured pile (in place)."""
    kind = card["kind"]
    if kind == "legionary":
        pile["legionaries"][card["colour"]] += 1
    elif kind == "centurion":
        pile["centurions"][card["colour"]] += 1
    elif kind == "pirate":
        pile["pirates"] += 1
    elif kind == "traitor":
        pile["traitor"] += 1


def pile_cards(pile: dict) -> int:
    """How many cards a secured pile holds."""
    return (sum(pile["legionaries"].values()) + sum(pile["centurions"].values())
            + pile["pirates"] + pile["traitor"])


def _plural(count: int, word: str, plural: str | None = None) -> str:
    return f"{count} {word if count == 1 else (plural or word + 's')}"


def _impossible(card: dict) -> str:
    hint = " If an earlier tap was wrong, correct it first."
    kind, colour = card["kind"], card.get("colour")
    if kind == "legionary":
        return f"All 5 {colour} legionaries are already accounted for, so this cannot be another one." + hint
    if kind == "pirate":
        return "All 3 pirates are already accounted for; there is no fourth." + hint
    if kind == "feast":
        return "All 5 village feasts are already accounted for; there is no sixth." + hint
    name = {"centurion": f"the {colour} centurion", "traitor": "the traitor",
            "boar": "the wild boar"}[kind]
    return f"There is only one card like {name}, and it is already accounted for." + hint


# -- scoring ------------------------------------------------------------------------
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
            f"Pirates: {leader['name']} has {_plural(leader['pirates'], 'pirate')} to "
            f"{trailer['name']}'s {trailer['pirates']} and takes the pirate token."
        )
    else:
        tokens["pirates"] = None
        if a == 0:
            explanation.append("Pirates: neither player secured a pirate, so nobody takes the pirate token.")
        else:
            explanation.append(
                f"Pirates: {names[0]} and {names[1]} have {_plural(a, 'pirate')} each, "
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
                f"{label}: {leader} has {_plural(lead, 'card')} to {trailer}'s {trail} "
                f"and takes the {colour} token."
            )
        elif a == 0:
            tokens[colour] = None
            explanation.append(f"{label}: neither player secured a {colour} card, so nobody takes the {colour} token.")
        elif holders:
            tokens[colour] = holders[0]
            explanation.append(
                f"{label}: {names[0]} and {names[1]} have {_plural(a, 'card')} each; "
                f"{holders[0]} holds the {colour} centurion and takes the {colour} token."
            )
        else:
            tokens[colour] = None
            explanation.append(
                f"{label}: {names[0]} and {names[1]} have {_plural(a, 'card')} each and nobody "
                f"holds the {colour} centurion, so nobody takes the {colour} token."
            )

    points = {name: sum(1 for holder in tokens.values() if holder == name) for name in names}
    colour_tokens = {name: sum(1 for colour in COLOURS if tokens[colour] == name) for name in names}
    cards = {
        pile["name"]: sum(pile["legionaries"].get(colour, 0) for colour in COLOURS)
        + len(pile["centurions"]) + pile["pirates"] + int(bool(pile["traitor"]))
        for pile in piles
    }
    winners, verdict = _decide(names, points, colour_tokens, cards)
    return {
        "tokens": tokens,
        "points": points,
        "winners": winners,
        "explanation": explanation,
        "colour_tokens": colour_tokens,
        "cards": cards,
        "verdict": verdict,
    }


def _decide(names: list[str], points: dict, colour_tokens: dict, cards: dict) -> tuple[list[str], str]:
    """Most tokens, then more colour tokens, then more cards secured, else a shared win."""
    first, second = names
    if points[first] != points[second]:
        winner, loser = (first, second) if points[first] > points[second] else (second, first)
        return [winner], f"{winner} wins with {_plural(points[winner], 'token')} to {points[loser]}."
    tied = f"Both have {_plural(points[first], 'token')}"
    if colour_tokens[first] != colour_tokens[second]:
        winner, loser = (first, second) if colour_tokens[first] > colour_tokens[second] else (second, first)
        return [winner], (
            f"{tied}; {winner} wins with {colour_tokens[winner]} colour tokens to {colour_tokens[loser]}."
        )
    tied += f" and {_plural(colour_tokens[first], 'colour token')}"
    if cards[first] != cards[second]:
        winner, loser = (first, second) if cards[first] > cards[second] else (second, first)
        return [winner], f"{tied}; {winner} wins with {cards[winner]} cards secured to {cards[loser]}."
    return [first, second], (
        f"{tied} and {_plural(cards[first], 'card')} secured each: {first} and {second} share the win."
    )


# -- quick score ------------------------------------------------------------------
class QuickScorePile(BaseModel):
    """One player's secured pile, entered by hand."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(description="The player's name.")
    legionaries: dict[str, Whole] = Field(
        default_factory=dict,
        description="Legionaries per colour (red, blue, yellow, green, purple; black = purple); "
        "missing colours count as 0.",
    )
    centurions: list[str] = Field(default_factory=list, description="The colours of the centurions held.")
    pirates: Whole = Field(0, description="Pirates secured (0–3).")
    traitor: bool = Field(False, description="Whether this player secured the traitor.")


class QuickScoreRequest(BaseModel):
    """Both players' piles for scoring a game played without tracking."""

    model_config = ConfigDict(extra="forbid")

    players: list[QuickScorePile] = Field(description="Exactly two piles.")

    @model_validator(mode="after")
    def _possible(self) -> "QuickScoreRequest":
        check_piles(self.players)
        return self


class QuickScoreResult(BaseModel):
    """The scoring: token holders (null: nobody), tokens per player, winners, reasons."""

    tokens: dict[str, Optional[str]]
    points: dict[str, int]
    winners: list[str]
    explanation: list[str]


def _normal_legionaries(pile: QuickScorePile) -> dict[str, int]:
    counts = {colour: 0 for colour in COLOURS}
    named: set[str] = set()
    for raw, count in pile.legionaries.items():
        colour = _colour(raw)
        if colour not in COLOURS:
            raise ValueError(f"'{raw}' is not a legion colour; use {COLOUR_LIST} (black is purple)")
        if colour in named:
            raise ValueError(f"{pile.name}'s legionaries name purple twice (black is purple)")
        named.add(colour)
        if count < 0:
            raise ValueError(f"{pile.name} cannot have a negative number of {colour} legionaries ({count})")
        counts[colour] = count
    return counts


def _normal_centurions(pile: QuickScorePile) -> list[str]:
    colours: list[str] = []
    for raw in pile.centurions:
        colour = _colour(raw)
        if colour not in COLOURS:
            raise ValueError(f"'{raw}' is not a legion colour; use {COLOUR_LIST} (black is purple)")
        if colour in colours:
            raise ValueError(f"{pile.name} lists the {colour} centurion twice, but there is only one")
        colours.append(colour)
    return colours


def check_piles(players: list[QuickScorePile]) -> None:
    """Raise ValueError with a sentence when two entered piles cannot come from one game."""
    if len(players) != 2:
        raise ValueError(f"Asterix & Obelix is scored for exactly two players, not {len(players)}")
    names = [pile.name.strip() for pile in players]
    if not all(names):
        raise ValueError("Each player needs a name")
    if names[0] == names[1]:
        raise ValueError("The two players need different names")
    legionaries = [_normal_legionaries(pile) for pile in players]
    centurions = [_normal_centurions(pile) for pile in players]
    for pile in players:
        if pile.pirates < 0:
            raise ValueError(f"{pile.name} cannot have a negative number of pirates ({pile.pirates})")
    for colour in COLOURS:
        total = legionaries[0][colour] + legionaries[1][colour]
        if total > LEGIONARIES_PER_COLOUR:
            raise ValueError(
                f"There are only {LEGIONARIES_PER_COLOUR} {colour} legionaries, "
                f"but the piles hold {total} between them"
            )
        if colour in centurions[0] and colour in centurions[1]:
            raise ValueError(
                f"There is only one {colour} centurion, but both {names[0]} and {names[1]} list it"
            )
    pirates = players[0].pirates + players[1].pirates
    if pirates > PIRATE_COUNT:
        raise ValueError(f"There are only {PIRATE_COUNT} pirates, but the piles hold {pirates} between them")
    if players[0].traitor and players[1].traitor:
        raise ValueError(f"There is only one traitor, but both {names[0]} and {names[1]} claim him")


def quick_score(payload: dict) -> dict:
    """Score two piles entered by hand (``POST /api/games/asterix-obelix/score``).

    Returns {"tokens", "points", "winners", "explanation"}; raises GameError with one
    sentence when the input is malformed or the piles are impossible (answer 422).
    """
    try:
        request = QuickScoreRequest.model_validate(payload)
    except ValidationError as exc:
        raise GameError(explain(exc)) from None
    piles = [
        {
            "name": pile.name.strip(),
            "legionaries": _normal_legionaries(pile),
            "centurions": _normal_centurions(pile),
            "pirates": pile.pirates,
            "traitor": pile.traitor,
        }
        for pile in request.players
    ]
    result = score_piles(piles)
    return {key: result[key] for key in ("tokens", "points", "winners", "explanation")}


def _form_value(form: dict[str, list[str]], field: str) -> str:
    values = form.get(field) or [""]
    return values[0].strip()


def _form_count(form: dict[str, list[str]], field: str, what: str) -> int:
    """A count typed on the quick-score page: blank is 0, anything else a whole number."""
    raw = _form_value(form, field)
    if raw == "":
        return 0
    try:
        return int(raw)
    except ValueError:
        raise GameError(f"The number of {what} must be a whole number, not '{raw[:20]}'.") from None


# -- the game ------------------------------------------------------------------------
def line_label(line: str, number: int) -> str:
    return f"{line} {number}"


def line_cells(line: str, number: int, start: str | None = None) -> list[tuple[int, int]]:
    """The (row, column) cells of a line in the order the figure meets them (1-based)."""
    if line == "row":
        cells = [(number, column) for column in range(1, GRID_SIZE + 1)]
        return cells[::-1] if start == "right" else cells
    cells = [(row, number) for row in range(1, GRID_SIZE + 1)]
    return cells[::-1] if start == "bottom" else cells


ALL_LINES = tuple((line, number) for line in ("row", "column") for number in range(1, GRID_SIZE + 1))


class AsterixObelix(Game):
    id = "asterix-obelix"
    name = "Asterix & Obelix"
    summary = ("Two Gauls beat up a 4 × 4 tortoise of Romans card by card; the fifth village "
               "feast ends the game and seven tokens decide it.")
    min_players = 2
    max_players = 2
    options_model = AsterixObelixOptions
    actions = (StartGame, ChooseLine, LookAtLastCard, RevealCard, NoMatchingCard, EndAttack,
               FurtherAttack, FillHole, BlockLine, SkipBlock, CorrectPile, CorrectFeasts)
    regions = ("board", "piles", "odds", "scoring")
    quick_score_model = QuickScoreRequest

    def initial_state(self, players: list[str], options: AsterixObelixOptions) -> dict:
        if len(players) != 2:
            raise GameError("Asterix & Obelix is for exactly two players.")
        return {
            "players": list(players),
            "options": options.model_dump(),
            "phase": "setup",
            "starter": None,
            "attacker": None,
            "turn": 0,
            "grid": [[{"state": "down", "card": None} for _ in range(GRID_SIZE)] for _ in range(GRID_SIZE)],
            "supply": SUPPLY_AT_START,
            "attack": None,
            "blocked": None,
            "feasts_set_aside": 0,
            "secured": {name: empty_pile() for name in players},
            "out_of_game": [],
            "revealed": [],
            "finished": False,
        }

    # -- small helpers ---------------------------------------------------------------
    @staticmethod
    def cell(state: dict, row: int, column: int) -> dict:
        return state["grid"][row - 1][column - 1]

    @staticmethod
    def opponent(state: dict, name: str) -> str:
        first, second = state["players"]
        return second if name == first else first

    def face_down_in(self, state: dict, line: str, number: int) -> int:
        """How many face-down cards a line holds."""
        return sum(1 for row, column in line_cells(line, number)
                   if self.cell(state, row, column)["state"] == "down")

    def is_blocked(self, state: dict, line: str, number: int) -> bool:
        blocked = state["blocked"]
        return bool(blocked and blocked["for"] == state["attacker"]
                    and blocked["line"] == line and blocked["number"] == number)

    def open_lines(self, state: dict) -> list[dict]:
        """Lines the attacker may pick now: not blocked and with a face-down card."""
        return [
            {"line": line, "number": number, "label": line_label(line, number),
             "face_down": self.face_down_in(state, line, number)}
            for line, number in ALL_LINES
            if self.face_down_in(state, line, number) and not self.is_blocked(state, line, number)
        ]

    def further_lines(self, state: dict) -> list[dict]:
        """Lines a further attack may take now (a one-attack block no longer holds then)."""
        if not self.formation_broken(state):
            return []
        block_holds = state["options"]["block_lasts"] == "turn"
        return [
            {"line": line, "number": number, "label": line_label(line, number),
             "face_down": self.face_down_in(state, line, number)}
            for line, number in ALL_LINES
            if self.face_down_in(state, line, number)
            and not (block_holds and self.is_blocked(state, line, number))
        ]

    def next_in_line(self, state: dict) -> tuple[int, int, int] | None:
        """(index along the line, row, column) of the next face-down card, or None."""
        attack = state["attack"]
        cells = line_cells(attack["line"], attack["number"], attack["start"])
        for index in range(attack["position"] + 1, GRID_SIZE):
            row, column = cells[index]
            if self.cell(state, row, column)["state"] == "down":
                return index, row, column
        return None

    def last_in_line(self, state: dict) -> tuple[int, int] | None:
        """The last face-down card of the attacked line: the one a player may peek at."""
        attack = state["attack"]
        cells = line_cells(attack["line"], attack["number"], attack["start"])
        for row, column in reversed(cells):
            if self.cell(state, row, column)["state"] == "down":
                return row, column
        return None

    @staticmethod
    def feast_total(state: dict) -> int:
        """Feasts set aside plus feasts turned over in the running attack."""
        turned = sum(1 for row in state["grid"] for cell in row if cell["state"] == "feast")
        return state["feasts_set_aside"] + turned

    @staticmethod
    def holes(state: dict) -> list[tuple[int, int]]:
        """Cells without a face-down card (empty, or face up during an attack)."""
        return [(r + 1, c + 1) for r, row in enumerate(state["grid"])
                for c, cell in enumerate(row) if cell["state"] != "down"]

    def accounted(self, state: dict) -> dict[str, int]:
        """Cards whose face is known, per counting key (see the module docstring)."""
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
            for cell in row:
                if cell["card"] is not None:
                    counts[card_key(cell["card"])] += 1
        return counts

    def unseen(self, state: dict) -> dict[str, int]:
        """Cards not yet accounted for, per counting key."""
        accounted = self.accounted(state)
        return {key: max(COMPOSITION[key] - accounted[key], 0) for key in COMPOSITION}

    def formation_broken(self, state: dict) -> bool:
        """Whether the attacker may take a further attack now (rulebook: formation broken)."""
        attack = state["attack"]
        if state["phase"] != "attack" or attack is None or not attack["full_line"]:
            return False
        if attack["revealed_in_line"] < GRID_SIZE or self.next_in_line(state) is not None:
            return False
        last = self.cell(state, attack["last"]["row"], attack["last"]["column"])
        if last["state"] not in ("defeated", "feast"):
            return False
        # The bonus lapses once the supply can no longer fill every hole.
        if len(self.holes(state)) > state["supply"]:
            return False
        return any(self.face_down_in(state, line, number) for line, number in ALL_LINES)

    def piles_for_scoring(self, state: dict) -> list[dict]:
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

    def scoring(self, state: dict) -> dict:
        """The token-by-token scoring of the secured piles as they stand."""
        return score_piles(self.piles_for_scoring(state))

    # -- rules ---------------------------------------------------------------------------
    def apply(self, state: dict, action: Action, actor: str | None) -> dict:
        new = self.copy(state)
        if isinstance(action, CorrectPile):
            self._correct_pile(new, action)
            return new
        if state["finished"]:
            raise GameError("The game is over; only a secured pile can still be corrected.")
        if isinstance(action, CorrectFeasts):
            self._correct_feasts(new, action)
            return new
        phase = state["phase"]
        expected = {
            StartGame: "setup",
            ChooseLine: "choose_line",
            LookAtLastCard: "attack",
            RevealCard: "attack",
            NoMatchingCard: "attack",
            EndAttack: "attack",
            FurtherAttack: "attack",
            FillHole: "refill",
            BlockLine: "block",
            SkipBlock: "block",
        }[type(action)]
        if phase != expected:
            raise GameError(self._wrong_phase(state))
        if isinstance(action, StartGame):
            if action.starter not in state["players"]:
                raise GameError(f"There is no player called '{action.starter}' at this table.")
            new["starter"] = action.starter
            new["attacker"] = action.starter
            new["turn"] = 1
            new["phase"] = "choose_line"
        elif isinstance(action, ChooseLine):
            self._start_line(new, action.line, action.number, action.start, 1)
        elif isinstance(action, FurtherAttack):
            if not self.formation_broken(state):
                raise GameError(self._no_further_attack(state))
            if state["options"]["block_lasts"] == "attack":
                new["blocked"] = None  # the block covered only the first attack of the turn
            self._start_line(new, action.line, action.number, action.start,
                             state["attack"]["attacks_this_turn"] + 1)
        elif isinstance(action, LookAtLastCard):
            attack = new["attack"]
            if attack["revealed_in_line"]:
                raise GameError("The last card can only be looked at before the first card of the line is turned.")
            if attack["looked"]:
                raise GameError("The last card of this line was already looked at.")
            row, column = self.last_in_line(new)
            attack["looked"] = {"row": row, "column": column}
            attack["spent"] += 1
        elif isinstance(action, RevealCard):
            self._reveal(new, action)
        elif isinstance(action, NoMatchingCard):
            attack = new["attack"]
            last = attack["last"]
            cell = self.cell(new, last["row"], last["column"]) if last else None
            if cell is None or cell["state"] != "defeated":
                if cell is not None and cell["state"] == "feast":
                    raise GameError("A village feast needs no fight card, so the attack cannot fail on it.")
                raise GameError("Turn over a card first; an attack fails only on a card just turned.")
            cell["state"] = "down"  # turned back face down where it lay; its face is now known
            self._finish_attack(new, secure=False)
        elif isinstance(action, EndAttack):
            if not new["attack"]["revealed_in_line"]:
                line = line_label(new["attack"]["line"], new["attack"]["number"])
                raise GameError(f"Turn over the first card of {line} before ending the attack.")
            self._finish_attack(new, secure=True)
        elif isinstance(action, FillHole):
            cell = self.cell(new, action.row, action.column)
            if cell["state"] != "empty":
                raise GameError(f"Row {action.row}, column {action.column} is not a hole; pick an empty place.")
            new["grid"][action.row - 1][action.column - 1] = {"state": "down", "card": None}
            new["supply"] -= 1
            if new["supply"] == 0:
                self._after_refill(new)
        elif isinstance(action, BlockLine):
            # Every card lies in a row and a column, so a block never leaves the opponent stuck.
            opponent = self.opponent(new, new["attacker"])
            new["blocked"] = {"line": action.line, "number": action.number, "for": opponent}
            self._pass_turn(new)
        elif isinstance(action, SkipBlock):
            self._pass_turn(new)
        return new

    def _wrong_phase(self, state: dict) -> str:
        phase = state["phase"]
        attacker = state["attacker"]
        if phase == "setup":
            return "Finish the setup first: tap who attacks first."
        if phase == "choose_line":
            return f"{attacker} first chooses a row or column to attack."
        if phase == "attack":
            return f"{attacker} is in the middle of an attack; turn a card, end the attack or say there is no matching card."
        if phase == "refill":
            return f"{attacker} first puts the last {_plural(state['supply'], 'supply card')} into holes of the formation."
        return f"{attacker} first blocks a line for the next attack, or skips the block."

    def _no_further_attack(self, state: dict) -> str:
        attack = state["attack"]
        if self.next_in_line(state) is not None:
            return "The line still has face-down cards; a further attack comes only after all four are beaten."
        if not attack["full_line"]:
            return ("The line had fewer than four face-down cards when the attack on it began, "
                    "so the formation is not broken.")
        if len(self.holes(state)) > state["supply"]:
            return ("The supply can no longer fill every hole of the formation, "
                    "so breaking it no longer earns a further attack.")
        return "No further attack is possible now; end the attack to secure the cards."

    def _start_line(self, new: dict, line: str, number: int, start: str | None, attack_number: int) -> None:
        if start is None:
            start = "left" if line == "row" else "top"
        if (line == "row") != (start in ("left", "right")):
            sides = "left or right" if line == "row" else "top or bottom"
            raise GameError(f"A {line} is attacked from the {sides}, not from the {start}.")
        label = line_label(line, number)
        if self.is_blocked(new, line, number):
            raise GameError(f"{label.capitalize()} is blocked for {new['attacker']}'s attack; choose another line.")
        face_down = self.face_down_in(new, line, number)
        if not face_down:
            raise GameError(f"{label.capitalize()} has no face-down card left; choose another line.")
        new["attack"] = {
            "line": line,
            "number": number,
            "start": start,
            "position": -1,
            "full_line": face_down == GRID_SIZE,
            "revealed_in_line": 0,
            "looked": None,
            "spent": 0,
            "last": None,
            "attacks_this_turn": attack_number,
        }
        new["phase"] = "attack"

    def _reveal(self, new: dict, action: RevealCard) -> None:
        attack = new["attack"]
        found = self.next_in_line(new)
        if found is None:
            label = line_label(attack["line"], attack["number"])
            raise GameError(f"No face-down card is left in {label}; end the attack"
                            + (" or take the further attack." if self.formation_broken(new) else "."))
        index, row, column = found
        cell = self.cell(new, row, column)
        known = cell["card"]
        if action.kind is None:
            if known is None:
                raise GameError("Say what the card is: legionary, centurion, pirate, traitor, boar or feast.")
            card = dict(known)
        else:
            card = make_card(action.kind, action.colour)
        accounted = self.accounted(new)
        if known is not None:
            accounted[card_key(known)] -= 1  # the same physical card, not a second one
        if accounted[card_key(card)] >= COMPOSITION[card_key(card)]:
            raise GameError(_impossible(card))
        new["revealed"].append({
            "player": new["attacker"], "card": card, "row": row, "column": column,
            "again": known is not None,
        })
        attack["position"] = index
        attack["revealed_in_line"] += 1
        attack["last"] = {"row": row, "column": column}
        kind = card["kind"]
        if kind == "boar":
            new["grid"][row - 1][column - 1] = {"state": "empty", "card": None}
            new["out_of_game"].append({"card": card, "reason": "wild boar", "player": new["attacker"]})
            self._finish_attack(new, secure=True)
        elif kind == "feast":
            new["grid"][row - 1][column - 1] = {"state": "feast", "card": card}
            if self.feast_total(new) >= FEAST_COUNT:
                self._end_game(new)
        else:
            new["grid"][row - 1][column - 1] = {"state": "defeated", "card": card}
            attack["spent"] += 2 if kind == "traitor" else 1

    def _clear_attack_cells(self, new: dict, secure: bool) -> None:
        """Secure (or discard) this attack's defeated cards and set its feasts aside."""
        attacker = new["attacker"]
        for row in new["grid"]:
            for index, cell in enumerate(row):
                if cell["state"] == "defeated":
                    if secure:
                        add_to_pile(new["secured"][attacker], cell["card"])
                    else:
                        new["out_of_game"].append(
                            {"card": cell["card"], "reason": "failed attack", "player": attacker})
                    row[index] = {"state": "empty", "card": None}
                elif cell["state"] == "feast":
                    new["feasts_set_aside"] += 1
                    row[index] = {"state": "empty", "card": None}
        new["attack"] = None

    def _finish_attack(self, new: dict, secure: bool) -> None:
        """End of an attack: cards off the formation, refill from the supply, then the block."""
        self._clear_attack_cells(new, secure)
        new["blocked"] = None  # a block held only for the turn that just ended
        holes = self.holes(new)
        if len(holes) <= new["supply"]:
            for row, column in holes:
                new["grid"][row - 1][column - 1] = {"state": "down", "card": None}
            new["supply"] -= len(holes)
            self._after_refill(new)
        elif new["supply"] == 0:
            self._after_refill(new)
        else:
            new["phase"] = "refill"  # fewer supply cards than holes: the attacker places them

    def _after_refill(self, new: dict) -> None:
        if new["options"]["blocking"]:
            new["phase"] = "block"
        else:
            self._pass_turn(new)

    def _pass_turn(self, new: dict) -> None:
        new["attacker"] = self.opponent(new, new["attacker"])
        new["turn"] += 1
        new["phase"] = "choose_line"

    def _end_game(self, new: dict) -> None:
        """The fifth feast: the attack stops, its defeated cards are kept, scoring follows."""
        self._clear_attack_cells(new, secure=True)
        new["phase"] = "over"
        new["finished"] = True

    def _correct_pile(self, new: dict, action: CorrectPile) -> None:
        if new["phase"] == "setup":
            raise GameError("Nothing has been secured yet; finish the setup first.")
        if action.player not in new["players"]:
            raise GameError(f"There is no player called '{action.player}' at this table.")
        pile = new["secured"][action.player]
        item, colour, count = action.item, action.colour, action.count
        if item in ("legionary", "centurion") and colour is None:
            raise GameError(f"Say which colour of {item} to correct: {COLOUR_LIST}.")
        limit = {"legionary": LEGIONARIES_PER_COLOUR, "centurion": 1,
                 "pirate": PIRATE_COUNT, "traitor": 1}[item]
        if count > limit:
            raise GameError(f"A pile can hold at most {limit} of the {self._item_words(item, colour)}.")
        if item == "legionary":
            pile["legionaries"][colour] = count
        elif item == "centurion":
            pile["centurions"][colour] = count
        elif item == "pirate":
            pile["pirates"] = count
        else:
            pile["traitor"] = count
        key = card_key(make_card(item, colour))
        seen = self.accounted(new)[key]
        if seen > COMPOSITION[key]:
            elsewhere = seen - count
            raise GameError(
                f"{action.player} cannot hold {count} of the {self._item_words(item, colour)}: "
                f"{elsewhere} more {'is' if elsewhere == 1 else 'are'} already accounted for elsewhere "
                f"and only {COMPOSITION[key]} exist."
            )

    @staticmethod
    def _item_words(item: str, colour: str | None) -> str:
        """The pile entry a correction changes, as the log names it."""
        return {"legionary": f"{colour} legionaries", "centurion": f"{colour} centurion",
                "pirate": "pirates", "traitor": "traitor"}[item]

    def _correct_feasts(self, new: dict, action: CorrectFeasts) -> None:
        if new["phase"] == "setup":
            raise GameError("No feast has been turned yet; finish the setup first.")
        turned = self.feast_total(new) - new["feasts_set_aside"]
        if action.count + turned > FEAST_COUNT:
            raise GameError(
                f"With {_plural(turned, 'feast')} turned in this attack, at most "
                f"{FEAST_COUNT - turned} can lie beside the formation."
            )
        new["feasts_set_aside"] = action.count
        if self.feast_total(new) >= FEAST_COUNT:
            # The fifth feast was missed: the game ends, keeping a running attack's cards.
            self._end_game(new)

    # -- log sentences ----------------------------------------------------------------------
    def describe(self, state: dict, action: Action, actor: str | None) -> str:
        who = actor or "The host"
        try:
            after = self.apply(state, action, actor)
        except GameError:
            return f"{who}: {action.type.replace('_', ' ')} (refused)."
        attacker = state["attacker"]
        if isinstance(action, StartGame):
            return (f"The setup is done: 16 cards form the tortoise, {SUPPLY_AT_START} wait in the "
                    f"supply, and {action.starter} attacks first.")
        if isinstance(action, (ChooseLine, FurtherAttack)):
            attack = after["attack"]
            where = f"{line_label(attack['line'], attack['number'])} from the {attack['start']}"
            if isinstance(action, FurtherAttack):
                return f"{attacker} broke the formation and took a further attack on {where} with a full hand."
            return f"{attacker} attacks {where}."
        if isinstance(action, LookAtLastCard):
            attack = state["attack"]
            return (f"{attacker} gave up a fight card to look at the last card of "
                    f"{line_label(attack['line'], attack['number'])}.")
        if isinstance(action, RevealCard):
            return self._describe_reveal(state, after)
        if isinstance(action, NoMatchingCard):
            last = state["attack"]["last"]
            card = self.cell(state, last["row"], last["column"])["card"]
            lost = self._defeated_cards(state)[:-1]
            sentence = (f"{attacker} had no fight card for {card_name(card)}: the attack failed "
                        "and the card went back face down")
            if lost:
                sentence += f"; {_plural(len(lost), 'defeated card')} left the game"
            return sentence + "." + self._refill_note(state, after)
        if isinstance(action, EndAttack):
            won = self._defeated_cards(state)
            if won:
                sentence = (f"{attacker} ended the attack and secured {_plural(len(won), 'card')}: "
                            + ", ".join(card_name(card) for card in won) + ".")
            else:
                sentence = f"{attacker} ended the attack without securing a card."
            return sentence + self._refill_note(state, after)
        if isinstance(action, FillHole):
            return f"{attacker} put a supply card into row {action.row}, column {action.column}."
        if isinstance(action, BlockLine):
            opponent = self.opponent(state, attacker)
            return f"{attacker} blocked {line_label(action.line, action.number)} for {opponent}'s next attack."
        if isinstance(action, SkipBlock):
            return f"{attacker} blocked no line."
        if isinstance(action, CorrectPile):
            pile = state["secured"][action.player]
            before = {"legionary": lambda: pile["legionaries"][action.colour],
                      "centurion": lambda: pile["centurions"][action.colour],
                      "pirate": lambda: pile["pirates"],
                      "traitor": lambda: pile["traitor"]}[action.item]()
            return (f"{who} corrected {action.player}'s {self._item_words(action.item, action.colour)} "
                    f"from {before} to {action.count} "
                    f"(reason: {action.reason}).")
        if isinstance(action, CorrectFeasts):
            sentence = (f"{who} corrected the feasts beside the formation from "
                        f"{state['feasts_set_aside']} to {action.count} (reason: {action.reason}).")
            if after["finished"]:
                sentence += " That makes five feasts: the game is over."
            return sentence
        return super().describe(state, action, actor)

    def _defeated_cards(self, state: dict) -> list[dict]:
        """This attack's defeated cards in the order they were turned."""
        latest: dict[tuple[int, int], int] = {}
        for index, entry in enumerate(state["revealed"]):
            latest[(entry["row"], entry["column"])] = index
        cells = sorted(latest, key=latest.get)
        return [self.cell(state, row, column)["card"] for row, column in cells
                if self.cell(state, row, column)["state"] == "defeated"]

    def _refill_note(self, before: dict, after: dict) -> str:
        used = before["supply"] - after["supply"]
        if after["phase"] == "refill":
            return (f" The supply holds only {_plural(after['supply'], 'card')} for "
                    f"{len(self.holes(after))} holes.")
        if used:
            return f" {_plural(used, 'supply card')} refilled the formation ({after['supply']} left)."
        return ""

    def _describe_reveal(self, state: dict, after: dict) -> str:
        attacker = state["attacker"]
        entry = after["revealed"][-1]
        card = entry["card"]
        known = self.cell(state, entry["row"], entry["column"])["card"]
        note = ""
        if known is not None:
            note = (" (turned over again)" if known == card
                    else f" (it had been noted as {card_name(known)})")
        kind = card["kind"]
        kept = len(self._defeated_cards(state))
        if after["finished"] and kind == "feast":
            ending = (f"{attacker} keeps {_plural(kept, 'defeated card')} of this attack" if kept
                      else "nothing was defeated in this attack")
            return f"{attacker} turned over the fifth village feast{note}: the game is over and {ending}."
        if kind == "boar":
            ending = (f"{attacker} secures {_plural(kept, 'defeated card')}" if kept
                      else "nothing was defeated before it")
            return (f"{attacker} turned over the wild boar{note}: the attack ends, the boar leaves "
                    f"the game and {ending}." + self._refill_note(state, after))
        if kind == "feast":
            sentence = f"{attacker} turned over a village feast{note} ({self.feast_total(after)} of 5)."
        elif kind == "traitor":
            sentence = f"{attacker} turned over the traitor{note} and beat him with two fight cards of one colour."
        elif kind == "pirate":
            sentence = f"{attacker} turned over a pirate{note} and beat him with a fight card."
        else:
            sentence = f"{attacker} turned over {card_name(card)}{note} and beat him with a {card['colour']} fight card."
        if self.formation_broken(after):
            sentence += " The formation is broken: a further attack is possible."
        return sentence

    def _line_offer(self, state: dict) -> dict:
        """Which rows and columns the figure may be placed before now, and by which action."""
        if state["phase"] == "choose_line":
            action, lines = "choose_line", self.open_lines(state)
        elif state["phase"] == "attack" and self.formation_broken(state):
            action, lines = "further_attack", self.further_lines(state)
        else:
            return {"action": None, "row": [], "column": []}
        return {"action": action,
                "row": [entry["number"] for entry in lines if entry["line"] == "row"],
                "column": [entry["number"] for entry in lines if entry["line"] == "column"]}

    # -- results ---------------------------------------------------------------------------
    def scores(self, state: dict) -> dict[str, int]:
        """Tokens per player: final once over, the tokens as they would fall now while running."""
        return self.scoring(state)["points"]

    def winners(self, state: dict) -> list[str]:
        if not state["finished"]:
            return []
        return self.scoring(state)["winners"]

    def quick_score(self, payload: dict) -> dict:
        """Score two piles entered by hand (see the module function)."""
        return quick_score(payload)

    def quick_score_payload(self, form: dict[str, list[str]]) -> dict:
        """The quick-score page's fields (name_1, legionaries_1_red, centurion_1, pirates_1,
        traitor_1, and the same with _2) as a quick_score payload; blank counts are 0."""
        players = []
        for seat in (1, 2):
            name = _form_value(form, f"name_{seat}") or f"Player {seat}"
            players.append({
                "name": name,
                "legionaries": {colour: _form_count(form, f"legionaries_{seat}_{colour}",
                                                    f"{name}'s {colour} legionaries")
                                for colour in COLOURS},
                "centurions": [value for value in form.get(f"centurion_{seat}", []) if value.strip()],
                "pirates": _form_count(form, f"pirates_{seat}", f"{name}'s pirates"),
                "traitor": bool(_form_value(form, f"traitor_{seat}")),
            })
        return {"players": players}

    def status(self, state: dict) -> str:
        phase = state["phase"]
        attacker = state["attacker"]
        if phase == "setup":
            return "Setup: follow the checklist, then tap who attacks first."
        if phase == "over":
            return "Game over after the fifth feast: " + self.scoring(state)["verdict"]
        feasts = f" · feasts {self.feast_total(state)}/5"
        if phase == "choose_line":
            blocked = state["blocked"]
            note = (f" ({line_label(blocked['line'], blocked['number'])} is blocked)"
                    if blocked and blocked["for"] == attacker else "")
            return f"{attacker}'s attack: choose a row or column{note}{feasts}"
        if phase == "attack":
            attack = state["attack"]
            label = line_label(attack["line"], attack["number"])
            if self.formation_broken(state):
                return f"{attacker} broke the formation: take a further attack or end and secure{feasts}"
            if self.next_in_line(state) is None:
                return f"{attacker} has turned every card of {label}: end the attack{feasts}"
            if not attack["revealed_in_line"]:
                return f"{attacker} stands before {label}: turn the first card{feasts}"
            return f"{attacker} attacks {label}: turn the next card or end the attack{feasts}"
        if phase == "refill":
            return (f"{attacker}: place the last {_plural(state['supply'], 'supply card')} into "
                    f"{len(self.holes(state))} holes{feasts}")
        return f"{attacker}: block a line for {self.opponent(state, attacker)}'s next attack{feasts}"

    def offered_actions(self, state: dict) -> list[str]:
        """The action types a phone should offer now."""
        phase = state["phase"]
        if phase == "setup":
            return ["start_game"]
        if phase == "over":
            return ["correct_pile"]
        corrections = ["correct_pile", "correct_feasts"]
        if phase == "choose_line":
            return ["choose_line"] + corrections
        if phase == "refill":
            return ["fill_hole"] + corrections
        if phase == "block":
            return ["block_line", "skip_block"] + corrections
        attack = state["attack"]
        offered = []
        if not attack["revealed_in_line"] and not attack["looked"]:
            offered.append("look_at_last_card")
        if self.next_in_line(state) is not None:
            offered.append("reveal_card")
        if attack["last"] and self.cell(state, attack["last"]["row"], attack["last"]["column"])["state"] == "defeated":
            offered.append("no_matching_card")
        if attack["revealed_in_line"]:
            offered.append("end_attack")
        if self.formation_broken(state):
            offered.append("further_attack")
        return offered + corrections

    def view(self, state: dict) -> dict:
        """Everything the board, piles, odds and scoring blocks show."""
        attack = state["attack"]
        attack_cells = set(line_cells(attack["line"], attack["number"], attack["start"])) if attack else set()
        upcoming = self.next_in_line(state) if attack else None
        looked = attack["looked"] if attack else None
        blocked = state["blocked"]
        blocked_cells = set(line_cells(blocked["line"], blocked["number"])) if blocked else set()
        labels = {"down": "face down", "defeated": "defeated", "feast": "village feast", "empty": "empty"}
        grid = []
        for r in range(1, GRID_SIZE + 1):
            cells = []
            for c in range(1, GRID_SIZE + 1):
                cell = self.cell(state, r, c)
                label = labels[cell["state"]]
                if cell["card"] is not None:
                    label += f": {card_name(cell['card'])}"
                cells.append({
                    "row": r, "column": c, "state": cell["state"], "card": cell["card"],
                    "known": cell["state"] == "down" and cell["card"] is not None,
                    "label": label,
                    "on_attack_line": (r, c) in attack_cells,
                    "next": bool(upcoming and upcoming[1:] == (r, c)),
                    "looked": bool(looked and (looked["row"], looked["column"]) == (r, c)),
                    "blocked": (r, c) in blocked_cells,
                })
            grid.append(cells)

        attack_view = None
        if attack:
            attack_view = {
                **attack,
                "label": line_label(attack["line"], attack["number"]),
                "figure": attack["last"],  # the figure stands on the last card it beat (None: in front)
                "fight_cards_spent": attack["spent"],
                "next_known": (self.cell(state, upcoming[1], upcoming[2])["card"] if upcoming else None),
                "next_cell": ({"row": upcoming[1], "column": upcoming[2]} if upcoming else None),
                "last_card": (self.cell(state, attack["last"]["row"], attack["last"]["column"])["card"]
                              if attack["last"] else None),
                "defeated": len(self._defeated_cards(state)),
                "formation_broken": self.formation_broken(state),
            }

        unseen = self.unseen(state)
        total_unseen = sum(unseen.values())
        if attack_view is not None:
            # A card tap is possible while such a card is unseen, or if it names the known next card.
            known_next = attack_view["next_known"]
            attack_view["possible"] = [key for key in COMPOSITION
                                       if unseen[key] or (known_next and card_key(known_next) == key)]
        groups = [("feast", "a village feast", unseen["feast"])]
        groups += [(colour, f"{colour} (legionary or centurion)",
                    unseen[f"legionary:{colour}"] + unseen[f"centurion:{colour}"]) for colour in COLOURS]
        groups += [("pirate", "a pirate", unseen["pirate"]), ("traitor", "the traitor", unseen["traitor"]),
                   ("boar", "the wild boar", unseen["boar"])]
        odds = [
            {"key": key, "label": label, "unseen": count, "out_of": total_unseen,
             "fraction": f"{count}/{total_unseen}",
             "percent": round(100 * count / total_unseen, 1)}
            for key, label, count in groups
        ] if total_unseen else []

        scoring = self.scoring(state)
        piles = {}
        for name in state["players"]:
            pile = state["secured"][name]
            piles[name] = {
                "colours": [
                    {"colour": colour, "legionaries": pile["legionaries"][colour],
                     "centurion": bool(pile["centurions"][colour]),
                     "cards": pile["legionaries"][colour] + pile["centurions"][colour],
                     "token": scoring["tokens"][colour] == name}
                    for colour in COLOURS
                ],
                "pirates": pile["pirates"],
                "traitor": bool(pile["traitor"]),
                "cards": pile_cards(pile),
                "tokens": scoring["points"][name],
            }
        out_counts: dict[str, int] = {}
        for entry in state["out_of_game"]:
            out_counts[card_name(entry["card"])] = out_counts.get(card_name(entry["card"]), 0) + 1
        feasts_turned = self.feast_total(state) - state["feasts_set_aside"]
        return {
            "phase": state["phase"],
            "setup_checklist": list(SETUP_CHECKLIST) if state["phase"] == "setup" else [],
            "attacker": state["attacker"],
            "opponent": self.opponent(state, state["attacker"]) if state["attacker"] else None,
            "grid": grid,
            "supply": state["supply"],
            "holes": [{"row": r, "column": c} for r, c in self.holes(state)] if state["phase"] == "refill" else [],
            "attack": attack_view,
            "open_lines": self.open_lines(state) if state["phase"] == "choose_line" else [],
            "further_lines": self.further_lines(state) if state["phase"] == "attack" else [],
            "line_offer": self._line_offer(state),
            "blocked_line": ({**blocked, "label": line_label(blocked["line"], blocked["number"])}
                             if blocked else None),
            "block_choices": ([{"line": line, "number": number, "label": line_label(line, number)}
                               for line, number in ALL_LINES] if state["phase"] == "block" else []),
            "feasts": {"count": self.feast_total(state), "set_aside": state["feasts_set_aside"],
                       "this_attack": feasts_turned, "max": FEAST_COUNT},
            "piles": piles,
            "out_of_game": state["out_of_game"],
            "out_of_game_counts": [{"card": name, "count": count} for name, count in out_counts.items()],
            "revealed_count": len(state["revealed"]),
            "unseen": {
                "colours": [{"colour": colour, "legionaries": unseen[f"legionary:{colour}"],
                             "centurion": unseen[f"centurion:{colour}"]} for colour in COLOURS],
                "pirates": unseen["pirate"], "traitor": unseen["traitor"], "boar": unseen["boar"],
                "feasts": unseen["feast"], "total": total_unseen,
            },
            "odds": odds,
            "scoring": scoring,
            "offered": self.offered_actions(state),
        }
