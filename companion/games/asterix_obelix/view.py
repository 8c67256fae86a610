"""What the table page shows: the board, the piles, the odds and the scoring, as template
data; and the quick-score page's form read back as a quick-score payload.

The odds are plain counting: each unseen card is equally likely to be any unknown face-down
card (the 2-feast pile on top makes feasts a little rarer early on; the odds ignore that).
Which moves a control offers comes from the game's table of moves (``legal_actions``).
"""

from __future__ import annotations

from ..base import GameError
from ..text import N_, Sentence, plural_sentence, say
from .cards import (COLOUR_TITLES, COLOURS, COMPOSITION, FEAST_COUNT, FIGHT_CARD_COST, GRID_SIZE, SUPPLY_AT_START,
                    card_key, card_name, card_title, cost_words, pile_cards)
from .attack import spent_with_pending
from .turns import line_from
from .moves import ITEM_WORDS
from .formation import (ALL_LINES, cell, feast_total, formation_broken, further_lines, holes, line_cells,
                        in_hand, line_label, line_title, next_in_line, open_lines, opponent, defeated_cards, pending_card,
                        unseen)
from .scoring import scoring

SETUP_CHECKLIST = (
    {"item": "fight_cards", "text": Sentence("Each player takes a figure (Asterix on red, Obelix on blue) "
     "and its 15 fight cards, shuffles them face down and draws 5.")},
    {"item": "feast_split", "text": Sentence("Take the 5 village feasts out of the 40 Roman cards and split "
     "the other 35 into two piles of about the same size.")},
    {"item": "feast_piles", "text": Sentence("Shuffle 3 feasts into one pile and 2 into the other, then put "
     "the pile with 2 feasts on top of the pile with 3.")},
    {"item": "formation", "text": Sentence("Deal 16 cards face down from the top as a 4 × 4 formation "
     "(the tortoise): 4 rows and 4 columns.")},
    {"item": "supply", "text": Sentence("The other %(supply)s cards stay face down as the supply; "
     "put the 7 victory tokens aside.", supply=SUPPLY_AT_START)},
    {"item": "starter", "text": Sentence("Agree who attacks first (the rulebook says the strongest player), "
     "then tap that name.")},
)
# The words of the board's buttons that the coach quotes: one message each, so that the card
# names exactly what the button says.
BUTTONS = {"beaten": N_("Beaten"), "fails": N_("The attack fails"),
           "peek": N_("I looked at the last card (1 fight card discarded)"), "skip": N_("Block nothing this time")}


def end_button(beaten: int) -> Sentence:
    """The words of the button that ends an attack: 'End attack and secure 2 cards'."""
    return plural_sentence("End attack and secure %(count)s card", "End attack and secure %(count)s cards", beaten)


OUT_REASONS = {"wild boar": N_("wild boar"), "failed attack": N_("failed attack")}
CELL_LABELS = {"down": N_("face down"), "defeated": N_("defeated"), "feast": N_("village feast"), "empty": N_("empty")}


def line_offer(state: dict, legal: dict) -> dict:
    """Which rows and columns the figure may be placed before now, and by which move."""
    if legal["choose_line"] is None:
        action, lines = "choose_line", open_lines(state)
    elif legal["further_attack"] is None and pending_card(state) is None:
        # The fourth card must be beaten first: the arrows come once it is.
        action, lines = "further_attack", further_lines(state)
    else:
        return {"action": None, "row": [], "column": []}
    return {"action": action,
            "row": [entry["number"] for entry in lines if entry["line"] == "row"],
            "column": [entry["number"] for entry in lines if entry["line"] == "column"]}


def _grid(state: dict) -> list[list[dict]]:
    attack, blocked = state["attack"], state["blocked"]
    attack_cells = set(line_cells(attack["line"], attack["number"], attack["start"])) if attack else set()
    upcoming = next_in_line(state) if attack else None
    looked = attack["looked"] if attack else None
    blocked_cells = set(line_cells(blocked["line"], blocked["number"])) if blocked else set()
    grid = []
    for r in range(1, GRID_SIZE + 1):
        cells = []
        for c in range(1, GRID_SIZE + 1):
            place = cell(state, r, c)
            label = CELL_LABELS[place["state"]]
            if place["card"] is not None:
                label = Sentence("%(state)s: %(card)s", state=label, card=card_title(place["card"]))
            cells.append({
                "row": r, "column": c, "state": place["state"], "card": place["card"],
                "known": place["state"] == "down" and place["card"] is not None,
                "label": label,
                "on_attack_line": (r, c) in attack_cells,
                "next": bool(upcoming and upcoming[1:] == (r, c)),
                "looked": bool(looked and (looked["row"], looked["column"]) == (r, c)),
                "blocked": (r, c) in blocked_cells,
            })
        grid.append(cells)
    return grid


