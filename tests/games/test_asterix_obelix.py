"""Asterix & Obelix: replayed action logs, refusals, scoring and the quick score."""

from __future__ import annotations

import json

import pytest

from companion.games.asterix_obelix import (
    AsterixObelix,
    QuickScoreRequest,
    quick_score,
    score_piles,
)
from companion.games.base import GameError
from companion.service.history import replay

GAME = AsterixObelix()
PLAYERS = ["Ann", "Ben"]
UNDO = {"kind": "undo"}


def act(action_type: str, actor: str | None = None, **fields) -> dict:
    return {"kind": "action", "payload": {"type": action_type, **fields}, "actor": actor}


def start(starter: str = "Ann") -> dict:
    return act("start_game", starter=starter)


def line(which: str, number: int, start_at: str | None = None) -> dict:
    fields = {"line": which, "number": number}
    if start_at:
        fields["start"] = start_at
    return act("choose_line", **fields)


def further(which: str, number: int, start_at: str | None = None) -> dict:
    fields = {"line": which, "number": number}
    if start_at:
        fields["start"] = start_at
    return act("further_attack", **fields)


def leg(colour: str) -> dict:
    return act("reveal_card", kind="legionary", colour=colour)


def cent(colour: str) -> dict:
    return act("reveal_card", kind="centurion", colour=colour)


def card(kind: str) -> dict:
    return act("reveal_card", kind=kind)


END = act("end_attack")
FAIL = act("no_matching_card")
BEAT = act("beat_card", beaten=True)
SKIP = act("skip_block")


def play(*entries: dict, options: dict | None = None) -> dict:
    return replay(GAME, PLAYERS, options or {}, list(entries)).state


def refused(state: dict, payload: dict) -> str:
    with pytest.raises(GameError) as caught:
        GAME.apply(state, GAME.parse_action(payload), None)
    return caught.value.message


def cell(state: dict, row: int, column: int) -> dict:
    return state["grid"][row - 1][column - 1]


def legal_now(state: dict, seat: str | None = None) -> list[str]:
    """The moves the table of moves allows now (for ``seat``; None: the host, for anyone)."""
    return [kind for kind, why in GAME.legal_actions(state, seat).items() if why is None]


def describe_last(*entries: dict, options: dict | None = None) -> str:
    """The log sentence of the last entry, against the state before it."""
    before = play(*entries[:-1], options=options)
    return str(GAME.describe(before, GAME.parse_action(entries[-1]["payload"]), entries[-1]["actor"]))


# -- setup ---------------------------------------------------------------------------
def test_setup_checklist_then_start():
    state = play()
    view = GAME.view(state)
    items = [item["item"] for item in view["setup_checklist"]]
    assert items == ["fight_cards", "feast_split", "feast_piles", "formation", "supply", "starter"]
    assert "2 feasts on top" in str(view["setup_checklist"][2]["text"])
    assert view["supply"] == 24
    assert str(GAME.status(state)).startswith("Setup")
    assert "Finish the setup first" in refused(state, {"type": "choose_line", "line": "row", "number": 1})
    assert "no player called 'Cleo'" in refused(state, {"type": "start_game", "starter": "Cleo"})

    state = play(start("Ben"))
    assert state["attacker"] == "Ben"
    assert GAME.view(state)["setup_checklist"] == []
    assert str(GAME.status(state)).startswith("Ben's attack: choose a row or column")
    assert len(GAME.view(state)["open_lines"]) == 8
    assert GAME.scores(state) == {"Ann": 0, "Ben": 0}


def test_exactly_two_players():
    with pytest.raises(GameError, match="exactly two players"):
        GAME.initial_state(["Ann", "Ben", "Cleo"], GAME.parse_options({}))


# -- a plain attack, refill, block and turn ---------------------------------------------------
def test_attack_secures_refills_blocks_and_passes_the_turn():
    state = play(start(), line("row", 1), leg("red"), card("pirate"), END)
    assert state["secured"]["Ann"]["legionaries"]["red"] == 1
    assert state["secured"]["Ann"]["pirates"] == 1
    assert state["supply"] == 22
    assert all(c["state"] == "down" for row in state["grid"] for c in row)
    assert state["phase"] == "block"
    assert GAME.status(state) == "Ann: block a line for Ben's next attack · feasts 0/5"

    state = play(start(), line("row", 1), leg("red"), card("pirate"), END,
                 act("block_line", line="column", number=2))
    assert state["attacker"] == "Ben"
    assert GAME.view(state)["blocked_line"]["label"] == "column 2"
    assert "Column 2 is blocked" in refused(state, {"type": "choose_line", "line": "column", "number": 2})
    assert "column 2" not in [choice["label"] for choice in GAME.view(state)["open_lines"]]
    assert "(column 2 is blocked)" in str(GAME.status(state))

    # The block ends with Ben's turn: Ann may attack column 2 next.
    state = play(start(), line("row", 1), leg("red"), END, act("block_line", line="column", number=2),
                 line("row", 2), leg("blue"), END, SKIP, line("column", 2))
    assert state["attacker"] == "Ann" and state["attack"]["line"] == "column"


