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
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import Action, Game, GameError, Options, Whole

ALBUM_TARGET = 15  # visible strength a faction needs to take an album
WINNING_SESTERCES = 50
ALBUM_SESTERCES = 15
CENTURION_HELMET_SESTERCES = 3
LEGIONARY_HELMET_SESTERCES = 1
MAX_SAME_BONUS = 2  # nobody may hold a third token of one kind
MAX_STOCK = 200

CHARACTER_TYPES = ("Centurion", "Chief", "Swindler", "Hero", "Diehard", "Legionary", "Rebel")
COLOURS = ("Gaul", "Roman", "Neutral")
FACTIONS = ("gaul", "roman")
BONUS_KINDS = ("potion", "fish", "boar")
HELMET_KINDS = ("legionary", "centurion")
BONUS_LABELS = {"potion": "Potion", "fish": "Fish", "boar": "Boar"}
FACTION_LABELS = {"gaul": "Gaul", "roman": "Roman"}

CharacterType = Literal["Centurion", "Chief", "Swindler", "Hero", "Diehard", "Legionary", "Rebel"]
Colour = Literal["Gaul", "Roman", "Neutral"]
Faction = Literal["gaul", "roman"]
BonusKind = Literal["potion", "fish", "boar"]
HelmetKind = Literal["legionary", "centurion"]


def sesterces(albums: int, centurion_helmets: int, legionary_helmets: int) -> int:
    """A player's fortune: 15 per album, 3 per centurion helmet, 1 per legionary helmet."""
    return (
        albums * ALBUM_SESTERCES
        + centurion_helmets * CENTURION_HELMET_SESTERCES
        + legionary_helmets * LEGIONARY_HELMET_SESTERCES
    )


def _stock_field(things: str, starting: str):
    """A stockpile count option; ``things`` as in a sentence ("legionary helmets")."""
    return Field(
        None,
        ge=0,
        le=MAX_STOCK,
        title=f"{things[0].upper()}{things[1:]} in the stockpile",
        description=f"How many {things} are left in the stockpile once {starting}. "
        "Leave empty for unlimited; with a number, taking from an empty pile is refused.",
    )


class AsterixCoOptions(Options):
    legionary_helmets: Whole | None = _stock_field(
        "legionary helmets", "everyone has their starting helmet"
    )
    centurion_helmets: Whole | None = _stock_field("centurion helmets", "the game is set up")
    potion_tokens: Whole | None = _stock_field(
        "Potion tokens", "everyone has their starting Potion"
    )
    fish_tokens: Whole | None = _stock_field("Fish tokens", "everyone has their starting Fish")
    boar_tokens: Whole | None = _stock_field("Boar tokens", "everyone has their starting Boar")


# -- turn moves: each one ends the player's turn ------------------------------------------


class PlayCharacter(Action):
    """Put a character from the hand on the player's side of an album facing them."""

    type: Literal["play_character"] = "play_character"
    player: str = Field(description="Who plays the character.")
    album: Whole = Field(ge=1, description="The album's number, as shown beside it.")
    strength: Whole = Field(ge=2, le=8, description="The number in the card's top corner.")
    character_type: CharacterType = Field(description="The emblem at the bottom of the card.")
    colour: Colour = Field(description="Blue: Gaul, red: Roman, purple: Neutral.")
    name: str | None = Field(None, max_length=40, description="The name on the banner (optional).")


class UsePotion(Action):
    """Spend a Potion token on a character: its strength doubles and it is protected."""

    type: Literal["use_potion"] = "use_potion"
    player: str = Field(description="Whose Potion token it is.")
    character: str = Field(description="The character's id, e.g. c7.")


class UseFish(Action):
    """Spend a Fish token to K.O. a character without a Potion."""

    type: Literal["use_fish"] = "use_fish"
    player: str = Field(description="Whose Fish token it is.")
    character: str = Field(description="The character's id, e.g. c7.")


class UseBoar(Action):
    """Spend a Boar token: reinvigorate a K.O.'d character, or use a visible one's power again."""

    type: Literal["use_boar"] = "use_boar"
    player: str = Field(description="Whose Boar token it is.")
    character: str = Field(
        description="A K.O.'d character to reinvigorate, or a visible character on an album "
        "facing the player whose power is used again."
    )


