"""Asterix: Das Kartenspiel (David Parlett): score piles, pirates, sets and four-round totals.

The table plays the cards; the companion keeps each player's score pile, either tapped in
trick by trick or typed in after the round, works out the pirates' escapes and the set
bonuses with the working shown, and adds up the rounds.

Rulings where the rulebook is silent (each one documented where it is applied):

* Pirates escape in a fixed order: the rank pirates (Dekurio, Zenturio, General) first, as
  they name one card, then the highest, then the lowest, and the pirate of choice last, so that
  every pirate takes a different Roman whenever the pile allows it.
* The pirate of choice takes the Roman whose loss costs its owner the fewest points (value plus
  the set bonus it breaks; the lower value on a tie) unless the owner names another value.
* When two or more Idefixes clash, nobody looks and no card leaves the deck; the face-up Roman
  still goes to the highest Gaul played, tapped as usual. If every player still in the round
  played Idefix, no Gaul was played, so that Roman stays face up for the next trick.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, model_validator

from .base import Action, Game, GameError, Options, Whole, explain

# -- the cards ---------------------------------------------------------------------

DECK_SIZE = 50
ROMAN_COUNT = 44
LOW_VALUES = range(1, 11)  # the values printed four times each
LOW_COPIES = 4
HIGH_VALUE_RANGE = (11, 15)  # the single high Romans come from these values
DEFAULT_HIGH_VALUES = "11,12,13,14"
HAND_GAULS = 10  # each character has ten Gaul cards, plus one Idefix

# Gaul characters by key, with their German and English names.
GAULS: dict[str, dict[str, str]] = {
    "asterix": {"de": "Asterix", "en": "Asterix"},
    "obelix": {"de": "Obelix", "en": "Obelix"},
    "majestix": {"de": "Majestix", "en": "Vitalstatistix"},
    "miraculix": {"de": "Miraculix", "en": "Getafix"},
    "troubadix": {"de": "Troubadix", "en": "Cacofonix"},
}
# English names (and a few spellings) typed in place of the key.
GAUL_ALIASES = {"vitalstatistix": "majestix", "getafix": "miraculix", "cacofonix": "troubadix"}
DOG = {"de": "Idefix", "en": "Dogmatix"}

RANKS = ("dekurio", "zenturio", "general")
RANK_NAMES = {"dekurio": "Dekurio", "zenturio": "Zenturio", "general": "General"}
PIRATE_KINDS = ("highest", "lowest", "choice", "dekurio", "zenturio", "general")
PIRATE_LABELS = {
    "highest": "the highest Roman escapes",
    "lowest": "the lowest Roman escapes",
    "choice": "a Roman of the owner's choice escapes",
    "dekurio": "a Dekurio escapes",
    "zenturio": "a Zenturio escapes",
    "general": "a General escapes",
}
# Short names for buttons and chips; the labels above say what each one does.
PIRATE_NAMES = {
    "highest": "Highest",
    "lowest": "Lowest",
    "choice": "Choice",
    "dekurio": "Dekurio",
    "zenturio": "Zenturio",
    "general": "General",
}
# Rank pirates name one card, so they go first; the free choice goes last (see module docstring).
ESCAPE_ORDER = ("dekurio", "zenturio", "general", "highest", "lowest", "choice")

PirateKind = Literal["highest", "lowest", "choice", "dekurio", "zenturio", "general"]
RomanValue = Annotated[Whole, Field(ge=1, le=HIGH_VALUE_RANGE[1])]


def parse_values(text: str, what: str) -> list[int]:
    """Read whole numbers separated by commas or spaces, refusing anything else with a sentence."""
    values = []
    # Phones offer a space more readily than a comma, so either separates the values.
    for piece in re.split(r"[,;\s]+", text):
        if not piece:
            continue
        if not piece.isdigit():
            raise ValueError(f"{what} must be whole numbers separated by commas or spaces; '{piece}' is not")
        values.append(int(piece))
    return values


def roman_word(value: int) -> str:
    return f"a Roman worth {value}"


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def and_list(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


# -- scoring, shared by the table and the quick score ------------------------------------


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
) -> dict:
    """Score one pile: the pirates' escapes, then values and set bonuses, with the working.

    Returns ``kept`` (pile order), ``escapes`` (one entry per pirate, in pile order, with the
    Roman that escaped or ``None`` and a reason), ``points``, ``sets``, ``bonus`` and ``total``.
    """
    left = list(romans)
    escaped: list[int | None] = [None] * len(pirates)
    reasons: list[str] = [""] * len(pirates)
    choice_fell_back = False
    for index in sorted(range(len(pirates)), key=lambda i: ESCAPE_ORDER.index(pirates[i])):
        kind = pirates[index]
        target = None
        if kind in RANKS:
            rank_value = ranks.get(kind)
            if rank_value is None:
                reasons[index] = f"no value is set for the {RANK_NAMES[kind]}, so nobody escapes"
            elif rank_value in left:
                target = rank_value
            else:
                reasons[index] = f"no {RANK_NAMES[kind]} ({rank_value}) in the pile, so nobody escapes"
        elif not left:
            reasons[index] = "no Roman left in the pile, so nobody escapes"
        elif kind == "highest":
            target = max(left)
        elif kind == "lowest":
            target = min(left)
        elif named_choice is not None and named_choice in left:
            target = named_choice
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
                "label": PIRATE_LABELS[kind],
                "roman": escaped[i],
                "reason": reasons[i],
            }
            for i, kind in enumerate(pirates)
        ],
        "escaped": [value for value in escaped if value is not None],
        "named_choice": named_choice,
        "choice_fell_back": choice_fell_back,
        "points": points,
        "sets": sets,
        "bonus": bonus_points,
        "total": points + bonus_points,
    }


# -- the score-progress chart, drawn on the server as SVG --------------------------------

CHART_WIDTH, CHART_HEIGHT = 340, 226
PLOT_LEFT, PLOT_RIGHT, PLOT_TOP, PLOT_BOTTOM = 34, 246, 12, 196
LABEL_SPACING = 15  # end labels at least this far apart, so equal totals stay readable
LABEL_NAME_CHARS = 7  # what fits right of the plot at 12 px
NICE_STEPS = (10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000)
# Each line differs in marker shape and dash as well as colour: never colour alone.
LINE_STYLES = (
    {"marker": "circle", "dash": "", "colour": "#0b4fa8"},
    {"marker": "square", "dash": "8 4", "colour": "#a40e0e"},
    {"marker": "triangle", "dash": "2 4", "colour": "#0d6b2f"},
    {"marker": "diamond", "dash": "12 4 3 4", "colour": "#5b2a86"},
    {"marker": "plus", "dash": "5 2", "colour": "#7a4a00"},
)


def marker_path(shape: str, x: float, y: float) -> str:
    """SVG path data of a marker of ``shape`` centred on (x, y), about 10 px across."""
    if shape == "circle":
        return f"M{x - 4.5:.1f} {y:.1f}a4.5 4.5 0 1 0 9 0a4.5 4.5 0 1 0 -9 0Z"
    if shape == "square":
        return f"M{x - 4:.1f} {y - 4:.1f}h8v8h-8Z"
    if shape == "triangle":
        return f"M{x:.1f} {y - 5.5:.1f}l5.5 9.5h-11Z"
    if shape == "diamond":
        return f"M{x:.1f} {y - 6:.1f}l6 6l-6 6l-6 -6Z"
    return f"M{x - 1.8:.1f} {y - 5.5:.1f}h3.6v3.7h3.7v3.6h-3.7v3.7h-3.6v-3.7h-3.7v-3.6h3.7Z"


def nice_top(highest: int) -> tuple[int, int]:
    """The top of the y axis and its gridline step: at most five steps, round numbers."""
    for step in NICE_STEPS:
        steps = max(1, -(-highest // step))
        if steps <= 5:
            return step * steps, step
    step = NICE_STEPS[-1]
    return step * -(-highest // step), step


def short_name(name: str) -> str:
    return name if len(name) <= LABEL_NAME_CHARS else name[: LABEL_NAME_CHARS - 1] + "…"


def progress_chart(players: list[str], progress: dict[str, list[int]], rounds: int) -> dict:
    """Coordinates of the running-totals chart: one line per player from 0 through each closed round."""
    highest = max([total for series in progress.values() for total in series], default=0)
    top, step = nice_top(highest)

    def x_of(round_number: int) -> float:
        return round(PLOT_LEFT + (PLOT_RIGHT - PLOT_LEFT) * round_number / rounds, 1)

    def y_of(total: int) -> float:
        return round(PLOT_BOTTOM - (PLOT_BOTTOM - PLOT_TOP) * total / top, 1)

    series = []
    for index, name in enumerate(players):
        style = LINE_STYLES[index % len(LINE_STYLES)]
        points = [{"round": 0, "total": 0, "x": x_of(0), "y": y_of(0)}] + [
            {"round": number, "total": total, "x": x_of(number), "y": y_of(total)}
            for number, total in enumerate(progress[name], start=1)
        ]
        series.append(
            {
                "player": name,
                "cumulative": progress[name],
                "marker": style["marker"],
                "dash": style["dash"],
                "colour": style["colour"],
                "line": " ".join(f"{p['x']},{p['y']}" for p in points),
                "points": points[1:],
                "marker_paths": [marker_path(style["marker"], p["x"], p["y"]) for p in points[1:]],
                "legend_marker": marker_path(style["marker"], 16, 9),
                "total": progress[name][-1] if progress[name] else 0,
            }
        )
    # End labels ("▲ Ann 166") beside the last points, nudged apart where totals are close.
    ordered = sorted(series, key=lambda item: (item["points"][-1]["y"] if item["points"] else PLOT_BOTTOM))
    label_ys: list[float] = []
    for item in ordered:
        y = item["points"][-1]["y"] if item["points"] else PLOT_BOTTOM
        label_ys.append(max(y, label_ys[-1] + LABEL_SPACING) if label_ys else y)
    limit = PLOT_BOTTOM + 4
    for position in range(len(label_ys) - 1, -1, -1):
        limit = min(label_ys[position], limit)
        label_ys[position] = limit
        limit -= LABEL_SPACING
    for item, y in zip(ordered, label_ys):
        x = (item["points"][-1]["x"] if item["points"] else x_of(0)) + 13
        item["label"] = {
            "x": round(x + 12, 1),
            "y": round(y + 4, 1),
            "text": f"{short_name(item['player'])} {item['total']}",
            "marker_path": marker_path(item["marker"], x + 4, y),
        }
    return {
        "rounds": list(range(1, rounds + 1)),
        "series": series,
        "max_total": highest,
        "drawn": any(progress[name] for name in players),
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "plot": {"left": PLOT_LEFT, "right": PLOT_RIGHT, "top": PLOT_TOP, "bottom": PLOT_BOTTOM},
        "x_ticks": [{"round": number, "x": x_of(number)} for number in range(1, rounds + 1)],
        "y_ticks": [{"value": value, "y": y_of(value)} for value in range(0, top + 1, step)],
    }


# -- options ---------------------------------------------------------------------------


# The setup form shows a language by its name; the API also takes the codes "de" and "en".
LANGUAGES = {"German": "de", "English": "en"}


def _language_name(value: Any) -> Any:
    if isinstance(value, str):
        text = value.strip()
        by_code = {code: name for name, code in LANGUAGES.items()}
        return by_code.get(text.lower(), text.capitalize())
    return value


class KartenspielOptions(Options):
    # Titles are shown with only their first letter capitalised, so proper names come first.
    language: Annotated[Literal["German", "English"], BeforeValidator(_language_name)] = Field(
        "German",
        title="Names on the cards",
        description="German: Majestix, Miraculix, Troubadix, Idefix. English: Vitalstatistix, "
        "Getafix, Cacofonix, Dogmatix.",
    )
    high_values: str = Field(
        DEFAULT_HIGH_VALUES,
        max_length=40,
        title="High values in the deck",
        description="The single high Romans, values 11 to 15 separated by commas. Four of them "
        "unless a low value has only three cards. Which ones the deck holds is not known for "
        "sure: check your cards (default 11, 12, 13, 14).",
    )
    short_value: Whole | None = Field(
        None,
        ge=1,
        le=10,
        title="Low value with only three cards",
        description="Leave empty for the usual deck (1 to 10 four times each). Set it only when "
        "your deck has five high Romans.",
    )
    dekurio: Whole | None = Field(
        None,
        ge=1,
        le=15,
        title="Dekurio's value",
        description="Leave empty if your cards do not show it: its pirate then lets nothing escape.",
    )
    zenturio: Whole | None = Field(
        10, ge=1, le=15, title="Zenturio's value", description="10 on the printed cards."
    )
    general: Whole | None = Field(
        None,
        ge=1,
        le=15,
        title="General's value",
        description="Leave empty if your cards do not show it: its pirate then lets nothing escape.",
    )
    pair_bonus: Whole = Field(
        20, ge=0, le=1000, title="Bonus for a pair", description="Two Romans of one rank (default 20)."
    )
    three_bonus: Whole = Field(
        50, ge=0, le=1000, title="Bonus for three of a kind",
        description="Three Romans of one rank (default 50).",
    )
    four_bonus: Whole = Field(
        100, ge=0, le=1000, title="Bonus for four of a kind",
        description="Four Romans of one rank (default 100).",
    )
    rounds: Whole = Field(4, ge=1, le=10, title="Rounds", description="The game has four rounds.")

    @model_validator(mode="after")
    def deck_is_sound(self) -> "KartenspielOptions":
        high = parse_values(self.high_values, "The high values")
        low, top = HIGH_VALUE_RANGE
        for value in high:
            if not low <= value <= top:
                raise ValueError(f"The high values must lie between {low} and {top}; {value} does not")
        if len(set(high)) != len(high):
            raise ValueError("Each high value is a single card, so list it only once")
        self.high_values = ",".join(str(value) for value in sorted(high))
        romans = len(LOW_VALUES) * LOW_COPIES - (1 if self.short_value else 0) + len(high)
        if romans != ROMAN_COUNT:
            raise ValueError(
                f"The deck holds {ROMAN_COUNT} Romans, but these settings give {romans}; "
                "use four high values, or five with one low value of only three cards"
            )
        deck_values = set(LOW_VALUES) | set(high)
        taken: dict[int, str] = {}
        for rank in RANKS:
            value = getattr(self, rank)
            if value is None:
                continue
            if value not in deck_values:
                raise ValueError(f"The {RANK_NAMES[rank]}'s value {value} is not in the deck")
            if value in taken:
                raise ValueError(f"The {taken[value]} and the {RANK_NAMES[rank]} cannot both be worth {value}")
            taken[value] = RANK_NAMES[rank]
        return self

    def deck(self) -> dict[str, int]:
        """How many Romans of each value the deck holds."""
        counts = {str(value): LOW_COPIES for value in LOW_VALUES}
        if self.short_value:
            counts[str(self.short_value)] -= 1
        for value in parse_values(self.high_values, "The high values"):
            counts[str(value)] = 1
        return counts


# -- actions ---------------------------------------------------------------------------


def _gaul_key(value: Any) -> Any:
    if isinstance(value, str):
        key = value.strip().lower()
        return GAUL_ALIASES.get(key, key)
    return value


class ChooseGaul(Action):
    """Give a player a Gaul character; whoever had it takes the player's old one."""

    type: Literal["choose_gaul"] = "choose_gaul"
    player: str = Field(description="The player's name, as seated.")
    gaul: Annotated[
        Literal["asterix", "obelix", "majestix", "miraculix", "troubadix"], BeforeValidator(_gaul_key)
    ] = Field(description="The character (German or English name).")


