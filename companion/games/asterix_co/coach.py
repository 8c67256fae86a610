"""Asterix & Co. in teaching mode ("Our first game"): what the table does now, one function
per moment of the game.

- ``_opening``: nothing placed yet; the first player lays the first character.
- ``_power``: a character was just played (or a Boar used its power again); its player enters
  what the power does, then says it is done (the state keeps it: ``state["power"]``).
- ``_turn``: whoever's turn it is plays, uses a token or reinforces.
- ``_consolation`` and ``_orientation``: an album fell; its loser's two choices.
- ``_over``: someone reached 50 sesterces.
"""

from __future__ import annotations

from ..coach import Coach, Intro
from ..text import Sentence
from .board import SIDE_LABELS, TOKEN_LABELS, bonus_choices, label, waiting_character
from .scoring import (
    ALBUM_TARGET,
    character_strength,
    faction_total,
    helmets_sentence,
    sesterces_of,
)
from .view import ledger_view, seats_view

ONE_CARD = 8  # the strongest character card: an album this close may fall on the next card


def coach(state: dict) -> Coach:
    if state["finished"]:
        return _over(state)
    pending = state["pending"]
    if pending and pending["step"] == "consolation":
        return _consolation(state, pending["player"])
    if pending:
        return _orientation(state, pending["player"])
    if state.get("power"):
        return _power(state, state["power"])
    if state["next_character"] == 1 and state["turn"] == state["players"][0]:
        return _opening(state)
    return _turn(state)


# -- the moments of the game ---------------------------------------------------------------


def _opening(state: dict) -> Coach:
    player = state["turn"]
    return Coach(
        say=Sentence("%(player)s: you start. Once everyone holds 5 cards and the albums lie as "
                     "the page shows, play a character on one of your two albums.",
                     player=player),
        player=player, control="play_character", rule="setup",
        short=Sentence("%(player)s: play the first character.", player=player),
        scoring=_before_first_album(state))


def _power(state: dict, power: dict) -> Coach:
    """The power of the character just played waits for its player, who is told where to enter
    it; the next player plays once it is done."""
    player, character = power["player"], waiting_character(state, power)
    fields = dict(player=player, character=label(character), next=state["turn"])
    if power.get("boar"):
        say = Sentence("%(player)s: your Boar uses the power of %(character)s again. Enter what "
                       "it does: tap the character it hits, or ⋯ beside a player for a helmet or "
                       "a token. Then tap “Power done”; %(next)s plays next.", **fields)
    else:
        say = Sentence("%(player)s: enter the power of %(character)s now: tap the character it "
                       "hits, or ⋯ beside a player for a helmet or a token. Then tap “Power "
                       "done” (also when it has no target, or you pass on it); %(next)s plays "
                       "next.", **fields)
    return Coach(
        say=say, player=player, control="end_power", rule="powers",
        short=Sentence("%(player)s: enter the power, then tap “Power done”.", player=player),
        scoring=_before_first_album(state), hint=_album_hint(state, player, character))


def _turn(state: dict) -> Coach:
    player = state["turn"]
    first, second = _facing(state, player)
    albums = dict(first_side=SIDE_LABELS[first["faction"]], first=first["album"],
                  second_side=SIDE_LABELS[second["faction"]], second=second["album"])
    if any(state["ledger"][player]["bonuses"].values()):
        say = Sentence("%(player)s: your turn. Play a character on the %(first_side)s of album "
                       "%(first)s or the %(second_side)s of album %(second)s; or use a bonus "
                       "token (tap the character it goes on) and draw a card; or discard as "
                       "many cards as you like, draw back up to 5 and tap “Reinforce” under ⋯ "
                       "beside your name.", player=player, **albums)
        short = Sentence("%(player)s: play, use a token, or reinforce.", player=player)
    else:
        say = Sentence("%(player)s: your turn. Play a character on the %(first_side)s of album "
                       "%(first)s or the %(second_side)s of album %(second)s; or discard as many "
                       "cards as you like, draw back up to 5 and tap “Reinforce” under ⋯ beside "
                       "your name. You have no bonus token left.", player=player, **albums)
        short = Sentence("%(player)s: play or reinforce; you have no bonus token.", player=player)
    return Coach(
        say=say, player=player, control="play_character", rule="turn", short=short,
        scoring=_before_first_album(state),
        hint=_potion_hint(state, player) or _reach_hint(state, player)
        or _note_hint(state, player))