class ReinforceHand(Action):
    """Discard any cards and draw back up to five: the turn passes on."""

    type: Literal["reinforce_hand"] = "reinforce_hand"
    player: str = Field(description="Who reinforces their hand.")


# -- effects of a character's power (no change of turn) ------------------------------------


class KnockOut(Action):
    """A power K.O.s a character: it is turned face down and stops counting."""

    type: Literal["knock_out"] = "knock_out"
    character: str = Field(description="The character's id, e.g. c7.")


class Reinvigorate(Action):
    """A power turns a K.O.'d character face up again, without its power."""

    type: Literal["reinvigorate"] = "reinvigorate"
    character: str = Field(description="The character's id, e.g. c7.")


class Eliminate(Action):
    """A power discards a visible character, and the Potion on it if there is one."""

    type: Literal["eliminate"] = "eliminate"
    character: str = Field(description="The character's id, e.g. c7.")


class CallOn(Action):
    """A power calls a visible character without a Potion over to the caller's faction."""

    type: Literal["call_on"] = "call_on"
    player: str = Field(description="Who calls the character on.")
    album: Whole = Field(ge=1, description="The album whose faction the character joins.")
    character: str = Field(description="The character's id, e.g. c7.")


class GainHelmet(Action):
    """A power (Dogmatix …) hands a helmet from the stockpile to a player."""

    type: Literal["gain_helmet"] = "gain_helmet"
    player: str = Field(description="Who receives the helmet.")
    helmet: HelmetKind = Field(description="legionary or centurion.")


class GainBonus(Action):
    """A power (Getafix …) hands a bonus token from the stockpile to a player."""

    type: Literal["gain_bonus"] = "gain_bonus"
    player: str = Field(description="Who receives the token.")
    bonus: BonusKind = Field(description="potion, fish or boar.")


class DestroyHelmet(Action):
    """Pay a cost such as Caesar's: one of the player's helmets goes back to the stockpile."""

    type: Literal["destroy_helmet"] = "destroy_helmet"
    player: str = Field(description="Whose helmet is destroyed.")
    helmet: HelmetKind = Field(description="legionary or centurion.")


# -- after an album falls --------------------------------------------------------------------


class TakeConsolation(Action):
    """The loser of the last album picks a bonus token from the stockpile."""

    type: Literal["take_consolation"] = "take_consolation"
    bonus: BonusKind = Field(description="potion, fish or boar.")


class OrientAlbum(Action):
    """The loser reveals the next album and picks which faction they play on it."""

    type: Literal["orient_album"] = "orient_album"
    faction: Faction = Field(description="The side that faces the loser: gaul or roman.")
    note: str | None = Field(None, max_length=120, description="The new album's effect, if any.")


class SetAlbumNote(Action):
    """Write the album's printed effect beside it; an empty note clears it."""

    type: Literal["set_album_note"] = "set_album_note"
    album: Whole = Field(ge=1, description="The album's number.")
    note: str | None = Field(None, max_length=120, description="A short reminder of its effect.")


TURN_MOVES = (PlayCharacter, UsePotion, UseFish, UseBoar, ReinforceHand)