def _attack(state: dict, hidden: dict) -> dict | None:
    attack = state["attack"]
    if not attack:
        return None
    upcoming = next_in_line(state)
    known_next = cell(state, upcoming[1], upcoming[2])["card"] if upcoming else None
    # A card tap is possible while such a card is unseen, or if it names the known next card.
    last_card = cell(state, attack["last"]["row"], attack["last"]["column"])["card"] if attack["last"] else None
    possible = [key for key in COMPOSITION if hidden[key] or (known_next and card_key(known_next) == key)]
    waiting = pending_card(state)
    return {
        **attack,
        "label": line_label(attack["line"], attack["number"]),
        "figure": attack["last"],  # the figure stands on the last card it beat (None: in front)
        "fight_cards_spent": spent_with_pending(state),  # a card just turned is paid, or the attack fails
        "next_known": known_next,
        "next_cell": {"row": upcoming[1], "column": upcoming[2]} if upcoming else None,
        "last_card": last_card,
        "last_card_name": card_name(last_card) if last_card else None,
        "next_known_title": card_title(known_next) if known_next else None,
        "where": line_from(attack["line"], attack["number"], attack["start"]),
        "defeated": len(defeated_cards(state)),
        "end_label": end_button(len(defeated_cards(state))),
        # Broken only once the fourth card is beaten, not while it waits for its fight card.
        "formation_broken": formation_broken(state) and pending_card(state) is None,
        "possible": possible,
        "some_seen_all": len(possible) < len(COMPOSITION),  # some card buttons are crossed out
        "pending_card": waiting,
        "pending_title": card_title(waiting) if waiting else None,
        "pending_cost": cost_words(waiting) if waiting else None,
        "can_pay": bool(waiting) and in_hand(state) >= FIGHT_CARD_COST[waiting["kind"]],
        "in_hand": in_hand(state),
    }


def odds(hidden: dict) -> list[dict]:
    total = sum(hidden.values())
    if not total:
        return []
    groups = [("feast", N_("Village feast"), hidden["feast"])]
    groups += [(colour, COLOUR_TITLES[colour],
                hidden[f"legionary:{colour}"] + hidden[f"centurion:{colour}"]) for colour in COLOURS]
    groups += [("pirate", N_("Pirate"), hidden["pirate"]), ("traitor", N_("Traitor"), hidden["traitor"]),
               ("boar", N_("Wild boar"), hidden["boar"])]
    return [{"key": key, "label": label, "unseen": count, "out_of": total, "fraction": f"{count}/{total}",
             "percent": round(100 * count / total, 1)} for key, label, count in groups]


def chance(rows: list[dict], keys: tuple[str, ...]) -> tuple[int, int, int]:
    """From the odds table's rows: how many unseen cards are of ``keys``, out of how many, and
    that as a whole percentage (the coach's hints say what the table shows)."""
    picked = [row for row in rows if row["key"] in keys]
    count = sum(row["unseen"] for row in picked)
    total = rows[0]["out_of"] if rows else 0
    percent = picked[0]["percent"] if len(picked) == 1 else (100 * count / total if total else 0)
    return count, total, int(percent + 0.5)  # half up: 1 of 40 is 3%, as people round


def _piles(state: dict, score: dict) -> dict:
    piles = {}
    for name in state["players"]:
        pile = state["secured"][name]
        piles[name] = {
            "colours": [
                {"colour": colour, "legionaries": pile["legionaries"][colour],
                 "centurion": bool(pile["centurions"][colour]),
                 "cards": pile["legionaries"][colour] + pile["centurions"][colour],
                 "token": score["tokens"][colour] == name}
                for colour in COLOURS
            ],
            "pirates": pile["pirates"],
            "traitor": bool(pile["traitor"]),
            "cards": pile_cards(pile),
            "tokens": score["points"][name],
        }
    return piles