class WinRoman(Action):
    """A Roman of this value goes to the player: won in a trick, or drawn at the end of a round."""

    type: Literal["win_roman"] = "win_roman"
    player: str = Field(description="Who won it.")
    value: RomanValue = Field(description="The Roman's value.")


class WinPirate(Action):
    """A pirate goes to the player: won in a trick, or drawn at the end of a round."""

    type: Literal["win_pirate"] = "win_pirate"
    player: str = Field(description="Who won it.")
    kind: PirateKind = Field(description="Which pirate.")


class IdefixLook(Action):
    """A player's Idefix looked at the top card of the deck, then kept it or gave it away."""

    type: Literal["idefix_look"] = "idefix_look"
    player: str = Field(description="Whose Idefix looked.")
    roman: RomanValue | None = Field(None, description="The card's value, when it was a Roman.")
    pirate: PirateKind | None = Field(None, description="The pirate's kind, when it was a pirate.")
    given_to: str | None = Field(None, description="Who received the card (empty: kept).")


class IdefixClash(Action):
    """Two or more Idefixes came out together: nobody looks and every Idefix goes back."""

    type: Literal["idefix_clash"] = "idefix_clash"


class PlayerOut(Action):
    """A player has no cards left and sits out the rest of the round."""

    type: Literal["player_out"] = "player_out"
    player: str = Field(description="Who is out of cards.")