def test_blocking_can_be_switched_off():
    state = play(start(), line("row", 1), leg("red"), END, options={"blocking": False})
    assert state["attacker"] == "Ben" and state["phase"] == "choose_line"
    assert "chooses a row or column" in refused(state, {"type": "block_line", "line": "row", "number": 1})


def test_line_start_must_fit_the_line():
    state = play(start())
    assert "A row is attacked from the left or right" in refused(
        state, {"type": "choose_line", "line": "row", "number": 1, "start": "top"})
    state = play(start(), line("column", 2, "bottom"), leg("red"))
    assert cell(state, 4, 2)["state"] == "defeated"
    assert GAME.describe(play(start()), GAME.parse_action({"type": "choose_line", "line": "row",
                                                          "number": 3, "start": "right"}), "Ann") \
        == "Ann attacks row 3 from the right."


def test_reveal_needs_a_colour_for_soldiers_and_black_is_purple():
    state = play(start(), line("row", 1))
    assert "Say which colour the legionary is" in refused(state, {"type": "reveal_card", "kind": "legionary"})
    assert "Say what the card is" in refused(state, {"type": "reveal_card"})
    state = play(start(), line("row", 1), leg("Black"))
    assert cell(state, 1, 1)["card"] == {"kind": "legionary", "colour": "purple"}


# -- impossible cards -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("correction", "reveal", "fragment"),
    [
        ({"item": "legionary", "colour": "red", "count": 5}, leg("red"), "All 5 red legionaries"),
        ({"item": "pirate", "count": 3}, card("pirate"), "All 3 pirates"),
        ({"item": "centurion", "colour": "green", "count": 1}, cent("green"), "the green centurion"),
        ({"item": "traitor", "count": 1}, card("traitor"), "the traitor"),
    ],
)
def test_a_card_that_no_longer_exists_is_refused(correction, reveal, fragment):
    state = play(start(), act("correct_pile", player="Ben", reason="test", **correction), line("row", 1))
    message = refused(state, reveal["payload"])
    assert fragment in message and "already accounted for" in message


def test_a_second_wild_boar_is_refused():
    state = play(start(), line("row", 1), card("boar"), SKIP, line("row", 2))
    assert "the wild boar" in refused(state, card("boar")["payload"])


def test_a_sixth_red_legionary_is_refused_across_both_piles_and_the_formation():
    state = play(start(), act("correct_pile", player="Ben", item="legionary", colour="red", count=3, reason="x"),
                 line("row", 1), leg("red"), leg("red"))
    assert "All 5 red legionaries" in refused(state, leg("red")["payload"])
    assert "Ann cannot hold 3 of the red legionaries" in refused(
        state, {"type": "correct_pile", "player": "Ann", "item": "legionary", "colour": "red",
                "count": 3, "reason": "x"})


# -- wild boar and the fifth feast ---------------------------------------------------------
def test_wild_boar_ends_the_attack_and_keeps_the_defeated_cards():
    entries = (start(), line("row", 1), leg("red"), card("traitor"), card("boar"))
    state = play(*entries)
    assert state["phase"] == "block" and state["attack"] is None
    assert state["secured"]["Ann"]["legionaries"]["red"] == 1
    assert state["secured"]["Ann"]["traitor"] == 1
    assert [entry["card"]["kind"] for entry in state["out_of_game"]] == ["boar"]
    assert state["supply"] == 21
    assert describe_last(*entries) == (
        "Ann turned over the wild boar: the attack ends, the boar leaves the game and Ann secures "
        "2 defeated cards. 3 supply cards refilled the formation (21 left).")


def test_fifth_feast_ends_the_game_at_once_and_keeps_the_cards():
    entries = (start(), act("correct_feasts", count=4, reason="feasts laid out earlier"),
               line("row", 1), leg("blue"), card("feast"))
    state = play(*entries)
    assert GAME.is_over(state)
    assert state["secured"]["Ann"]["legionaries"]["blue"] == 1
    assert GAME.view(state)["feasts"] == {"count": 5, "set_aside": 5, "this_attack": 0, "max": 5}
    assert GAME.winners(state) == ["Ann"]
    assert GAME.scores(state) == {"Ann": 1, "Ben": 0}
    assert GAME.status(state) == "Game over after the fifth feast: Ann wins with 1 token to 0."
    assert "keeps 1 defeated card of this attack" in str(describe_last(*entries))
    assert "The game is over" in refused(state, line("row", 2)["payload"])
    assert "The game is over" in refused(state, {"type": "correct_feasts", "count": 3, "reason": "x"})
    # A pile can still be corrected for the final scoring.
    state = play(*entries, act("correct_pile", player="Ben", item="legionary", colour="blue", count=2,
                               reason="Ben's pile was miscounted"))
    assert GAME.winners(state) == ["Ben"]


def test_feast_correction_limits_and_ending():
    state = play(start(), line("row", 1), card("feast"), card("feast"))
    assert "at most 3 can lie beside" in refused(state, {"type": "correct_feasts", "count": 4, "reason": "x"})
    state = play(start(), line("row", 1), leg("red"), card("feast"),
                 act("correct_feasts", count=4, reason="we forgot four feasts"))
    assert GAME.is_over(state) and state["secured"]["Ann"]["legionaries"]["red"] == 1
    assert describe_last(start(), act("correct_feasts", "Ben", count=2, reason="two were missed")) == (
        "Ben corrected the feasts beside the formation from 0 to 2 (reason: two were missed).")