def _consolation(state: dict, player: str) -> Coach:
    held = state["ledger"][player]["bonuses"]
    return Coach(
        say=Sentence("%(player)s: you lost album %(album)s. Take one bonus token of your choice "
                     "from the stockpile as consolation, and tap it here.", player=player,
                     album=state["last_resolution"]["album"]),
        player=player, control="take_consolation", rule="resolution",
        short=Sentence("%(player)s: pick a consolation token.", player=player),
        after=_after_album(state), see="ac-verdict",
        hint=Sentence("You hold Potion %(potion)s, Fish %(fish)s, Boar %(boar)s; two of a kind "
                      "is the most. Allowed now: %(allowed)s.",
                      allowed=[TOKEN_LABELS[kind] for kind in bonus_choices(state, player)],
                      **held))


def _orientation(state: dict, player: str) -> Coach:
    fields = dict(player=player, next=state["turn"])
    if state["last_resolution"]["consolation"] is None:
        say = Sentence("%(player)s: no consolation token is left for you to take. Turn over the "
                       "top album of the pile and choose here which side faces you; %(next)s "
                       "plays next.", **fields)
        short = Sentence("%(player)s: no token for you; reveal the next album, pick your side.",
                         player=player)
    else:
        say = Sentence("%(player)s: turn over the top album of the pile and choose here which "
                       "side faces you. If it prints an effect, type it in the note and do what "
                       "it says; %(next)s plays next.", **fields)
        short = Sentence("%(player)s: reveal the next album and pick your side.", player=player)
    other = next((place for place in _facing(state, player) if place["album"] is not None), None)
    hint = None
    if other is not None:
        hint = Sentence("On your other album, %(album)s, you play the %(side)s.",
                        album=other["album"], side=SIDE_LABELS[other["faction"]])
    return Coach(
        say=say, player=player, control="orient_album", rule="album-effects", short=short,
        after=_after_album(state), see="ac-verdict", hint=hint)


def _over(state: dict) -> Coach:
    winner = state["winner"]
    return Coach(
        say=Sentence("%(winner)s wins: album %(album)s brought %(winner)s to %(sesterces)s "
                     "sesterces, and 50 ends the game.", winner=winner,
                     album=state["last_resolution"]["album"],
                     sesterces=sesterces_of(state, winner)),
        rule="end-of-game",
        after=Sentence("Albums count 15, centurion helmets 3, legionary helmets 1: %(sums)s.",
                       sums=[_sum_line(state, name) for name in state["players"]]),
        see="ac-final")


# -- scoring: before the first album falls, and after each one --------------------------------


def _before_first_album(state: dict) -> Sentence | None:
    if state["resolutions"]:
        return None
    return Sentence("When one side reaches 15 visible strength, its player takes the album: 15 "
                    "sesterces, plus a helmet per visible Legionary (1) and Centurion (3) on "
                    "it. Sesterces now: %(standing)s.",
                    standing=[_standing(state, name) for name in state["players"]])


def _standing(state: dict, name: str) -> Sentence:
    return Sentence("%(player)s %(sesterces)s", player=name, sesterces=sesterces_of(state, name))


def _after_album(state: dict) -> Sentence:
    """Why the winner of the last album got what they got, what the table does with its cards
    (on the first card after the fall), and what its loser gets."""
    last = state["last_resolution"]
    loser = last["loser"]
    first_card = state["pending"]["step"] == "consolation" or last["consolation"] is None
    if state["pending"]["step"] == "consolation":
        comfort = Sentence("%(player)s lost and picks a consolation token.", player=loser)
    elif last["consolation"]:
        comfort = Sentence("%(player)s lost and took a %(token)s.", player=loser,
                           token=TOKEN_LABELS[last["consolation"]])
    else:
        comfort = Sentence("%(player)s lost and could take no token.", player=loser)
    if first_card:
        comfort = Sentence("%(winner)s takes the album card and the helmets; the K.O.'d "
                           "characters go back to their owners' hands, the others onto the "
                           "discard pile and their Potions back to the stockpile. %(comfort)s",
                           winner=last["winner"], comfort=comfort)
    fields = dict(winner=last["winner"], album=last["album"], won=last["totals"][last["faction"]],
                  lost=sum(last["totals"].values()) - last["totals"][last["faction"]],
                  sesterces=last["sesterces"], comfort=comfort)
    helmets = helmets_sentence(last["centurion_helmets"], last["legionary_helmets"])
    if helmets:
        return Sentence("%(winner)s: 15 for album %(album)s (%(won)s to %(lost)s) and "
                        "%(helmets)s for its visible Legionaries and Centurions, now "
                        "%(sesterces)s. %(comfort)s", helmets=helmets, **fields)
    return Sentence("%(winner)s: 15 for album %(album)s (%(won)s to %(lost)s), no helmet (no "
                    "visible Legionary or Centurion), now %(sesterces)s. %(comfort)s", **fields)


def _sum_line(state: dict, name: str) -> Sentence:
    row = ledger_view(state, name)
    return Sentence("%(player)s %(albums)s×15 + %(centurion)s×3 + %(legionary)s×1 = %(sesterces)s",
                    player=name, albums=len(row["albums"]), centurion=row["centurion_helmets"],
                    legionary=row["legionary_helmets"], sesterces=row["sesterces"])


