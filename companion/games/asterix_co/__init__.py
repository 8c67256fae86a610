"""Asterix & Co.: album battles between neighbours, helmets, bonus tokens, first to 50 sesterces.

The phones do not track the cards in hands or the draw pile; they follow what lies on the
table. Players sit in seating order, clockwise, so the player after you in the list is the one
on your left and plays after you. The album between a player and their left neighbour starts
with its Gaul side towards that player and its Roman side towards the neighbour, so everyone
plays Gauls on the album to their left and Romans on the album to their right.

Characters are entered as they are played (strength, type, colour, optional name) and get a
stable id ("c7") so that later moves can name them. The moment a faction's visible strength on
an album reaches 15, the album is resolved; the loser then picks a consolation bonus and the
side of the next album that faces them, as two separate moves.

The turn: playing a character, using a bonus token and reinforcing the hand are the three
kinds of turn (made only for the player whose turn it is); a power's effects and the album
notes are bookkeeping anyone may enter; the loser's two choices wait for nobody's turn.
"""

from __future__ import annotations

from pydantic import Field

from ..base import Game, Move, Options, Phase, Whole
from ..text import N_, Sentence
from . import moves as turn
from . import powers
from .board import BONUS_KINDS, HELMET_KINDS, MAX_STOCK, pending_sentence
from .coach import coach, intro
from .scoring import WINNING_SESTERCES, sesterces, sesterces_of
from .view import table_view

__all__ = ["AsterixCo", "AsterixCoOptions", "sesterces"]

PLAY, CONSOLATION, ORIENTATION, OVER = "play", "consolation", "orientation", "over"
# A power waiting to be entered is its player's choice (or the host's).
POWERS_CHOICE = dict(seat_check=powers.powers_choice, host_too=True)


def _stock_field(title: str, description: str):
    """A stockpile count option (empty: unlimited); title and description as printed names,
    so that each phone reads them in its language."""
    return Field(None, ge=0, le=MAX_STOCK, title=title, description=description)


class AsterixCoOptions(Options):
    legionary_helmets: Whole | None = _stock_field(
        N_("Legionary helmets in the stockpile"),
        N_("How many legionary helmets are left in the stockpile once everyone has their "
           "starting helmet. Leave empty for unlimited; with a number, taking from an empty "
           "pile is refused."),
    )
    centurion_helmets: Whole | None = _stock_field(
        N_("Centurion helmets in the stockpile"),
        N_("How many centurion helmets are left in the stockpile once the game is set up. "
           "Leave empty for unlimited; with a number, taking from an empty pile is refused."),
    )
    potion_tokens: Whole | None = _stock_field(
        N_("Potion tokens in the stockpile"),
        N_("How many Potion tokens are left in the stockpile once everyone has their starting "
           "Potion. Leave empty for unlimited; with a number, taking from an empty pile is "
           "refused."),
    )
    fish_tokens: Whole | None = _stock_field(
        N_("Fish tokens in the stockpile"),
        N_("How many Fish tokens are left in the stockpile once everyone has their starting "
           "Fish. Leave empty for unlimited; with a number, taking from an empty pile is "
           "refused."),
    )
    boar_tokens: Whole | None = _stock_field(
        N_("Boar tokens in the stockpile"),
        N_("How many Boar tokens are left in the stockpile once everyone has their starting "
           "Boar. Leave empty for unlimited; with a number, taking from an empty pile is "
           "refused."),
    )