# -- a failed attack and the known card ------------------------------------------------------
def test_failed_attack_discards_defeated_cards_and_turns_the_card_back():
    entries = (start(), line("row", 1), leg("red"), leg("blue"), card("feast"), leg("yellow"), FAIL)
    state = play(*entries)
    assert [entry["card"] for entry in state["out_of_game"]] == [
        {"kind": "legionary", "colour": "red"}, {"kind": "legionary", "colour": "blue"}]
    assert {entry["reason"] for entry in state["out_of_game"]} == {"failed attack"}
    assert state["secured"]["Ann"] == GAME.initial_state(PLAYERS, GAME.parse_options({}))["secured"]["Ann"]
    assert state["feasts_set_aside"] == 1
    assert cell(state, 1, 4) == {"state": "down", "card": {"kind": "legionary", "colour": "yellow"}}
    assert state["supply"] == 21
    assert describe_last(*entries) == (
        "Ann had no fight card for a yellow legionary: the attack failed and the card went back face "
        "down; 2 defeated cards left the game. 3 supply cards refilled the formation (21 left).")
    view = GAME.view(state)
    assert view["grid"][0][3]["known"] and view["grid"][0][3]["label"] == "face down: yellow legionary"
    # The known yellow card counts as seen: 4 unseen yellow legionaries, 36 unseen cards.
    yellow = next(c for c in view["unseen"]["colours"] if c["colour"] == "yellow")
    assert yellow["legionaries"] == 4 and view["unseen"]["total"] == 36

    # Turning the same card again does not count it twice.
    again = play(*entries, SKIP, line("column", 4), act("reveal_card"))
    assert cell(again, 1, 4) == {"state": "defeated", "card": {"kind": "legionary", "colour": "yellow"}}
    assert GAME.view(again)["unseen"]["total"] == 36
    assert GAME.view(play(*entries, SKIP, line("column", 4)))["attack"]["next_known"] == {
        "kind": "legionary", "colour": "yellow"}

    # A different card at that place means the earlier tap was wrong: the new one replaces it.
    fixed = (*entries, SKIP, line("column", 4), leg("green"))
    assert "it had been noted as a yellow legionary" in describe_last(*fixed)
    fixed_view = GAME.view(play(*fixed))
    yellow = next(c for c in fixed_view["unseen"]["colours"] if c["colour"] == "yellow")
    assert yellow["legionaries"] == 5 and fixed_view["unseen"]["total"] == 36


def test_no_matching_card_needs_a_fightable_card_just_turned():
    state = play(start(), line("row", 1))
    assert "Turn over a card first" in refused(state, FAIL["payload"])
    state = play(start(), line("row", 1), card("feast"))
    assert "A village feast needs no fight card" in refused(state, FAIL["payload"])
    assert "Turn over the first card of row 2" in refused(
        play(start(), line("row", 2)), END["payload"])


# -- formation broken -----------------------------------------------------------------
FULL_ROW = (leg("red"), leg("blue"), cent("red"), card("pirate"))


def test_formation_broken_offers_a_further_attack_but_not_on_a_short_line():
    state = play(start(), line("row", 1), *FULL_ROW)
    # The fourth card is turned, not yet beaten: nothing is broken until Ann says she beat it.
    assert not GAME.view(state)["attack"]["formation_broken"]
    assert str(GAME.status(state)).startswith("Ann turned over a pirate: beaten, or the attack fails")
    state = play(start(), line("row", 1), *FULL_ROW, BEAT)
    view = GAME.view(state)
    assert view["attack"]["formation_broken"] and "further_attack" in legal_now(state)
    assert "reveal_card" not in legal_now(state)
    assert str(GAME.status(state)).startswith("Ann broke the formation")
    assert "No face-down card is left in row 1; end the attack or take the further attack." == refused(
        state, leg("green")["payload"])

    entries = (start(), line("row", 1), *FULL_ROW, further("column", 1), leg("green"), leg("green"),
               leg("yellow"))
    state = play(*entries)
    # Column 1 lost its top card to the first line: only three face-down cards, no new bonus.
    assert state["attack"]["full_line"] is False and state["attack"]["attacks_this_turn"] == 2
    assert not GAME.view(state)["attack"]["formation_broken"]
    assert "fewer than four face-down cards" in refused(state, further("row", 2)["payload"])
    state = play(*entries, BEAT)
    assert str(GAME.status(state)).startswith("Ann has turned every card of column 1")
    state = play(*entries, END)
    assert state["secured"]["Ann"]["legionaries"] == {"red": 1, "blue": 1, "yellow": 1, "green": 2, "purple": 0}
    assert state["secured"]["Ann"]["centurions"]["red"] == 1 and state["secured"]["Ann"]["pirates"] == 1
    assert state["supply"] == 24 - 7
    assert describe_last(start(), line("row", 1), *FULL_ROW, further("column", 3, "bottom")) == (
        "Ann broke the formation and took a further attack on column 3 from the bottom with a full hand.")