class AsterixCo(Game):
    id = "asterix-co"
    name = "Asterix & Co."
    summary = (
        "Album battles between neighbours: faction totals, K.O.s and potions, helmets and "
        "bonus tokens, first to 50 sesterces."
    )
    min_players = 2
    max_players = 4
    options_model = AsterixCoOptions
    actions = (
        PlayCharacter,
        UsePotion,
        UseFish,
        UseBoar,
        ReinforceHand,
        KnockOut,
        Reinvigorate,
        Eliminate,
        CallOn,
        GainHelmet,
        GainBonus,
        DestroyHelmet,
        TakeConsolation,
        OrientAlbum,
        SetAlbumNote,
    )
    # "menus": the one shared copy of the character, play and power dialogs (see the template).
    regions = ("albums", "ledger", "resolution", "menus")

    # -- setup -----------------------------------------------------------------------------

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
            "pending": None,
            "resolutions": 0,
            "last_resolution": None,
            "finished": False,
            "winner": None,
        }

    # -- rules -----------------------------------------------------------------------------

    def apply(self, state: dict, action: Action, actor: str | None) -> dict:
        if state["finished"]:
            raise GameError(
                f"The game is over: {state['winner']} reached {WINNING_SESTERCES} sesterces; "
                "undo the last move to play on."
            )
        pending = state["pending"]
        if pending and not isinstance(action, (TakeConsolation, OrientAlbum, SetAlbumNote)):
            raise GameError(self._pending_sentence(pending, "First "))
        new = self.copy(state)
        if isinstance(action, TURN_MOVES):
            self._require_player(new, action.player)
            new["turn"] = self._left_of(new, action.player)
        handler = getattr(self, "_do_" + action.type)
        handler(new, action)
        self._resolve_any(new)
        return new

    def _do_play_character(self, new: dict, action: PlayCharacter) -> None:
        slot = self._slot(new, action.album)
        faction = self._faction_of(slot, action.player)
        if action.colour == "Gaul" and faction != "gaul":
            raise GameError(
                f"A Gaul character goes on a Gaul side, and {action.player} plays the Roman "
                f"side of album {slot['album']}."
            )
        if action.colour == "Roman" and faction != "roman":
            raise GameError(
                f"A Roman character goes on a Roman side, and {action.player} plays the Gaul "
                f"side of album {slot['album']}."
            )
        name = (action.name or "").strip() or None
        if action.character_type == "Hero" and name:
            self._check_hero(new, name)
        character = {
            "id": f"c{new['next_character']}",
            "name": name,
            "strength": action.strength,
            "character_type": action.character_type,
            "colour": action.colour,
            "faction": faction,
            "owner": action.player,
            "potion": False,
            "knocked_out": False,
            "called_on_by": None,
        }
        new["next_character"] += 1
        slot["characters"].append(character)

    def _do_use_potion(self, new: dict, action: UsePotion) -> None:
        _slot, character = self._character(new, action.character)
        self._spend_bonus(new, action.player, "potion")
        if character["potion"]:
            raise GameError(f"{self._label(character)} already has a Potion; one is the most.")
        if character["knocked_out"]:
            raise GameError(
                f"{self._label(character)} is K.O.'d; it must be reinvigorated before it can "
                "take a Potion."
            )
        # The token now lies on the character; it goes back to the stockpile when it leaves play.
        character["potion"] = True

    def _do_use_fish(self, new: dict, action: UseFish) -> None:
        _slot, character = self._character(new, action.character)
        self._spend_bonus(new, action.player, "fish")
        self._knock_out(character)
        self._return_to_stock(new, "fish")

    def _do_use_boar(self, new: dict, action: UseBoar) -> None:
        slot, character = self._character(new, action.character)
        self._spend_bonus(new, action.player, "boar")
        if character["knocked_out"]:
            self._reinvigorate(new, character)
        elif action.player not in slot["pair"]:
            raise GameError(
                f"A Boar re-uses the power of a character on an album facing {action.player}, "
                f"and album {slot['album']} does not face them."
            )
        self._return_to_stock(new, "boar")

    def _do_reinforce_hand(self, new: dict, action: ReinforceHand) -> None:
        """Nothing on the table changes; only the turn passes on."""

    def _do_knock_out(self, new: dict, action: KnockOut) -> None:
        _slot, character = self._character(new, action.character)
        self._knock_out(character)

    def _do_reinvigorate(self, new: dict, action: Reinvigorate) -> None:
        _slot, character = self._character(new, action.character)
        self._reinvigorate(new, character)

    def _do_eliminate(self, new: dict, action: Eliminate) -> None:
        slot, character = self._character(new, action.character)
        if character["knocked_out"]:
            raise GameError(
                f"Only a visible character can be eliminated, and {self._label(character)} "
                "is K.O.'d."
            )
        slot["characters"].remove(character)
        if character["potion"]:
            self._return_to_stock(new, "potion")

    def _do_call_on(self, new: dict, action: CallOn) -> None:
        self._require_player(new, action.player)
        target = self._slot(new, action.album)
        faction = self._faction_of(target, action.player)
        source, character = self._character(new, action.character)
        label = self._label(character)
        if character["knocked_out"]:
            raise GameError(f"Only a visible character can be called on, and {label} is K.O.'d.")
        if character["potion"]:
            raise GameError(f"{label} has a Potion and cannot be called on.")
        if source is target and character["faction"] == faction:
            raise GameError(
                f"{label} already fights for {action.player} on album {target['album']}."
            )
        source["characters"].remove(character)
        character["faction"] = faction
        # A called-on character that ends K.O.'d goes back to the caller's hand.
        character["owner"] = action.player
        character["called_on_by"] = action.player
        target["characters"].append(character)

    def _do_gain_helmet(self, new: dict, action: GainHelmet) -> None:
        self._require_player(new, action.player)
        self._take_from_stock(new, action.helmet)
        new["ledger"][action.player][f"{action.helmet}_helmets"] += 1

    def _do_gain_bonus(self, new: dict, action: GainBonus) -> None:
        self._require_player(new, action.player)
        self._gain_bonus(new, action.player, action.bonus)

    def _do_destroy_helmet(self, new: dict, action: DestroyHelmet) -> None:
        self._require_player(new, action.player)
        held = new["ledger"][action.player]
        key = f"{action.helmet}_helmets"
        if held[key] == 0:
            raise GameError(f"{action.player} has no {action.helmet} helmet to destroy.")
        held[key] -= 1
        self._return_to_stock(new, action.helmet)

    def _do_take_consolation(self, new: dict, action: TakeConsolation) -> None:
        pending = new["pending"]
        if not pending:
            raise GameError("No consolation bonus is due right now.")
        if pending["step"] != "consolation":
            raise GameError(self._pending_sentence(pending, "The consolation is settled; now "))
        loser = pending["player"]
        self._gain_bonus(new, loser, action.bonus)
        new["last_resolution"]["consolation"] = action.bonus
        new["pending"] = {"step": "orientation", "player": loser, "slot": pending["slot"]}

    def _do_orient_album(self, new: dict, action: OrientAlbum) -> None:
        pending = new["pending"]
        if not pending or pending["step"] != "orientation":
            if pending:
                raise GameError(self._pending_sentence(pending, "First "))
            raise GameError("No album is waiting to be revealed right now.")
        loser = pending["player"]
        slot = new["slots"][pending["slot"]]
        other = next(name for name in slot["pair"] if name != loser)
        opposite = "roman" if action.faction == "gaul" else "gaul"
        slot.update(
            {
                "album": new["next_album"],
                action.faction: loser,
                opposite: other,
                "note": (action.note or "").strip(),
                "characters": [],
            }
        )
        new["next_album"] += 1
        new["pending"] = None

    def _do_set_album_note(self, new: dict, action: SetAlbumNote) -> None:
        slot = self._slot(new, action.album)
        slot["note"] = (action.note or "").strip()

    # -- resolution ----------------------------------------------------------------------

    def _resolve_any(self, new: dict) -> None:
        """Resolve the album whose faction has just reached 15 visible strength, if any."""
        for index, slot in enumerate(new["slots"]):
            if slot["album"] is None:
                continue
            totals = {faction: self.faction_total(slot, faction) for faction in FACTIONS}
            for faction in FACTIONS:
                if totals[faction] >= ALBUM_TARGET:
                    self._resolve(new, index, faction, totals)
                    return

    def _resolve(self, new: dict, index: int, faction: str, totals: dict) -> None:
        slot = new["slots"][index]
        winner = slot[faction]
        loser = slot["roman" if faction == "gaul" else "gaul"]
        ledger = new["ledger"][winner]
        ledger["albums"].append(slot["album"])
        visible = [c for c in slot["characters"] if not c["knocked_out"]]
        earned = {}
        short = {}
        for helmet, character_type in (("legionary", "Legionary"), ("centurion", "Centurion")):
            due = sum(1 for c in visible if c["character_type"] == character_type)
            available = new["stock"][helmet]
            paid = due if available is None else min(due, available)
            if available is not None:
                new["stock"][helmet] = available - paid
            ledger[f"{helmet}_helmets"] += paid
            earned[helmet] = paid
            short[helmet] = due - paid
        for character in visible:
            if character["potion"]:
                self._return_to_stock(new, "potion")
        back_to_hand = [
            {"name": self._label(c), "owner": c["owner"]}
            for c in slot["characters"]
            if c["knocked_out"]
        ]
        fortune = self.sesterces_of(new, winner)
        new["resolutions"] += 1
        new["last_resolution"] = {
            "album": slot["album"],
            "winner": winner,
            "loser": loser,
            "faction": faction,
            "totals": totals,
            "legionary_helmets": earned["legionary"],
            "centurion_helmets": earned["centurion"],
            "helmets_short": short["legionary"] + short["centurion"],
            "back_to_hand": back_to_hand,
            "sesterces": fortune,
            "consolation": None,
        }
        slot["album"] = None
        slot["characters"] = []
        slot["note"] = ""
        if fortune >= WINNING_SESTERCES:
            new["finished"] = True
            new["winner"] = winner
            return
        new["turn"] = self._left_of(new, winner)
        if self.consolation_choices(new, loser):
            new["pending"] = {"step": "consolation", "player": loser, "slot": index}
        else:
            new["pending"] = {"step": "orientation", "player": loser, "slot": index}

    # -- helpers ---------------------------------------------------------------------------

    @staticmethod
    def _require_player(state: dict, name: str) -> None:
        if name not in state["players"]:
            raise GameError(f"There is no player called '{name}' at this table.")

    @staticmethod
    def _left_of(state: dict, name: str) -> str:
        players = state["players"]
        return players[(players.index(name) + 1) % len(players)]

    @staticmethod
    def _slot(state: dict, number: int) -> dict:
        for slot in state["slots"]:
            if slot["album"] == number:
                return slot
        raise GameError(f"There is no album {number} on the table.")

    def _faction_of(self, slot: dict, player: str) -> str:
        self._require_player_on(slot, player)
        return "gaul" if slot["gaul"] == player else "roman"

    @staticmethod
    def _require_player_on(slot: dict, player: str) -> None:
        if player not in slot["pair"]:
            raise GameError(
                f"Album {slot['album']} lies between {slot['pair'][0]} and {slot['pair'][1]}; "
                f"it does not face {player}."
            )

    @staticmethod
    def _character(state: dict, character_id: str) -> tuple[dict, dict]:
        wanted = character_id.strip().lower()
        for slot in state["slots"]:
            for character in slot["characters"]:
                if character["id"] == wanted:
                    return slot, character
        raise GameError(f"There is no character '{character_id}' on an album right now.")

    @staticmethod
    def _label(character: dict) -> str:
        if character["name"]:
            return f"{character['name']} ({character['id']})"
        return (
            f"the strength {character['strength']} {character['colour']} "
            f"{character['character_type']} ({character['id']})"
        )

    def _check_hero(self, state: dict, name: str, skip: dict | None = None) -> None:
        wanted = name.casefold()
        for slot in state["slots"]:
            for other in slot["characters"]:
                if (
                    other is not skip
                    and not other["knocked_out"]
                    and other["character_type"] == "Hero"
                    and (other["name"] or "").casefold() == wanted
                ):
                    raise GameError(
                        f"{other['name']} is already visible on album {slot['album']}; "
                        "an identical Hero cannot join while it is."
                    )

    def _knock_out(self, character: dict) -> None:
        label = self._label(character)
        if character["knocked_out"]:
            raise GameError(f"{label} is already K.O.'d.")
        if character["potion"]:
            raise GameError(f"{label} has a Potion and cannot be K.O.'d.")
        character["knocked_out"] = True

    def _reinvigorate(self, state: dict, character: dict) -> None:
        if not character["knocked_out"]:
            raise GameError(
                f"{self._label(character)} is not K.O.'d, so it cannot be reinvigorated."
            )
        if character["character_type"] == "Hero" and character["name"]:
            self._check_hero(state, character["name"], skip=character)
        character["knocked_out"] = False

    def _spend_bonus(self, state: dict, player: str, kind: str) -> None:
        held = state["ledger"][player]["bonuses"]
        if held[kind] == 0:
            raise GameError(f"{player} has no {BONUS_LABELS[kind]} token to use.")
        held[kind] -= 1

    def _gain_bonus(self, state: dict, player: str, kind: str) -> None:
        held = state["ledger"][player]["bonuses"]
        if held[kind] >= MAX_SAME_BONUS:
            raise GameError(
                f"{player} already holds two {BONUS_LABELS[kind]} tokens; a third one is not "
                "allowed."
            )
        self._take_from_stock(state, kind)
        held[kind] += 1

    @staticmethod
    def _stock_label(kind: str) -> str:
        if kind in HELMET_KINDS:
            return f"{kind} helmet"
        return f"{BONUS_LABELS[kind]} token"

    def _take_from_stock(self, state: dict, kind: str) -> None:
        left = state["stock"][kind]
        if left is None:
            return
        if left == 0:
            raise GameError(f"The {self._stock_label(kind)} stockpile is empty.")
        state["stock"][kind] = left - 1

    @staticmethod
    def _return_to_stock(state: dict, kind: str) -> None:
        if state["stock"][kind] is not None:
            state["stock"][kind] += 1

    def _pending_sentence(self, pending: dict, prefix: str = "") -> str:
        player = pending["player"]
        if pending["step"] == "consolation":
            return f"{prefix}{player} picks a consolation bonus token."
        return f"{prefix}{player} reveals the next album and picks the side that faces them."

    # -- derived ---------------------------------------------------------------------------

    @staticmethod
    def character_strength(character: dict) -> int:
        """What a character adds to its faction: nothing when K.O.'d, double with a Potion."""
        if character["knocked_out"]:
            return 0
        return character["strength"] * (2 if character["potion"] else 1)

    def faction_total(self, slot: dict, faction: str) -> int:
        """The visible strength of one faction on an album."""
        return sum(
            self.character_strength(c) for c in slot["characters"] if c["faction"] == faction
        )

    @staticmethod
    def sesterces_of(state: dict, player: str) -> int:
        held = state["ledger"][player]
        return sesterces(len(held["albums"]), held["centurion_helmets"], held["legionary_helmets"])

    def consolation_choices(self, state: dict, player: str) -> list[str]:
        """The bonus kinds a player may still take: fewer than two held and some in stock."""
        held = state["ledger"][player]["bonuses"]
        return [
            kind
            for kind in BONUS_KINDS
            if held[kind] < MAX_SAME_BONUS and state["stock"][kind] != 0
        ]

    def is_over(self, state: dict) -> bool:
        return bool(state["finished"])

    def scores(self, state: dict) -> dict[str, int]:
        return {name: self.sesterces_of(state, name) for name in state["players"]}

    def winners(self, state: dict) -> list[str]:
        return [state["winner"]] if state["finished"] else []

    def status(self, state: dict) -> str:
        if state["finished"]:
            winner = state["winner"]
            return f"{winner} wins with {self.sesterces_of(state, winner)} sesterces!"
        pending = state["pending"]
        if pending:
            last = state["last_resolution"]
            return f"{last['winner']} took album {last['album']} · " + self._pending_sentence(
                pending
            )
        return f"{state['turn']}'s turn · first to {WINNING_SESTERCES} sesterces wins"

    def describe(self, state: dict, action: Action, actor: str | None) -> str:
        sentence = self._describe_move(state, action, actor)
        try:
            after = self.apply(state, action, actor)
        except GameError:
            return sentence
        if after["resolutions"] > state["resolutions"]:
            sentence += " " + self._describe_resolution(after)
        return sentence

    def _describe_move(self, state: dict, action: Action, actor: str | None) -> str:
        def label(character_id: str) -> str:
            try:
                return self._label(self._character(state, character_id)[1])
            except GameError:
                return character_id

        if isinstance(action, PlayCharacter):
            who = (action.name or "").strip() or "a character"
            return (
                f"{action.player} played {who} (strength {action.strength} {action.colour} "
                f"{action.character_type}) on album {action.album}."
            )
        if isinstance(action, UsePotion):
            return f"{action.player} gave a Potion to {label(action.character)}."
        if isinstance(action, UseFish):
            return f"{action.player} K.O.'d {label(action.character)} with a Fish."
        if isinstance(action, UseBoar):
            try:
                knocked = self._character(state, action.character)[1]["knocked_out"]
            except GameError:
                knocked = False
            if knocked:
                return f"{action.player} reinvigorated {label(action.character)} with a Boar."
            return (
                f"{action.player} used a Boar to activate {label(action.character)}'s power again."
            )
        if isinstance(action, ReinforceHand):
            return f"{action.player} reinforced their hand."
        if isinstance(action, KnockOut):
            return f"A power K.O.'d {label(action.character)}."
        if isinstance(action, Reinvigorate):
            return f"A power reinvigorated {label(action.character)}."
        if isinstance(action, Eliminate):
            return f"A power eliminated {label(action.character)}."
        if isinstance(action, CallOn):
            return (
                f"{action.player} called {label(action.character)} on to their side of "
                f"album {action.album}."
            )
        if isinstance(action, GainHelmet):
            return f"{action.player} won a {action.helmet} helmet."
        if isinstance(action, GainBonus):
            return f"{action.player} won a {BONUS_LABELS[action.bonus]} token."
        if isinstance(action, DestroyHelmet):
            return f"{action.player} destroyed one of their {action.helmet} helmets."
        if isinstance(action, TakeConsolation):
            loser = (state["pending"] or {}).get("player", actor or "The host")
            return f"{loser} took a {BONUS_LABELS[action.bonus]} token as consolation."
        if isinstance(action, OrientAlbum):
            loser = (state["pending"] or {}).get("player", actor or "The host")
            return (
                f"{loser} revealed album {state['next_album']} and plays its "
                f"{FACTION_LABELS[action.faction]} side."
            )
        if isinstance(action, SetAlbumNote):
            note = (action.note or "").strip()
            if not note:
                return f"The note on album {action.album} was cleared."
            return f"Album {action.album} now reads: {note}"
        return super().describe(state, action, actor)

    def _describe_resolution(self, after: dict) -> str:
        last = after["last_resolution"]
        totals = last["totals"]
        won, lost = (
            totals[last["faction"]],
            totals["roman" if last["faction"] == "gaul" else "gaul"],
        )
        helmets = []
        for kind in ("centurion", "legionary"):
            count = last[f"{kind}_helmets"]
            if count:
                helmets.append(f"{count} {kind} helmet{'s' if count != 1 else ''}")
        gained = f" and {' and '.join(helmets)}" if helmets else ""
        sentence = (
            f"{last['winner']} took album {last['album']} ({won} to {lost}){gained}, "
            f"reaching {last['sesterces']} sesterces."
        )
        if after["finished"]:
            sentence += f" {last['winner']} wins the game!"
        return sentence

    def view(self, state: dict) -> dict:
        players = state["players"]
        albums = []
        for index, slot in enumerate(state["slots"]):
            sides = {}
            for faction in FACTIONS:
                sides[faction] = {
                    "player": slot[faction],
                    "total": self.faction_total(slot, faction),
                    "characters": [
                        self._character_view(state, slot, c)
                        for c in slot["characters"]
                        if c["faction"] == faction
                    ],
                }
                sides[faction]["to_win"] = max(ALBUM_TARGET - sides[faction]["total"], 0)
            albums.append(
                {
                    "slot": index,
                    "number": slot["album"],
                    "pair": slot["pair"],
                    "note": slot["note"],
                    "sides": sides,
                }
            )
        # Each player's two albums: the one to their left and the one to their right.
        count = len(players)
        seats = []
        for position, name in enumerate(players):
            facing = []
            for where, index in (("left", position), ("right", (position - 1) % count)):
                slot = state["slots"][index]
                faction = None
                if slot["album"] is not None:
                    faction = "gaul" if slot["gaul"] == name else "roman"
                facing.append(
                    {
                        "where": where,
                        "slot": index,
                        "album": slot["album"],
                        "faction": faction,
                        "opponent": next(p for p in slot["pair"] if p != name),
                    }
                )
            seats.append({"player": name, "albums": facing})
        ledger = {}
        for name in players:
            held = state["ledger"][name]
            album_count = len(held["albums"])
            ledger[name] = {
                "albums": list(held["albums"]),
                "album_sesterces": album_count * ALBUM_SESTERCES,
                "centurion_helmets": held["centurion_helmets"],
                "centurion_sesterces": held["centurion_helmets"] * CENTURION_HELMET_SESTERCES,
                "legionary_helmets": held["legionary_helmets"],
                "legionary_sesterces": held["legionary_helmets"] * LEGIONARY_HELMET_SESTERCES,
                "sesterces": self.sesterces_of(state, name),
                "to_go": max(WINNING_SESTERCES - self.sesterces_of(state, name), 0),
                "bonuses": dict(held["bonuses"]),
            }
        characters = [
            dict(c, album=slot["album"], counted=self.character_strength(c))
            for slot in state["slots"]
            for c in slot["characters"]
        ]
        pending = state["pending"]
        pending_view = None
        if pending:
            slot = state["slots"][pending["slot"]]
            pending_view = dict(
                pending,
                opponent=next(p for p in slot["pair"] if p != pending["player"]),
                album=state["next_album"],
            )
        return {
            "albums": albums,
            "seats": seats,
            "ledger": ledger,
            "stock": dict(state["stock"]),
            "turn": state["turn"],
            "pending": pending_view,
            "consolation_choices": (
                self.consolation_choices(state, pending["player"])
                if pending and pending["step"] == "consolation"
                else []
            ),
            "consolation": (
                self._consolation_view(state, pending["player"])
                if pending and pending["step"] == "consolation"
                else []
            ),
            "facing": {seat["player"]: seat["albums"] for seat in seats},
            # Nothing played and no album decided yet: the moment to show how the albums lie.
            "fresh": state["resolutions"] == 0 and not characters,
            "stock_set": any(left is not None for left in state["stock"].values()),
            "next_album": state["next_album"],
            "last_resolution": state["last_resolution"],
            "characters": characters,
            "visible": [c for c in characters if not c["knocked_out"]],
            "knocked_out": [c for c in characters if c["knocked_out"]],
            "album_target": ALBUM_TARGET,
            "winning_sesterces": WINNING_SESTERCES,
            "character_types": list(CHARACTER_TYPES),
            "colours": list(COLOURS),
            "bonus_labels": dict(BONUS_LABELS),
        }

    def _character_view(self, state: dict, slot: dict, character: dict) -> dict:
        """A character as the page shows it: what it counts and which one-tap moves fit it."""
        visible = not character["knocked_out"]
        unprotected = visible and not character["potion"]
        # Who could call it on, and to which album: a player's albums, unless it already
        # fights on that player's side.
        call_on_to = {}
        if unprotected:
            for name in state["players"]:
                if slot[character["faction"]] == name:
                    continue
                targets = [
                    other["album"]
                    for other in state["slots"]
                    if other["album"] is not None and name in other["pair"]
                ]
                if targets:
                    call_on_to[name] = targets
        return dict(
            character,
            counted=self.character_strength(character),
            moves={
                "potion": unprotected,
                "knock_out": unprotected,
                "reinvigorate": not visible,
                "eliminate": visible,
                "call_on": unprotected,
            },
            call_on_to=call_on_to,
        )

    def _consolation_view(self, state: dict, player: str) -> list[dict]:
        """Every bonus kind with what the loser holds and whether they may take one."""
        held = state["ledger"][player]["bonuses"]
        choices = self.consolation_choices(state, player)
        return [
            {
                "kind": kind,
                "label": BONUS_LABELS[kind],
                "held": held[kind],
                "allowed": kind in choices,
                "full": held[kind] >= MAX_SAME_BONUS,
                "stock": state["stock"][kind],
            }
            for kind in BONUS_KINDS
        ]