# -- hints for the acting player's own phone: figures from the table, never an order ---------


def _potion_hint(state: dict, player: str) -> Sentence | None:
    """A Potion of the player's that would decide an album now: their own visible character
    on their side, doubled, bringing the side to 15."""
    if not state["ledger"][player]["bonuses"]["potion"]:
        return None
    for slot in state["slots"]:
        if slot["album"] is None or player not in slot["pair"]:
            continue
        faction = "gaul" if slot["gaul"] == player else "roman"
        total = faction_total(slot, faction)
        for character in slot["characters"]:
            if (character["faction"] == faction and not character["potion"]
                    and total + character_strength(character) >= ALBUM_TARGET > total
                    and character_strength(character)):
                return Sentence("A Potion on %(character)s doubles it to %(doubled)s and "
                                "would bring album %(album)s to %(total)s.",
                                character=label(character), doubled=2 * character["strength"],
                                album=slot["album"], total=total + character["strength"])
    return None


def _reach_hint(state: dict, player: str) -> Sentence | None:
    """The album of the player's where a side is closest to 15, when one card could take it:
    only the sides that close."""
    closest = None
    for slot in state["slots"]:
        if slot["album"] is None or player not in slot["pair"]:
            continue
        mine = "gaul" if slot["gaul"] == player else "roman"
        theirs = "roman" if mine == "gaul" else "gaul"
        need = {side: ALBUM_TARGET - faction_total(slot, side) for side in (mine, theirs)}
        if min(need.values()) > ONE_CARD or (closest and min(need.values()) >= closest[0]):
            continue
        fields = dict(album=slot["album"], mine=need[mine], opponent=slot[theirs],
                      theirs=need[theirs])
        if max(need.values()) <= ONE_CARD:
            sentence = Sentence("Album %(album)s: you need %(mine)s more to take it, "
                                "%(opponent)s needs %(theirs)s.", **fields)
        elif need[mine] <= ONE_CARD:
            sentence = Sentence("Album %(album)s: you need %(mine)s more to take it.", **fields)
        else:
            sentence = Sentence("Album %(album)s: %(opponent)s needs only %(theirs)s more to "
                                "take it.", **fields)
        closest = (min(need.values()), sentence)
    return closest[1] if closest else None


def _album_hint(state: dict, player: str, character: dict) -> Sentence | None:
    """Where the album of the character whose power waits stands now."""
    for slot in state["slots"]:
        if character in slot["characters"] and player in slot["pair"]:
            mine = "gaul" if slot["gaul"] == player else "roman"
            theirs = "roman" if mine == "gaul" else "gaul"
            return Sentence("Album %(album)s stands at %(mine)s for you and %(theirs)s for "
                            "%(opponent)s; 15 takes it.", album=slot["album"],
                            mine=faction_total(slot, mine), theirs=faction_total(slot, theirs),
                            opponent=slot[theirs])
    return None


def _note_hint(state: dict, player: str) -> Sentence | None:
    """The printed effect of an album facing the player, as the table noted it."""
    for place in _facing(state, player):
        slot = state["slots"][place["slot"]]
        if slot["album"] is not None and slot["note"]:
            return Sentence("Album %(album)s has an effect: %(note)s", album=slot["album"],
                            note=slot["note"])
    return None


# -- reading the table -----------------------------------------------------------------------


def _facing(state: dict, player: str) -> list[dict]:
    """The player's two albums (left, then right), with the side they play on each."""
    return next(seat["albums"] for seat in seats_view(state) if seat["player"] == player)


# -- the introduction ------------------------------------------------------------------------


def intro(state: dict) -> Intro:
    players = state["players"]
    if len(players) == 2:
        need = Sentence("Each of you: a player aid, 5 character cards, a legionary helmet and a "
                        "Potion, Fish and Boar token; two starting albums lie between you.")
    else:
        need = Sentence("Each of you: a player aid, 5 character cards, a legionary helmet and a "
                        "Potion, Fish and Boar token; a starting album lies between each pair "
                        "of neighbours.")
    if any(left is not None for left in state["stock"].values()):
        stock = Sentence("%(need)s The companion counts the stockpile as this table set it.",
                         need=need)
    else:
        stock = Sentence("%(need)s The companion treats the stockpile as unlimited (a table "
                         "setting can limit it).", need=need)
    return Intro(
        goal=Sentence("Win the albums between you and your neighbours: the first side whose "
                      "visible characters reach 15 strength takes it. Albums and helmets are "
                      "worth sesterces, and the first to 50 wins."),
        need=stock,
        start=Sentence("%(player)s starts: the first name on the set-up form. The rulebook "
                       "leaves the start player open; the host can hand the turn to someone "
                       "else.", player=players[0]))