def test_further_attack_refused_before_the_line_is_through():
    state = play(start(), line("row", 1), leg("red"))
    assert "still has face-down cards" in refused(state, further("row", 2)["payload"])


def test_failing_the_further_attack_loses_both_lines():
    state = play(start(), line("row", 1), *FULL_ROW, further("row", 2), leg("green"), leg("green"), FAIL)
    assert len(state["out_of_game"]) == 5
    assert GAME.view(state)["piles"]["Ann"]["cards"] == 0
    assert cell(state, 2, 2)["card"] == {"kind": "legionary", "colour": "green"}


def test_boar_as_fourth_card_breaks_the_formation_without_a_bonus():
    state = play(start(), line("row", 1), leg("red"), leg("blue"), card("pirate"), card("boar"))
    assert state["attack"] is None and state["phase"] == "block"
    assert "further_attack" not in legal_now(state)
    assert GAME.view(state)["piles"]["Ann"]["cards"] == 3


def test_a_feast_as_fourth_card_still_breaks_the_formation():
    state = play(start(), line("row", 1), leg("red"), leg("blue"), card("pirate"), card("feast"))
    assert GAME.view(state)["attack"]["formation_broken"]


def drain_supply() -> list[dict]:
    """Attacks (blocking off) that use 21 supply cards, leaving 3: 5 full rows and one card."""
    colours = ["red", "blue", "yellow", "green", "purple"]
    entries = [start()]
    pool = [leg(colour) for colour in colours for _ in range(4)] + [leg(colour) for colour in colours]
    for number in range(1, 6):
        entries += [line("row", (number - 1) % 4 + 1), *pool[:4], END]
        pool = pool[4:]
    entries += [line("row", 2), pool.pop(0), END]
    return entries


def test_no_bonus_once_the_formation_cannot_be_refilled_and_the_last_cards_are_placed():
    options = {"blocking": False}
    entries = drain_supply()
    state = play(*entries, options=options)
    assert state["supply"] == 3
    entries += [line("row", 3), cent("red"), cent("blue"), cent("yellow"), cent("green")]
    state = play(*entries, options=options)
    assert not GAME.view(state)["attack"]["formation_broken"]
    assert "can no longer fill every hole" in refused(state, further("row", 1)["payload"])

    entries.append(END)
    state = play(*entries, options=options)
    assert state["phase"] == "refill" and state["supply"] == 3
    assert len(GAME.view(state)["holes"]) == 4
    assert "place the last 3 supply cards into 4 holes" in str(GAME.status(state))
    assert "is not a hole" in refused(state, {"type": "fill_hole", "row": 1, "column": 1})
    entries += [act("fill_hole", row=3, column=1), act("fill_hole", row=3, column=2),
                act("fill_hole", row=3, column=4)]
    state = play(*entries, options=options)
    assert state["supply"] == 0 and cell(state, 3, 3)["state"] == "empty"
    assert state["attacker"] == "Ben" and state["phase"] == "choose_line"  # Ann's seventh attack ended
    # Row 3 now has three face-down cards: beating them all earns nothing.
    state = play(*entries, line("row", 3), leg("purple"), card("pirate"), card("pirate"), options=options)
    assert state["attack"]["full_line"] is False and not GAME.view(state)["attack"]["formation_broken"]


# -- block duration option ---------------------------------------------------------------
@pytest.mark.parametrize(("block_lasts", "allowed"), [("attack", True), ("turn", False)])
def test_how_long_a_block_lasts(block_lasts, allowed):
    entries = [start(), line("row", 1), leg("red"), END, act("block_line", line="column", number=4),
               line("row", 2), *FULL_ROW]
    state = play(*entries, options={"block_lasts": block_lasts})
    if allowed:
        state = GAME.apply(state, GAME.parse_action(further("column", 4)["payload"]), None)
        assert state["attack"]["line"] == "column" and state["blocked"] is None
    else:
        assert "Column 4 is blocked" in refused(state, further("column", 4)["payload"])


# -- looking and undo -------------------------------------------------------------------
def test_looking_at_the_last_card_is_noted_before_the_first_card():
    state = play(start(), line("column", 3, "bottom"), act("look_at_last_card"))
    attack = GAME.view(state)["attack"]
    assert attack["looked"] == {"row": 1, "column": 3} and attack["fight_cards_spent"] == 1
    assert GAME.view(state)["grid"][0][2]["looked"]
    assert "already looked at" in refused(state, {"type": "look_at_last_card"})
    state = play(start(), line("row", 1), leg("red"))
    assert "before the first card" in refused(state, {"type": "look_at_last_card"})


def test_undo_in_the_middle_of_an_attack():
    entries = [start(), line("row", 1), leg("red"), leg("blue"), UNDO]
    result = replay(GAME, PLAYERS, {}, entries)
    state = result.state
    assert state["attack"]["revealed_in_line"] == 1
    assert cell(state, 1, 2) == {"state": "down", "card": None}
    assert [entry["payload"].get("colour") for entry in result.redoable] == ["blue"]
    state = play(*entries, leg("green"), END)
    assert state["secured"]["Ann"]["legionaries"] == {"red": 1, "blue": 0, "yellow": 0, "green": 1, "purple": 0}
    # Undoing the end of an attack brings the attack back.
    state = play(start(), line("row", 1), leg("red"), END, UNDO)
    assert state["phase"] == "attack" and state["secured"]["Ann"]["legionaries"]["red"] == 0