class LastPlayer(Action):
    """The only player still holding cards says how many; one card per card comes from the deck."""

    type: Literal["last_player"] = "last_player"
    player: str = Field(description="The player still holding cards.")
    cards_left: Whole = Field(ge=1, le=HAND_GAULS + 1, description="Cards in hand, Idefix included.")
    idefix_among: bool = Field(False, description="Whether Idefix is one of those cards.")


class EnterRomans(Action):
    """Write a player's whole Roman pile for the round, replacing what was there."""

    type: Literal["enter_romans"] = "enter_romans"
    player: str = Field(description="Whose pile.")
    values: str | None = Field(
        None, max_length=200, description="The Romans' values, separated by commas or spaces (empty: none)."
    )


class AddRoman(Action):
    """Put one Roman of this value into a player's pile."""

    type: Literal["add_roman"] = "add_roman"
    player: str = Field(description="Whose pile.")
    value: RomanValue = Field(description="The Roman's value.")


class RemoveRoman(Action):
    """Take one Roman of this value out of a player's pile."""

    type: Literal["remove_roman"] = "remove_roman"
    player: str = Field(description="Whose pile.")
    value: RomanValue = Field(description="The Roman's value.")


class AddPirate(Action):
    """Put a pirate into a player's pile."""

    type: Literal["add_pirate"] = "add_pirate"
    player: str = Field(description="Whose pile.")
    kind: PirateKind = Field(description="Which pirate.")