def board_view(game, state: dict) -> dict:
    """Everything the board, piles, odds and scoring blocks show."""
    legal = game.legal_actions(state)
    hidden = unseen(state)
    score = scoring(state)
    blocked = state["blocked"]
    out_counts: dict[str, int] = {}
    for entry in state["out_of_game"]:
        out_counts[card_name(entry["card"])] = out_counts.get(card_name(entry["card"]), 0) + 1
    feasts_turned = feast_total(state) - state["feasts_set_aside"]
    return {
        "phase": state["phase"],
        "ran_out": state.get("ran_out"),  # whose draw pile ended the game, when the table plays it so
        "setup_checklist": list(SETUP_CHECKLIST) if state["phase"] == "setup" else [],
        "attacker": state["attacker"],
        "opponent": opponent(state, state["attacker"]) if state["attacker"] else None,
        "turn": game.turn_of(state),
        # Which moves the attacker (or the host) could make now: the board shows these controls
        # on every phone, and a phone whose seat may not make them shows them disabled with why.
        "moves_now": legal,
        "grid": _grid(state),
        "supply": state["supply"],
        "holes": [{"row": r, "column": c} for r, c in holes(state)] if legal["fill_hole"] is None else [],
        "attack": _attack(state, hidden),
        "open_lines": open_lines(state) if legal["choose_line"] is None else [],
        "further_lines": further_lines(state),
        "line_offer": line_offer(state, legal),
        "blocked_line": ({**blocked, "label": line_label(blocked["line"], blocked["number"]),
                          "title": line_title(blocked["line"], blocked["number"])} if blocked else None),
        "block_choices": ([{"line": line, "number": number, "label": line_label(line, number)}
                           for line, number in ALL_LINES] if legal["block_line"] is None else []),
        "feasts": {"count": feast_total(state), "set_aside": state["feasts_set_aside"],
                   "this_attack": feasts_turned, "max": FEAST_COUNT},
        "piles": _piles(state, score),
        "out_of_game": [{**entry, "title": card_title(entry["card"]), "why": OUT_REASONS.get(entry["reason"], entry["reason"])}
                        for entry in state["out_of_game"]],
        "out_of_game_counts": [{"card": name, "count": count} for name, count in out_counts.items()],
        "revealed_count": len(state["revealed"]),
        "unseen": {
            "colours": [{"colour": colour, "legionaries": hidden[f"legionary:{colour}"],
                         "centurion": hidden[f"centurion:{colour}"]} for colour in COLOURS],
            "pirates": hidden["pirate"], "traitor": hidden["traitor"], "boar": hidden["boar"],
            "feasts": hidden["feast"], "total": sum(hidden.values()),
        },
        "odds": odds(hidden),
        "scoring": score,
        "buttons": BUTTONS,
    }


# -- the quick-score page's form -------------------------------------------------------------
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
        raise GameError(Sentence("The number of %(what)s must be a whole number, not '%(raw)s'.",
                                 what=what, raw=raw[:20])) from None


def quick_score_payload(form: dict[str, list[str]]) -> dict:
    """The quick-score page's fields (name_1, legionaries_1_red, centurion_1, pirates_1,
    traitor_1, and the same with _2) as a quick_score payload; blank counts are 0."""
    players = []
    for seat in (1, 2):
        name = _form_value(form, f"name_{seat}") or say(Sentence("Player %(number)s", number=seat))
        players.append({
            "name": name,
            "legionaries": {colour: _form_count(form, f"legionaries_{seat}_{colour}",
                                                Sentence("%(player)s's %(item)s", player=name,
                                                         item=ITEM_WORDS[f"legionary:{colour}"]))
                            for colour in COLOURS},
            "centurions": [value for value in form.get(f"centurion_{seat}", []) if value.strip()],
            "pirates": _form_count(form, f"pirates_{seat}", Sentence("%(player)s's %(item)s", player=name,
                                                                     item=ITEM_WORDS["pirate"])),
            "traitor": bool(_form_value(form, f"traitor_{seat}")),
        })
    return {"players": players}