# -- card counting ---------------------------------------------------------------------
def test_odds_count_every_revealed_card():
    view = GAME.view(play(start()))
    feast = view["odds"][0]
    assert feast == {"key": "feast", "label": "Village feast", "unseen": 5, "out_of": 40,
                     "fraction": "5/40", "percent": 12.5}
    state = play(start(), line("row", 1), card("feast"), cent("red"), leg("red"))
    odds = {entry["key"]: entry for entry in GAME.view(state)["odds"]}
    assert odds["feast"]["fraction"] == "4/37"
    assert odds["red"]["fraction"] == "4/37" and odds["red"]["percent"] == 10.8
    assert odds["blue"]["fraction"] == "6/37"


# -- corrections ------------------------------------------------------------------------
def test_pile_correction_is_logged_with_its_reason():
    entries = (start(), line("row", 1), leg("red"), END, SKIP,
               act("correct_pile", "Ben", player="Ann", item="legionary", colour="red", count=0,
                   reason="it was a blue one"))
    assert describe_last(*entries) == "Ben corrected Ann's red legionaries from 1 to 0 (reason: it was a blue one)."
    state = play(*entries)
    assert state["secured"]["Ann"]["legionaries"]["red"] == 0
    assert state["attacker"] == "Ben"  # a correction does not touch the turn
    state = play(start())
    assert "Say which colour of centurion" in refused(
        state, {"type": "correct_pile", "player": "Ann", "item": "centurion", "count": 1, "reason": "x"})
    assert "at most 3 of the pirates" in refused(
        state, {"type": "correct_pile", "player": "Ann", "item": "pirate", "count": 4, "reason": "x"})
    assert "The field 'reason' is not valid" in refused(
        state, {"type": "correct_pile", "player": "Ann", "item": "pirate", "count": 1, "reason": "  "})
    assert "The field 'reason' is missing" in refused(
        state, {"type": "correct_pile", "player": "Ann", "item": "pirate", "count": 1})


# -- a whole game -------------------------------------------------------------------------
def test_a_whole_game_from_setup_to_the_fifth_feast():
    entries = [
        start("Ann"),
        # 1 Ann: two reds, then blocks row 2 for Ben.
        line("row", 1), leg("red"), leg("red"), END, act("block_line", line="row", number=2),
        # 2 Ben: a blue legionary, a feast and the blue centurion.
        line("row", 3, "right"), leg("blue"), card("feast"), cent("blue"), END, SKIP,
        # 3 Ann: pirate and traitor, then a yellow she cannot beat.
        line("column", 1), card("pirate"), card("traitor"), leg("yellow"), FAIL,
        act("block_line", line="column", number=4),
        # 4 Ben: breaks the formation on row 4, then column 1 from the bottom (3 cards).
        line("row", 4), leg("green"), leg("green"), cent("green"), leg("purple"),
        further("column", 1, "bottom"), act("reveal_card"), card("pirate"), card("feast"), END,
        act("block_line", line="row", number=4),
        # 5 Ann: the wild boar at once.
        line("row", 2), card("boar"), SKIP,
        # 6 Ben: a feast and a red.
        line("row", 1), card("feast"), leg("red"), END, act("block_line", line="column", number=2),
        # 7 Ann: looks at the last card, then red, the red centurion and a pirate.
        line("column", 3), act("look_at_last_card"), leg("red"), cent("red"), card("pirate"), END, SKIP,
        # 8 Ben: the fourth feast and a yellow.
        line("row", 2), card("feast"), leg("yellow"), END, SKIP,
        # 9 Ann: two purples and the fifth feast.
        line("row", 3), leg("purple"), leg("purple"),
    ]
    state = play(*entries)
    assert state["attacker"] == "Ann" and state["turn"] == 9
    assert "blocked" not in str(GAME.status(state))
    assert GAME.view(state)["feasts"]["count"] == 4 and state["supply"] == 2
    # The wrong line was refused on the way: Ben could not attack row 2 in his first turn.
    assert "Row 2 is blocked" in refused(play(*entries[:6]), line("row", 2)["payload"])

    state = play(*entries, card("feast"))
    assert GAME.is_over(state)
    assert json.loads(json.dumps(state)) == state
    assert json.dumps(GAME.view(state), default=str)  # plain data; sentences and names print as English
    assert legal_now(state) == ["correct_pile"]
    ann, ben = state["secured"]["Ann"], state["secured"]["Ben"]
    assert ann["legionaries"] == {"red": 3, "blue": 0, "yellow": 0, "green": 0, "purple": 2}
    assert ann["centurions"]["red"] == 1 and ann["pirates"] == 1 and ann["traitor"] == 0
    assert ben["legionaries"] == {"red": 1, "blue": 1, "yellow": 2, "green": 2, "purple": 1}
    assert ben["centurions"]["blue"] == 1 and ben["centurions"]["green"] == 1 and ben["pirates"] == 1
    assert sorted(entry["card"]["kind"] for entry in state["out_of_game"]) == ["boar", "pirate", "traitor"]

    scoring = GAME.view(state)["scoring"]
    assert scoring["tokens"] == {"traitor": None, "pirates": None, "red": "Ann", "blue": "Ben",
                                 "yellow": "Ben", "green": "Ben", "purple": "Ann"}
    assert GAME.scores(state) == {"Ann": 2, "Ben": 3}
    assert GAME.winners(state) == ["Ben"]
    assert GAME.status(state) == "Game over after the fifth feast: Ben wins with 3 tokens to 2."
    assert scoring["explanation"][0] == "Traitor: nobody secured the traitor, so nobody takes his token."
    assert scoring["explanation"][1] == "Pirates: Ann and Ben have 1 pirate each, a tie, so nobody takes the pirate token."