class RemovePirate(Action):
    """Take a pirate out of a player's pile."""

    type: Literal["remove_pirate"] = "remove_pirate"
    player: str = Field(description="Whose pile.")
    kind: PirateKind = Field(description="Which pirate.")


class ChooseEscape(Action):
    """Name the Roman that the pirate of choice lets escape (empty: the cheapest one)."""

    type: Literal["choose_escape"] = "choose_escape"
    player: str = Field(description="The owner of the pirate of choice.")
    value: RomanValue | None = Field(None, description="The value that escapes (empty: cheapest).")


class CloseRound(Action):
    """Score the round as shown and start the next one (or end the game)."""

    type: Literal["close_round"] = "close_round"


TRICK_ACTIONS = (WinRoman, WinPirate, IdefixLook, IdefixClash, PlayerOut, LastPlayer)
ENTRY_ACTIONS = (EnterRomans, AddRoman, RemoveRoman, AddPirate, RemovePirate)


# -- the quick score's request (POST /api/games/kartenspiel/score) ---------------------


class KartenspielBonus(BaseModel):
    """The set bonus table: keys are the set sizes "2", "3" and "4"."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    pair: Whole = Field(20, ge=0, le=1000, alias="2")
    three: Whole = Field(50, ge=0, le=1000, alias="3")
    four: Whole = Field(100, ge=0, le=1000, alias="4")


class KartenspielRanks(BaseModel):
    """The values of the ranks named by the rank pirates (null: unknown, removes nothing)."""

    model_config = ConfigDict(extra="forbid")

    dekurio: Whole | None = Field(None, ge=1, le=15)
    zenturio: Whole | None = Field(10, ge=1, le=15)
    general: Whole | None = Field(None, ge=1, le=15)


class KartenspielPile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=60)
    romans: list[Whole] = Field(default_factory=list, description="The values of the Romans won.")
    pirates: list[Any] = Field(
        default_factory=list,
        description='Pirate kinds: "highest", "lowest", "choice" (the cheapest escape), '
        '{"choice": value}, "dekurio", "zenturio", "general".',
    )


class KartenspielScoreRequest(BaseModel):
    """One round of Das Kartenspiel to score: each player's Romans and pirates."""

    model_config = ConfigDict(extra="forbid")

    players: list[KartenspielPile]
    bonus: KartenspielBonus | None = None
    ranks: KartenspielRanks | None = None


# The OpenAPI document names schemas by class name, so this one carries the game's name.
QuickScoreRequest = KartenspielScoreRequest


# -- the game --------------------------------------------------------------------------