class AsterixCo(Game):
    id = "asterix-co"
    name = N_("Asterix & Co.")
    summary = N_(
        "Album battles between neighbours: faction totals, K.O.s and potions, helmets and "
        "bonus tokens, first to 50 sesterces."
    )
    min_players = 2
    max_players = 4
    options_model = AsterixCoOptions
    has_turns = True
    # Read from the table (``phase``), never stored. After each move on the albums (those that
    # end play below: ``moves.settled``) an album with a faction at 15 falls: its winner may
    # reach 50 sesterces, else its loser chooses a consolation (skipped when there is none to
    # take) and the side of the next album.
    phases = (
        Phase(PLAY, ends=("play_character", "use_potion", "use_fish", "use_boar", "knock_out",
                          "reinvigorate", "eliminate", "call_on"),
              then=(CONSOLATION, ORIENTATION, OVER)),
        Phase(CONSOLATION, ends=("take_consolation",), then=(ORIENTATION,)),
        Phase(ORIENTATION, ends=("orient_album",), then=(PLAY,)),
        Phase(OVER),
    )
    moves = (
        # A turn: one of these, for the player whose turn it is; the turn then passes left.
        Move(turn.PlayCharacter, turn.play_character, phases=(PLAY,), turn="player"),
        Move(turn.UsePotion, turn.use_potion, phases=(PLAY,), check=turn.can_use_potion,
             turn="player"),
        Move(turn.UseFish, turn.use_fish, phases=(PLAY,), check=turn.can_use_fish, turn="player"),
        Move(turn.UseBoar, turn.use_boar, phases=(PLAY,), check=turn.can_use_boar, turn="player"),
        Move(turn.ReinforceHand, turn.reinforce_hand, phases=(PLAY,), turn="player"),
        # What the power of the character just played does: the turn has already passed on.
        # While it waits, it is entered on its player's phone (or the host's).
        Move(powers.KnockOut, powers.knock_out, phases=(PLAY,), check=powers.can_knock_out,
             **POWERS_CHOICE),
        Move(powers.Reinvigorate, powers.reinvigorate, phases=(PLAY,),
             check=powers.can_reinvigorate, **POWERS_CHOICE),
        Move(powers.Eliminate, powers.eliminate, phases=(PLAY,), check=powers.can_eliminate,
             **POWERS_CHOICE),
        Move(powers.CallOn, powers.call_on, phases=(PLAY,), check=powers.can_call_on,
             **POWERS_CHOICE),
        # An empty helmet pile is refused by the rule, which names the pile asked for.
        Move(powers.GainHelmet, powers.gain_helmet, phases=(PLAY,), **POWERS_CHOICE),
        Move(powers.GainBonus, powers.gain_bonus, phases=(PLAY,), check=powers.can_gain_bonus,
             **POWERS_CHOICE),
        Move(powers.EndPower, powers.end_power, phases=(PLAY,), check=powers.power_waits,
             **POWERS_CHOICE),
        # A cost such as Caesar's is paid by whoever plays that character, at any moment.
        Move(powers.DestroyHelmet, powers.destroy_helmet, phases=(PLAY,),
             check=powers.can_destroy_helmet),
        # After an album falls, its loser's two choices, in this order, on the loser's phone.
        Move(turn.TakeConsolation, turn.take_consolation, phases=(CONSOLATION,),
             seat_check=turn.losers_choice, host_too=True),
        Move(turn.OrientAlbum, turn.orient_album, phases=(ORIENTATION,),
             seat_check=turn.losers_choice, host_too=True),
        # A reminder of an album's printed effect, at any moment of the game.
        Move(turn.SetAlbumNote, turn.set_album_note,
             scope=lambda action: frozenset({("note", action.album)})),
    )
    # "menus": the one shared copy of the character, play and power dialogs (see the template).
    regions = ("albums", "ledger", "resolution", "menus")

    def initial_state(self, players: list[str], options: AsterixCoOptions) -> dict:
        count = len(players)
        # One album between each pair of neighbours; with two players, two albums between them.
        slots = []
        for index in range(count):
            player, left_neighbour = players[index], players[(index + 1) % count]
            slots.append(
                {
                    "album": index + 1,
                    "pair": [player, left_neighbour],
                    "gaul": player,
                    "roman": left_neighbour,
                    "note": "",
                    "characters": [],
                }
            )
        return {
            "players": list(players),
            "slots": slots,
            "next_album": count + 1,
            "next_character": 1,
            "ledger": {
                name: {
                    "albums": [],
                    "legionary_helmets": 1,
                    "centurion_helmets": 0,
                    "bonuses": {kind: 1 for kind in BONUS_KINDS},
                }
                for name in players
            },
            "stock": {
                "legionary": options.legionary_helmets,
                "centurion": options.centurion_helmets,
                "potion": options.potion_tokens,
                "fish": options.fish_tokens,
                "boar": options.boar_tokens,
            },
            "turn": players[0],
            "power": None,  # the power of the character just played, until entered or past
            "pending": None,
            "resolutions": 0,
            "last_resolution": None,
            "finished": False,
            "winner": None,
        }

    # -- phase and turn ----------------------------------------------------------------------

    def phase(self, state: dict) -> str:
        if state["finished"]:
            return OVER
        if state["pending"]:
            return state["pending"]["step"]
        return PLAY

    def expected(self, state: dict) -> Sentence:
        if state["finished"]:
            return self.status(state)
        if state["pending"]:
            return pending_sentence(state["pending"])
        return Sentence(
            "%(player)s plays a character, uses a bonus token or reinforces their hand.",
            player=state["turn"])

    def turn_of(self, state: dict) -> str | None:
        # While the loser chooses, the turn already waits on the winner's left.
        return None if state["finished"] else state["turn"]

    def give_turn(self, state: dict, player: str) -> None:
        state["turn"] = player

    # -- results -----------------------------------------------------------------------------

    def is_over(self, state: dict) -> bool:
        return bool(state["finished"])

    def scores(self, state: dict) -> dict[str, int]:
        return {name: sesterces_of(state, name) for name in state["players"]}

    def winners(self, state: dict) -> list[str]:
        return [state["winner"]] if state["finished"] else []

    def status(self, state: dict) -> Sentence:
        if state["finished"]:
            winner = state["winner"]
            return Sentence("%(player)s wins with %(sesterces)s sesterces!", player=winner,
                            sesterces=sesterces_of(state, winner))
        pending = state["pending"]
        if pending:
            last = state["last_resolution"]
            return Sentence("%(winner)s took album %(album)s · %(next)s", winner=last["winner"],
                            album=last["album"], next=pending_sentence(pending))
        return Sentence("%(player)s's turn · first to %(target)s sesterces wins",
                        player=state["turn"], target=WINNING_SESTERCES)

    def view(self, state: dict) -> dict:
        return table_view(state)

    def legal_on_phone(self, state: dict, seat: str | None, acting: str | None,
                       host: bool) -> dict:
        """What a phone may do: the turn's moves for ``acting`` (its seat, or the player
        without a phone whose turn it enters), every choice as its own ``seat`` (or the host's)."""
        return {kind: self.why_not(state, kind, acting if move.turn else None,
                                   None if host and move.host_too else seat)
                for kind, move in self._moves.items()}

    def coach(self, state: dict):
        return coach(state)

    def intro(self, state: dict):
        return intro(state)

    # -- for tests that play random games -----------------------------------------------------

    def sample_payloads(self, state: dict, kind: str) -> list[dict]:
        """Payloads naming what lies on the table now (character ids, album numbers), which a
        generic guess from the payload models cannot know."""
        players = state["players"]
        ids = [c["id"] for slot in state["slots"] for c in slot["characters"]]
        albums = [slot["album"] for slot in state["slots"] if slot["album"] is not None]
        if kind == "play_character":
            player = state["turn"]
            return [
                {"type": kind, "player": player, "album": slot["album"], "strength": strength,
                 "character_type": character_type, "colour": "Neutral"}
                for slot in state["slots"] if slot["album"] is not None and player in slot["pair"]
                for strength in (2, 5, 8) for character_type in ("Rebel", "Legionary", "Centurion")
            ]
        if kind in ("use_potion", "use_fish", "use_boar"):
            return [{"type": kind, "player": state["turn"], "character": i} for i in ids]
        if kind in ("knock_out", "reinvigorate", "eliminate"):
            return [{"type": kind, "character": i} for i in ids]
        if kind == "call_on":
            return [{"type": kind, "player": p, "album": a, "character": i}
                    for p in players for a in albums for i in ids]
        if kind in ("gain_helmet", "destroy_helmet"):
            return [{"type": kind, "player": p, "helmet": h} for p in players for h in HELMET_KINDS]
        if kind == "end_power":
            return [{"type": kind}]
        if kind == "set_album_note":
            return [{"type": kind, "album": a, "note": "No Fish"} for a in albums]
        return []