# -- scoring ------------------------------------------------------------------------------
def pile(name: str, legionaries: dict | None = None, centurions: list | None = None,
         pirates: int = 0, traitor: bool = False) -> dict:
    return {"name": name, "legionaries": legionaries or {}, "centurions": centurions or [],
            "pirates": pirates, "traitor": traitor}


def test_traitor_and_pirate_tokens():
    result = score_piles([pile("Ann", pirates=2), pile("Ben", pirates=1, traitor=True)])
    assert result["tokens"]["traitor"] == "Ben" and result["tokens"]["pirates"] == "Ann"
    assert "Ann has 2 pirates to Ben's 1" in str(result["explanation"][1])
    tie = score_piles([pile("Ann", pirates=1), pile("Ben", pirates=1)])
    assert tie["tokens"]["pirates"] is None and "a tie" in str(tie["explanation"][1])
    assert "neither player secured a pirate" in str(score_piles([pile("Ann"), pile("Ben")])["explanation"][1])


@pytest.mark.parametrize(
    ("ann", "ben", "holder", "fragment"),
    [
        (pile("Ann", {"red": 3}), pile("Ben", {"red": 2}), "Ann", "Ann has 3 cards to Ben's 2"),
        # The centurion counts as a card and turns 1–1 into 1–2.
        (pile("Ann", {"red": 1}), pile("Ben", {"red": 1}, ["red"]), "Ben", "Ben has 2 cards to Ann's 1"),
        # A tie goes to the centurion's holder.
        (pile("Ann", {"red": 2}), pile("Ben", {"red": 1}, ["red"]), "Ben", "Ben holds the red centurion"),
        (pile("Ann", {"red": 2}), pile("Ben", {"red": 2}), None, "nobody holds the red centurion"),
        (pile("Ann"), pile("Ben"), None, "neither player secured a red card"),
    ],
)
def test_colour_tokens(ann, ben, holder, fragment):
    result = score_piles([ann, ben])
    assert result["tokens"]["red"] == holder
    assert fragment in str(result["explanation"][2])


@pytest.mark.parametrize(
    ("ann", "ben", "winners", "verdict"),
    [
        (pile("Ann", {"red": 3}), pile("Ben"), ["Ann"], "Ann wins with 1 token to 0."),
        # 2 tokens each; Ben has two colour tokens to Ann's one.
        (pile("Ann", {"red": 1}, traitor=True), pile("Ben", {"blue": 1, "yellow": 1}), ["Ben"],
         "Both have 2 tokens; Ben wins with 2 colour tokens to 1."),
        # Same tokens and colour tokens; Ann secured more cards.
        (pile("Ann", {"red": 3}), pile("Ben", {"blue": 1}), ["Ann"],
         "Both have 1 token and 1 colour token; Ann wins with 3 cards secured to 1."),
        (pile("Ann", {"red": 2}), pile("Ben", {"blue": 2}), ["Ann", "Ben"],
         "Both have 1 token and 1 colour token and 2 cards secured each: Ann and Ben share the win."),
    ],
)
def test_winner_and_tie_breaks(ann, ben, winners, verdict):
    result = score_piles([ann, ben])
    assert result["winners"] == winners
    assert result["verdict"] == verdict


# -- quick score -------------------------------------------------------------------------------
def test_quick_score_as_in_the_issue():
    payload = {"players": [
        {"name": "Ann", "legionaries": {"red": 3, "blue": 0, "yellow": 1, "green": 2, "purple": 0},
         "centurions": ["red"], "pirates": 2, "traitor": False},
        {"name": "Ben", "legionaries": {"yellow": 1, "black": 1}, "pirates": 1, "traitor": True},
    ]}
    result = quick_score(payload)
    assert set(result) == {"tokens", "points", "winners", "explanation"}
    assert result["tokens"] == {"traitor": "Ben", "pirates": "Ann", "red": "Ann", "blue": None,
                                "yellow": None, "green": "Ann", "purple": "Ben"}
    assert result["points"] == {"Ann": 3, "Ben": 2}
    assert result["winners"] == ["Ann"]
    assert len(result["explanation"]) == 7
    assert result["explanation"][4] == ("Yellow: Ann and Ben have 1 card each and nobody holds the yellow "
                                        "centurion, so nobody takes the yellow token.")