class Kartenspiel(Game):
    id = "kartenspiel"
    name = "Asterix: Das Kartenspiel"
    summary = (
        "Tricks won with Gauls, Romans in the score piles, pirates letting them escape, "
        "set bonuses and four rounds of totals."
    )
    min_players = 2
    max_players = 5
    options_model = KartenspielOptions
    actions = (
        ChooseGaul,
        WinRoman,
        WinPirate,
        IdefixLook,
        IdefixClash,
        PlayerOut,
        LastPlayer,
        EnterRomans,
        AddRoman,
        RemoveRoman,
        AddPirate,
        RemovePirate,
        ChooseEscape,
        CloseRound,
    )
    regions = ("deck", "piles", "scoring", "totals")
    quick_score_model = QuickScoreRequest

    # -- quick score (page and JSON) ---------------------------------------------------
    def quick_score(self, payload: dict) -> dict:
        return quick_score(payload)

    def quick_score_payload(self, form: dict[str, list[str]]) -> dict:
        """The quick-score page's rows (name, Romans, pirates) and settings as a quick_score payload."""
        return quick_score_payload(form)

    # -- setup ---------------------------------------------------------------------
    def initial_state(self, players: list[str], options: KartenspielOptions) -> dict:
        state = {
            "players": list(players),
            "language": LANGUAGES[options.language],
            "deck": options.deck(),
            "ranks": {rank: getattr(options, rank) for rank in RANKS},
            "bonus": {"2": options.pair_bonus, "3": options.three_bonus, "4": options.four_bonus},
            "rounds": options.rounds,
            "gauls": {name: key for name, key in zip(players, GAULS)},
            "round": 1,
            "closed": [],
            "finished": False,
        }
        state.update(self.fresh_round(players))
        return state

    @staticmethod
    def fresh_round(players: list[str]) -> dict:
        """The parts of the state that start over every round."""
        return {
            # "tricks": taps per trick; "drawing": the last player takes cards; "scoring": piles final.
            "phase": "tricks",
            "piles": {name: {"romans": [], "pirates": [], "choice": None} for name in players},
            "hands": {name: {"gauls": HAND_GAULS, "idefix": True, "out": False} for name in players},
            "last_player": None,
            "draws_left": 0,
            "clashes": 0,
        }

    # -- derived facts -----------------------------------------------------------------
    @staticmethod
    def romans_left(state: dict) -> dict[str, int]:
        """Romans of each value still in the deck (the deck minus every pile)."""
        left = dict(state["deck"])
        for pile in state["piles"].values():
            for value in pile["romans"]:
                left[str(value)] -= 1
        return left

    @staticmethod
    def pirates_left(state: dict) -> list[str]:
        owned = {kind for pile in state["piles"].values() for kind in pile["pirates"]}
        return [kind for kind in PIRATE_KINDS if kind not in owned]

    def deck_left(self, state: dict) -> int:
        return sum(self.romans_left(state).values()) + len(self.pirates_left(state))

    @staticmethod
    def still_in(state: dict) -> list[str]:
        return [name for name in state["players"] if not state["hands"][name]["out"]]

    def dog(self, state: dict) -> str:
        return DOG[state["language"]]

    def gaul_name(self, state: dict, player: str) -> str:
        return GAULS[state["gauls"][player]][state["language"]]

    def working(self, state: dict) -> dict[str, dict]:
        """The scoring of the current round's piles, per player."""
        return {
            name: work_out_pile(
                pile["romans"], pile["pirates"], state["ranks"], state["bonus"], pile["choice"]
            )
            for name, pile in state["piles"].items()
        }

    # -- checks ------------------------------------------------------------------------
    @staticmethod
    def _seated(state: dict, player: str | None) -> None:
        if player not in state["players"]:
            raise GameError(f"There is no player called '{player}' at this table.")

    def _roman_available(self, state: dict, value: int) -> None:
        held = state["deck"].get(str(value), 0)
        if not held:
            raise GameError(f"The deck has no Roman worth {value}.")
        if self.romans_left(state)[str(value)] <= 0:
            raise GameError(
                f"All {plural(held, 'Roman')} worth {value} are already in the piles; "
                "the deck has none left."
            )

    def _pirate_available(self, state: dict, kind: str) -> None:
        for name, pile in state["piles"].items():
            if kind in pile["pirates"]:
                raise GameError(
                    f"The deck has one pirate where {PIRATE_LABELS[kind]}, and it is already in "
                    f"{name}'s pile."
                )

    def _trick_open(self, state: dict, one_left_ok: bool = False) -> None:
        """Refuse a trick tap once the tricks of this round are over."""
        if state["phase"] == "scoring":
            raise GameError(
                f"The tricks of round {state['round']} are over; correct the piles on the scoring "
                "screen or undo."
            )
        if state["phase"] == "drawing":
            raise GameError(
                f"{state['last_player']} is taking the last cards from the deck; "
                "only those cards can be recorded now."
            )
        still_in = self.still_in(state)
        if len(still_in) == 1 and not one_left_ok:
            raise GameError(
                f"Only {still_in[0]} still holds cards; say how many are left to finish the round."
            )

    def _in_round(self, state: dict, player: str) -> None:
        if state["hands"][player]["out"]:
            raise GameError(f"{player} is out of cards for this round.")

    # -- moves -------------------------------------------------------------------------
    def apply(self, state: dict, action: Action, actor: str | None) -> dict:
        if state["finished"]:
            raise GameError("The game is over; undo the last closed round to change it.")
        new = self.copy(state)
        if isinstance(action, ChooseGaul):
            self._seated(state, action.player)
            holder = next((n for n, key in state["gauls"].items() if key == action.gaul), None)
            if holder is not None:
                new["gauls"][holder] = state["gauls"][action.player]
            new["gauls"][action.player] = action.gaul
            return new
        if isinstance(action, TRICK_ACTIONS):
            return self._apply_trick(state, new, action)
        if isinstance(action, ENTRY_ACTIONS):
            return self._apply_entry(state, new, action)
        if isinstance(action, ChooseEscape):
            self._seated(state, action.player)
            pile = state["piles"][action.player]
            if "choice" not in pile["pirates"]:
                raise GameError(f"{action.player} does not hold the pirate of choice.")
            if action.value is not None and action.value not in pile["romans"]:
                raise GameError(f"{action.player}'s pile has no Roman worth {action.value}.")
            new["piles"][action.player]["choice"] = action.value
            return new
        if isinstance(action, CloseRound):
            if state["phase"] != "scoring":
                raise GameError(
                    f"Round {state['round']} is still being played ({plural(self.deck_left(state), 'card')} "
                    "in the deck); finish its tricks or enter the piles first."
                )
            working = self.working(state)
            new["closed"].append(
                {
                    "round": state["round"],
                    "piles": new["piles"],
                    "working": working,
                    "totals": {name: working[name]["total"] for name in state["players"]},
                }
            )
            if state["round"] >= state["rounds"]:
                new["finished"] = True
                new["phase"] = "over"
            else:
                new["round"] = state["round"] + 1
                new.update(self.fresh_round(state["players"]))
            return new
        raise GameError(f"{self.name} cannot handle the action '{action.type}'.")

    def _apply_trick(self, state: dict, new: dict, action: Action) -> dict:
        if isinstance(action, (WinRoman, WinPirate)):
            self._seated(state, action.player)
            drawing = state["phase"] == "drawing"
            if drawing and action.player != state["last_player"]:
                raise GameError(
                    f"Only {state['last_player']} takes cards from the deck now, not {action.player}."
                )
            if not drawing:
                self._trick_open(state)
                self._in_round(state, action.player)
            if isinstance(action, WinRoman):
                self._roman_available(state, action.value)
                new["piles"][action.player]["romans"].append(action.value)
            else:
                self._pirate_available(state, action.kind)
                new["piles"][action.player]["pirates"].append(action.kind)
            if drawing:
                # The last player's draws spend no Gaul; a pirate simply counts as one card.
                new["draws_left"] -= 1
            elif isinstance(action, WinRoman):
                self._spend_gaul(new, action.player)
            else:
                # A pirate sends the winning Gaul back to hand and costs everyone else theirs.
                for name in self.still_in(state):
                    if name != action.player:
                        self._spend_gaul(new, name)
        elif isinstance(action, IdefixLook):
            self._trick_open(state)
            self._seated(state, action.player)
            self._in_round(state, action.player)
            dog = self.dog(state)
            if not state["hands"][action.player]["idefix"]:
                raise GameError(f"{action.player}'s {dog} is already discarded this round.")
            if (action.roman is None) == (action.pirate is None):
                raise GameError(f"Say what {dog} saw: either a Roman's value or a pirate's kind.")
            if action.roman is not None:
                self._roman_available(state, action.roman)
            else:
                self._pirate_available(state, action.pirate)
            receiver = action.given_to or action.player
            self._seated(state, receiver)
            kept = receiver == action.player
            if action.roman is not None:
                new["piles"][receiver]["romans"].append(action.roman)
            else:
                new["piles"][receiver]["pirates"].append(action.pirate)
            # Idefix goes to the discard when he keeps a Roman or gives a pirate away.
            if kept == (action.roman is not None):
                new["hands"][action.player]["idefix"] = False
        elif isinstance(action, IdefixClash):
            self._trick_open(state)
            new["clashes"] += 1
            return new  # nobody looks, so no card leaves the deck
        elif isinstance(action, PlayerOut):
            # Allowed with one player left: the taps may have missed that this one is empty too.
            self._trick_open(state, one_left_ok=True)
            self._seated(state, action.player)
            self._in_round(state, action.player)
            new["hands"][action.player] = {"gauls": 0, "idefix": False, "out": True}
        elif isinstance(action, LastPlayer):
            self._trick_open(state, one_left_ok=True)
            self._seated(state, action.player)
            self._in_round(state, action.player)
            others = [name for name in self.still_in(state) if name != action.player]
            if others:
                raise GameError(
                    f"{and_list(others)} still {'holds' if len(others) == 1 else 'hold'} cards too; "
                    "mark them out first."
                )
            if not action.idefix_among and action.cards_left > HAND_GAULS:
                raise GameError(f"Without {self.dog(state)} a hand holds at most {HAND_GAULS} cards.")
            new["hands"][action.player] = {"gauls": 0, "idefix": False, "out": True}
            new["last_player"] = action.player
            new["draws_left"] = min(self.draws_for(action), self.deck_left(state))
            new["phase"] = "drawing"
        self._end_round_if_done(new)
        return new

    @staticmethod
    def draws_for(action: LastPlayer) -> int:
        """Cards the last player takes: one per card in hand, Idefix too unless it is alone."""
        if action.idefix_among and action.cards_left == 1:
            return 0
        return action.cards_left

    @staticmethod
    def _spend_gaul(state: dict, player: str) -> None:
        hand = state["hands"][player]
        hand["gauls"] -= 1
        if hand["gauls"] <= 0:
            # Idefix may not be the last card played: it is discarded and the player is out.
            state["hands"][player] = {"gauls": 0, "idefix": False, "out": True}

    def _end_round_if_done(self, state: dict) -> None:
        """The round ends when the deck is empty, everybody is out, or the last draws are done."""
        deck_empty = self.deck_left(state) == 0
        if state["phase"] == "drawing" and (deck_empty or state["draws_left"] <= 0):
            state["phase"] = "scoring"
        elif state["phase"] == "tricks" and (deck_empty or not self.still_in(state)):
            state["phase"] = "scoring"

    def _apply_entry(self, state: dict, new: dict, action: Action) -> dict:
        self._seated(state, action.player)
        pile = new["piles"][action.player]
        if isinstance(action, EnterRomans):
            try:
                values = parse_values(action.values or "", "The Romans' values")
            except ValueError as exc:
                raise GameError(f"{exc}.") from None
            others = self.copy(state)
            others["piles"][action.player]["romans"] = []
            left = self.romans_left(others)
            for value in sorted(set(values)):
                held = state["deck"].get(str(value), 0)
                if not held:
                    raise GameError(f"The deck has no Roman worth {value}.")
                if values.count(value) > left[str(value)]:
                    raise GameError(
                        f"The deck holds {plural(held, 'Roman')} worth {value}; with the other piles "
                        f"only {left[str(value)]} can be {action.player}'s."
                    )
            pile["romans"] = values
        elif isinstance(action, AddRoman):
            self._roman_available(state, action.value)
            pile["romans"].append(action.value)
        elif isinstance(action, RemoveRoman):
            if action.value not in pile["romans"]:
                raise GameError(f"{action.player}'s pile has no Roman worth {action.value}.")
            pile["romans"].remove(action.value)
        elif isinstance(action, AddPirate):
            self._pirate_available(state, action.kind)
            pile["pirates"].append(action.kind)
        elif isinstance(action, RemovePirate):
            if action.kind not in pile["pirates"]:
                raise GameError(
                    f"{action.player}'s pile has no pirate where {PIRATE_LABELS[action.kind]}."
                )
            pile["pirates"].remove(action.kind)
            if action.kind == "choice":
                pile["choice"] = None
        # A named escape that is no longer in the pile falls back to the cheapest one.
        if pile["choice"] is not None and pile["choice"] not in pile["romans"]:
            pile["choice"] = None
        # Typing or correcting piles ends the trick taps: the table is on the scoring screen.
        new["phase"] = "scoring"
        new["last_player"] = None
        new["draws_left"] = 0
        return new

    # -- log sentences -----------------------------------------------------------------
    def describe(self, state: dict, action: Action, actor: str | None) -> str:
        dog = self.dog(state)
        if isinstance(action, ChooseGaul):
            return f"{action.player} now plays {GAULS[action.gaul][state['language']]}."
        if isinstance(action, (WinRoman, WinPirate)):
            card = (
                roman_word(action.value)
                if isinstance(action, WinRoman)
                else f"the pirate ({PIRATE_LABELS[action.kind]})"
            )
            if state["phase"] == "drawing":
                return f"{action.player} took {card} from the deck."
            return f"{action.player} won {card}."
        if isinstance(action, IdefixLook):
            card = (
                roman_word(action.roman)
                if action.roman is not None
                else f"the pirate ({PIRATE_LABELS[action.pirate]})"
            )
            if action.given_to and action.given_to != action.player:
                return f"{action.player}'s {dog} looked at the top card, {card}, and gave it to {action.given_to}."
            return f"{action.player}'s {dog} looked at the top card, {card}, and kept it."
        if isinstance(action, IdefixClash):
            return f"Several {dog}s came out together; nobody looked at the top card."
        if isinstance(action, PlayerOut):
            return f"{action.player} ran out of cards."
        if isinstance(action, LastPlayer):
            with_dog = f", {dog} among them" if action.idefix_among else ""
            draws = self.draws_for(action)
            return (
                f"{action.player} was the last with cards ({plural(action.cards_left, 'card')}{with_dog}) "
                f"and takes {plural(draws, 'card')} from the deck."
            )
        if isinstance(action, EnterRomans):
            shown = ", ".join(str(v) for v in parse_values(action.values or "", "values")) or "none"
            return f"{action.player}'s Romans were entered: {shown}."
        if isinstance(action, AddRoman):
            return f"{roman_word(action.value).capitalize()} was added to {action.player}'s pile."
        if isinstance(action, RemoveRoman):
            return f"{roman_word(action.value).capitalize()} was taken out of {action.player}'s pile."
        if isinstance(action, AddPirate):
            return f"The pirate ({PIRATE_LABELS[action.kind]}) was added to {action.player}'s pile."
        if isinstance(action, RemovePirate):
            return f"The pirate ({PIRATE_LABELS[action.kind]}) was taken out of {action.player}'s pile."
        if isinstance(action, ChooseEscape):
            if action.value is None:
                return f"{action.player}'s pirate of choice goes back to the cheapest escape."
            return f"{action.player}'s pirate of choice lets the Roman worth {action.value} escape."
        if isinstance(action, CloseRound):
            working = self.working(state)
            shown = ", ".join(f"{name} {working[name]['total']}" for name in state["players"])
            return f"Round {state['round']} was scored: {shown}."
        return super().describe(state, action, actor)

    # -- results -----------------------------------------------------------------------
    def totals(self, state: dict) -> dict[str, int]:
        """Running totals over the closed rounds."""
        return {
            name: sum(closed["totals"][name] for closed in state["closed"]) for name in state["players"]
        }

    def scores(self, state: dict) -> dict[str, int]:
        return self.totals(state)

    def winners(self, state: dict) -> list[str]:
        if not state["finished"]:
            return []
        return self.best(self.totals(state))

    def status(self, state: dict) -> str:
        winners = self.winners(state)
        if winners:
            best = self.totals(state)[winners[0]]
            if len(winners) == 1:
                return f"{winners[0]} wins with {best} points!"
            return f"{and_list(winners)} share the win with {best} points each."
        where = f"Round {state['round']} of {state['rounds']}"
        if state["phase"] == "scoring":
            return f"{where} · scoring: check the piles and the escapes, then close the round."
        if state["phase"] == "drawing":
            return (
                f"{where} · {state['last_player']} takes {plural(state['draws_left'], 'more card')} "
                "from the deck."
            )
        still_in = self.still_in(state)
        if len(still_in) == 1:
            return f"{where} · only {still_in[0]} still holds cards: say how many are left."
        return f"{where} · {plural(self.deck_left(state), 'card')} in the deck · who won the face-up card?"

    def view(self, state: dict) -> dict:
        players = state["players"]
        language = state["language"]
        romans_left = self.romans_left(state)
        working = self.working(state)
        running = {name: 0 for name in players}
        table = []
        progress: dict[str, list[int]] = {name: [] for name in players}
        for closed in state["closed"]:
            cells = []
            for name in players:
                running[name] += closed["totals"][name]
                progress[name].append(running[name])
                cells.append({"player": name, "points": closed["totals"][name], "running": running[name]})
            table.append({"round": closed["round"], "cells": cells})
        still_in = self.still_in(state)
        last_hint = None
        if state["phase"] == "tricks" and len(still_in) == 1:
            hand = state["hands"][still_in[0]]
            last_hint = {
                "player": still_in[0],
                "cards_left": hand["gauls"] + (1 if hand["idefix"] else 0),
                "idefix_among": hand["idefix"],
            }
        return {
            "gauls": {name: self.gaul_name(state, name) for name in players},
            "gaul_choices": [{"key": key, "name": names[language]} for key, names in GAULS.items()],
            "dog": self.dog(state),
            "round": state["round"],
            "rounds": state["rounds"],
            "phase": state["phase"],
            "deck_size": sum(state["deck"].values()) + len(PIRATE_KINDS),
            "deck_left": self.deck_left(state),
            "deck_values": [
                {
                    "value": int(value),
                    "total": count,
                    "left": romans_left[value],
                    "rank": next(
                        (RANK_NAMES[r] for r in RANKS if state["ranks"][r] == int(value)), None
                    ),
                }
                for value, count in sorted(state["deck"].items(), key=lambda item: int(item[0]))
            ],
            "pirates_left": [
                {"kind": k, "name": PIRATE_NAMES[k], "label": PIRATE_LABELS[k]} for k in self.pirates_left(state)
            ],
            "pirate_kinds": [{"kind": k, "name": PIRATE_NAMES[k], "label": PIRATE_LABELS[k]} for k in PIRATE_KINDS],
            "pirate_names": PIRATE_NAMES,
            "hands": state["hands"],
            "still_in": still_in,
            "last_player": state["last_player"],
            "draws_left": state["draws_left"],
            "last_player_hint": last_hint,
            "clashes": state["clashes"],
            "piles": state["piles"],
            "working": working,
            "choice_options": {
                name: sorted(set(state["piles"][name]["romans"]))
                for name in players
                if "choice" in state["piles"][name]["pirates"]
            },
            "ranks": state["ranks"],
            "bonus": state["bonus"],
            "table": table,
            "totals": self.totals(state),
            "chart": progress_chart(players, progress, state["rounds"]),
            "winners": self.winners(state),
        }


