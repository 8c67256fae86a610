"""Payloads that fit the table as it lies, for tests that play random games.

A generic guess from the payload models rarely hits a free space with the drawn symbol, the
ingredient a player really holds or a sensible task card; these name them."""

from __future__ import annotations

from .board import legal_spaces
from .components import INGREDIENTS


def sample_payloads(state: dict, kind: str) -> list[dict]:
    players = state["players"]
    seats = state["seats"]
    if kind == "enter_task":
        return [{"type": kind, "first_ingredient": first, "first_quantity": 1,
                 "second_ingredient": "fish", "second_quantity": 2,
                 "third_ingredient": "mistletoe", "third_quantity": 1}
                for first in INGREDIENTS]
    if kind == "place_mishap" and state["drawn"]:
        return [{"type": kind, "location": space["location"], "slot": space["slot"]}
                for space in legal_spaces(state, state["drawn"])]
    if kind == "remove_mishap":
        return [{"type": kind, "location": location["number"], "slot": slot + 1}
                for location in state["locations"] for slot in (0, 1)
                if location["covered"][slot]]
    if kind == "take_ingredients":
        return [{"type": kind, "player": name, ingredient: 1}
                for name in players for ingredient in INGREDIENTS if state["supply"][ingredient]]
    if kind == "draw_helpers":
        return [{"type": kind, "player": name, "count": 1} for name in players
                if state["draw_piles"][seats[name]["character"]]]
    if kind == "refill_potion":
        return [{"type": kind, "player": name} for name in players
                if seats[name]["character"] != "obelix" and not seats[name]["potion_fresh"]]
    if state["turn"] is None:
        return []
    giver = state["turn"]["player"]
    seat = seats[giver]
    cards = [card for card, count in seat["hand"].items() if count]
    if kind == "play_helpers":
        return [{"type": kind, "card": card} for card in cards]
    if kind == "pass_items":
        partners = [name for name in players
                    if name != giver and seats[name]["location"] == seat["location"]]
        held = [ingredient for ingredient in INGREDIENTS if seat["ingredients"][ingredient]]
        items = [{"ingredient": i} for i in held] + [{"card": c} for c in cards]
        return [{"type": kind, "to_player": name, **item} for name in partners for item in items]
    return []