def test_quick_score_shared_win_names_both():
    result = quick_score({"players": [{"name": "Ann", "legionaries": {"red": 1}},
                                      {"name": "Ben", "legionaries": {"green": 1}}]})
    assert result["winners"] == ["Ann", "Ben"]


def two(ann: dict, ben: dict | None = None) -> dict:
    return {"players": [{"name": "Ann", **ann}, {"name": "Ben", **(ben or {})}]}


@pytest.mark.parametrize(
    ("payload", "fragment"),
    [
        ({"players": [{"name": "Ann"}]}, "exactly two players, not 1"),
        ({"players": [{"name": "Ann"}, {"name": "Ben"}, {"name": "Cleo"}]}, "exactly two players, not 3"),
        (two({"legionaries": {"red": -1}}), "Ann cannot have a negative number of red legionaries"),
        (two({"pirates": -2}), "Ann cannot have a negative number of pirates"),
        (two({"legionaries": {"red": 3}}, {"legionaries": {"red": 3}}),
         "only 5 red legionaries, but the piles hold 6"),
        (two({"legionaries": {"green": 6}}), "only 5 green legionaries"),
        (two({"centurions": ["blue"]}, {"centurions": ["Blue"]}), "only one blue centurion, but both Ann and Ben"),
        (two({"centurions": ["red", "red"]}), "Ann lists the red centurion twice"),
        (two({"pirates": 2}, {"pirates": 2}), "only 3 pirates, but the piles hold 4"),
        (two({"traitor": True}, {"traitor": True}), "only one traitor, but both Ann and Ben"),
        (two({"legionaries": {"pink": 1}}), "'pink' is not a legion colour"),
        (two({"centurions": ["orange"]}), "'orange' is not a legion colour"),
        (two({"legionaries": {"black": 1, "purple": 1}}), "name purple twice"),
        ({"players": [{"name": "Ann"}, {"name": "Ann"}]}, "different names"),
        (two({"legionnaires": {"red": 1}}), "'players[0].legionnaires' is not expected"),
    ],
)
def test_quick_score_refuses_impossible_piles(payload, fragment):
    with pytest.raises(GameError) as caught:
        quick_score(payload)
    assert fragment in caught.value.message
    assert caught.value.message.endswith(".")


def test_quick_score_request_has_an_openapi_schema():
    schema = QuickScoreRequest.model_json_schema()
    assert schema["required"] == ["players"]
    assert "QuickScorePile" in schema["$defs"]


# -- what the board offers ---------------------------------------------------------------------
def test_line_offer_follows_the_phase_and_the_block():
    state = play(start(), line("row", 1), leg("red"), END, act("block_line", line="column", number=2))
    offer = GAME.view(state)["line_offer"]
    assert offer == {"action": "choose_line", "row": [1, 2, 3, 4], "column": [1, 3, 4]}
    state = play(start(), line("row", 1), leg("red"))
    assert GAME.view(state)["line_offer"] == {"action": None, "row": [], "column": []}
    # After breaking row 1 every other line is open, a one-attack block included.
    state = play(start(), line("row", 1), leg("red"), END, act("block_line", line="column", number=4),
                 line("row", 2), *FULL_ROW, BEAT)
    assert GAME.view(state)["line_offer"] == {"action": "further_attack", "row": [1, 3, 4], "column": [1, 2, 3, 4]}
    state = play(start(), line("row", 1), leg("red"), END, act("block_line", line="column", number=4),
                 line("row", 2), *FULL_ROW, options={"block_lasts": "turn"})
    assert GAME.view(state)["further_lines"][-1]["label"] == "column 3"


def test_the_attack_view_names_the_next_and_last_card_and_what_is_still_possible():
    state = play(start(), line("row", 1, "right"), card("boar"), SKIP, line("row", 2), cent("red"))
    attack = GAME.view(state)["attack"]
    assert attack["next_cell"] == {"row": 2, "column": 2}
    assert attack["last_card"] == {"kind": "centurion", "colour": "red"}
    assert attack["defeated"] == 1
    assert "boar" not in attack["possible"] and "centurion:red" not in attack["possible"]
    assert "legionary:red" in attack["possible"] and "feast" in attack["possible"]
    # A known card stays possible for its own place even when no other like it is unseen.
    state = play(start(), line("row", 1), leg("red"), card("traitor"), FAIL, SKIP, line("column", 2))
    attack = GAME.view(state)["attack"]
    assert attack["next_known"] == {"kind": "traitor", "colour": None} and "traitor" in attack["possible"]


def test_quick_score_payload_from_the_page_form():
    form = {"name_1": ["Ann"], "legionaries_1_red": ["3"], "legionaries_1_blue": [""], "centurion_1": ["red", "green"],
            "pirates_1": ["2"], "name_2": [""], "traitor_2": ["1"], "pirates_2": [" "]}
    payload = GAME.quick_score_payload(form)
    assert payload["players"][0] == {
        "name": "Ann", "legionaries": {"red": 3, "blue": 0, "yellow": 0, "green": 0, "purple": 0},
        "centurions": ["red", "green"], "pirates": 2, "traitor": False}
    assert payload["players"][1]["name"] == "Player 2" and payload["players"][1]["traitor"] is True
    assert GAME.quick_score(payload)["tokens"]["traitor"] == "Player 2"
    with pytest.raises(GameError, match="The number of Ann's pirates must be a whole number, not '2.5'."):
        GAME.quick_score_payload({"name_1": ["Ann"], "pirates_1": ["2.5"]})
    assert GAME.quick_score_model is QuickScoreRequest