# -- quick score (POST /api/games/kartenspiel/score) ----------------------------------------


def _read_pirate(player: str, pirate: Any) -> tuple[str, int | None]:
    """A pirate entry as (kind, named value); refuses unknown kinds with a sentence."""
    if isinstance(pirate, str) and pirate in PIRATE_KINDS:
        return pirate, None
    if (
        isinstance(pirate, dict)
        and list(pirate) == ["choice"]
        and isinstance(pirate["choice"], int)
        and not isinstance(pirate["choice"], bool)
    ):
        return "choice", pirate["choice"]
    shown = repr(pirate) if not isinstance(pirate, str) else f"'{pirate}'"
    raise GameError(
        f"{player} has a pirate {shown} of no known kind; use highest, lowest, choice, "
        '{"choice": value}, dekurio, zenturio or general.'
    )


def quick_score(payload: dict) -> dict:
    """Score one round from each player's Romans and pirates, with the default deck 1–10 ×4, 11–14.

    Returns ``{"players": [{"name", "kept", "escaped", "points", "bonus", "total"}]}`` in the
    order given; raises :class:`GameError` with a sentence for anything the deck cannot hold.
    """
    try:
        request = KartenspielScoreRequest.model_validate(payload)
    except ValidationError as exc:
        raise GameError(explain(exc)) from None
    count = len(request.players)
    if not Kartenspiel.min_players <= count <= Kartenspiel.max_players:
        raise GameError(f"Das Kartenspiel is scored for 2 to 5 players, not {count}.")
    names = [player.name for player in request.players]
    for name in names:
        if names.count(name) > 1:
            raise GameError(f"Two players are called {name}; give each a different name.")
    deck = KartenspielOptions().deck()
    known = ", ".join(sorted(deck, key=int))
    in_piles: dict[str, int] = {}
    for player in request.players:
        for value in player.romans:
            if str(value) not in deck:
                raise GameError(
                    f"{player.name} has a Roman worth {value}, but the deck has no such card "
                    f"(values {known})."
                )
            in_piles[str(value)] = in_piles.get(str(value), 0) + 1
    for value, count in sorted(in_piles.items(), key=lambda item: int(item[0])):
        if count > deck[value]:
            raise GameError(
                f"The deck holds {plural(deck[value], 'Roman')} worth {value}, but the piles have {count}."
            )
    pirate_count = sum(len(player.pirates) for player in request.players)
    if pirate_count > len(PIRATE_KINDS):
        raise GameError(f"The deck has {len(PIRATE_KINDS)} pirates, but the piles have {pirate_count}.")
    read = {player.name: [_read_pirate(player.name, p) for p in player.pirates] for player in request.players}
    owners: dict[str, str] = {}
    for name, pirates in read.items():
        for kind, _ in pirates:
            if kind in owners:
                raise GameError(
                    f"The deck has one pirate where {PIRATE_LABELS[kind]}, but both "
                    f"{owners[kind]} and {name} have it."
                    if owners[kind] != name
                    else f"The deck has one pirate where {PIRATE_LABELS[kind]}, but {name} has it twice."
                )
            owners[kind] = name
    bonus_table = request.bonus or KartenspielBonus()
    bonus = {"2": bonus_table.pair, "3": bonus_table.three, "4": bonus_table.four}
    rank_table = request.ranks or KartenspielRanks()
    ranks = {rank: getattr(rank_table, rank) for rank in RANKS}
    results = []
    for player in request.players:
        kinds = [kind for kind, _ in read[player.name]]
        named = next((value for kind, value in read[player.name] if kind == "choice"), None)
        if named is not None and named not in player.romans:
            raise GameError(f"{player.name}'s pirate of choice names {named}, but that pile has no {named}.")
        working = work_out_pile(player.romans, kinds, ranks, bonus, named)
        if working["choice_fell_back"]:
            raise GameError(
                f"{player.name}'s pirate of choice names {named}, but the other pirates already take "
                f"every {named} in that pile."
            )
        results.append(
            {
                "name": player.name,
                "kept": working["kept"],
                "escaped": working["escaped"],
                "points": working["points"],
                "bonus": working["bonus"],
                "total": working["total"],
            }
        )
    return {"players": results}

QUICK_ROWS = 5
QUICK_PIRATES = ("highest", "lowest", "dekurio", "zenturio", "general")  # "choice" has its own list
QUICK_NUMBERS = {
    "bonus_2": ("bonus", "2", "The bonus for a pair"),
    "bonus_3": ("bonus", "3", "The bonus for three of a kind"),
    "bonus_4": ("bonus", "4", "The bonus for four of a kind"),
    "dekurio": ("ranks", "dekurio", "The Dekurio's value"),
    "zenturio": ("ranks", "zenturio", "The Zenturio's value"),
    "general": ("ranks", "general", "The General's value"),
}


def _first(form: dict[str, list[str]], key: str) -> str:
    values = form.get(key) or [""]
    return (values[0] or "").strip()


def quick_score_payload(form: dict[str, list[str]]) -> dict:
    """Read the quick-score page: up to five rows of name, Romans, pirates and the choice pirate.

    A row without a name is skipped when it is empty and refused when it holds cards."""
    names = form.get("name") or []
    romans = form.get("romans") or []
    players = []
    for index in range(min(len(names), QUICK_ROWS)):
        name = (names[index] or "").strip()
        text = (romans[index] if index < len(romans) else "") or ""
        pirates: list[Any] = [kind for kind in form.get(f"pirates-{index}") or [] if kind]
        choice = _first(form, f"choice-{index}")
        if not name:
            if text.strip() or pirates or choice:
                raise GameError(f"Row {index + 1} has cards but no name; write the player's name.")
            continue
        try:
            values = parse_values(text, f"{name}'s Romans")
        except ValueError as exc:
            raise GameError(f"{exc}.") from None
        if choice == "cheapest":
            pirates.append("choice")
        elif choice:
            if not choice.isdigit():
                raise GameError(f"{name}'s pirate of choice must name a Roman's value.")
            pirates.append({"choice": int(choice)})
        players.append({"name": name, "romans": values, "pirates": pirates})
    payload: dict[str, Any] = {"players": players}
    for key, (group, field, label) in QUICK_NUMBERS.items():
        raw = _first(form, key)
        if key not in form:
            continue
        if raw and not raw.isdigit():
            raise GameError(f"{label} must be a whole number, not '{raw}'.")
        # An empty rank means "not known" (lets nothing escape); an empty bonus keeps the default.
        if raw or group == "ranks":
            payload.setdefault(group, {})[field] = int(raw) if raw else None
    return payload