# -- the table of moves: phases, turns and the host's hand-over ------------------------------------
def refused_for(state: dict, payload: dict, actor: str | None) -> str:
    with pytest.raises(GameError) as caught:
        GAME.play(state, GAME.parse_action(payload), actor)
    return caught.value.message


BLOCK_ROW_1 = act("block_line", line="row", number=1)


@pytest.mark.parametrize(
    ("entries", "payload", "sentence"),
    [
        ((), line("row", 1)["payload"], "Not now: Finish the setup first, then tap who attacks first."),
        ((), {"type": "correct_feasts", "count": 1, "reason": "x"},
         "Not now: Finish the setup first, then tap who attacks first."),
        ((start(),), BLOCK_ROW_1["payload"], "Not now: Ann first chooses a row or column to attack."),
        ((start(), line("row", 1)), {"type": "fill_hole", "row": 1, "column": 1},
         "Not now: Ann is in the middle of an attack; turn a card, end the attack or say there is no "
         "matching card."),
        ((start(), line("row", 1), leg("red"), END), leg("blue")["payload"],
         "Not now: Ann first blocks a line for the next attack, or skips the block."),
        ((start(), line("row", 1), leg("red"), END, SKIP), start("Ann")["payload"],
         "Not now: Ben first chooses a row or column to attack."),
    ],
)
def test_a_move_out_of_its_phase_is_refused_with_what_is_expected_now(entries, payload, sentence):
    state = play(*entries)
    assert refused(state, payload) == sentence
    assert GAME.legal_actions(state)[payload["type"]] == sentence


def test_a_move_on_the_other_players_turn_names_whose_turn_it_is():
    state = play(start("Ann"))
    assert refused_for(state, line("row", 1)["payload"], "Ben") == "It is Ann's turn."
    state = play(start("Ann"), line("row", 1, "right"), act("reveal_card", "Ann", kind="pirate"))
    for payload in (leg("red")["payload"], END["payload"], FAIL["payload"]):
        assert refused_for(state, payload, "Ben") == "It is Ann's turn."
    legal_for_ben = GAME.legal_actions(state, "Ben")
    assert legal_for_ben["reveal_card"] == "It is Ann's turn." and legal_for_ben["end_attack"] == "It is Ann's turn."
    # Corrections are nobody's turn in particular; the host (no seat) plays for whoever attacks.
    assert legal_for_ben["correct_pile"] is None and legal_for_ben["correct_feasts"] is None
    assert GAME.legal_actions(state)["end_attack"] is None
    state = play(start("Ann"), line("row", 1), act("reveal_card", "Ann", kind="pirate"), act("end_attack", "Ann"))
    assert refused_for(state, SKIP["payload"], "Ben") == "It is Ann's turn."
    state = play(start("Ann"), line("row", 1), act("reveal_card", "Ann", kind="pirate"), act("end_attack", "Ann"),
                 act("skip_block", "Ann"), act("correct_pile", "Ann", player="Ben", item="pirate", count=1,
                                               reason="Ben's pirate from before we started"))
    assert str(GAME.status(state)).startswith("Ben's attack")
    assert refused_for(state, line("row", 2)["payload"], "Ann") == "It is Ben's turn."
    assert play(start("Ann"), act("choose_line", "Ann", line="row", number=2))["attack"]["number"] == 2


def test_the_host_hands_the_turn_on_logged_and_undoable():
    hand = act("hand_turn", player="Ben")
    entries = (start("Ann"), hand)
    state = play(*entries)
    assert state["attacker"] == "Ben" and state["phase"] == "choose_line" and GAME.turn_of(state) == "Ben"
    assert describe_last(*entries) == "The host handed the turn to Ben."
    assert refused_for(state, line("row", 1)["payload"], "Ann") == "It is Ben's turn."
    assert play(*entries, UNDO)["attacker"] == "Ann"
    assert "It is already Ben's turn." == refused(state, hand["payload"])
    assert "no player called 'Cleo'" in refused(state, {"type": "hand_turn", "player": "Cleo"})
    assert refused(play(), hand["payload"]) == "Nobody has the turn now."
    # Mid-attack the attack in progress becomes Ben's: he secures its cards, then blocks for Ann.
    state = play(start("Ann"), line("row", 1), leg("red"), hand, act("reveal_card", "Ben", kind="pirate"),
                 act("end_attack", "Ben"))
    assert state["secured"]["Ben"]["legionaries"]["red"] == 1 and state["secured"]["Ben"]["pirates"] == 1
    assert GAME.status(state) == "Ben: block a line for Ann's next attack · feasts 0/5"
    over = play(start(), act("correct_feasts", count=5, reason="all five feasts were out"))
    assert GAME.legal_actions(over)["hand_turn"] == "The game is over; only a secured pile can still be corrected."
