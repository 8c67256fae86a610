"""Asterix & Co. through the JSON API and the table page: battles, payouts, refusals, the win."""

import gzip
import html
import re
from html.parser import HTMLParser

import pytest

from tests.conftest import ApiTable, bearer, payload_of
from tests.pages import region

GAME = "asterix-co"
DUO = ("Matthew", "Laura")
HELP_SECTIONS = (
    "turn", "setup", "albums", "play-character", "placement", "powers", "heroes",
    "bonus-tokens", "potion", "fish", "boar", "reinforce", "resolution", "helmets",
    "album-effects", "end-of-game", "call-on", "discard", "draw", "eliminate", "ko",
    "neutral", "reinvigorate", "strength",
)


def text(page: str) -> str:
    """What a player reads: the page without tags, whitespace squeezed."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def purse(ledger: str, name: str) -> str:
    """A player's line in the ledger: name, marks, sesterces and what is left to go."""
    return re.search(rf"{name}(?: \(you\))?(?: ▶ to play)? \d+ sesterces?( \d+ to go)?", ledger).group(0)


class Regions(HTMLParser):
    """Every live region of a page as {name: (hash, html)}, root tag to its matching end tag."""

    def __init__(self, page: str):
        super().__init__(convert_charrefs=False)
        self.page, self.found, self.root, self.depth = page, {}, None, 0
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", page)]
        self.feed(page)

    def position(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if self.root is None and "data-region" in attrs:
            self.root, self.depth = (tag, attrs["data-region"], attrs["data-hash"], self.position()), 1
        elif self.root is not None and tag == self.root[0]:
            self.depth += 1

    def handle_endtag(self, tag):
        if self.root is not None and tag == self.root[0]:
            self.depth -= 1
            if self.depth == 0:
                _tag, name, digest, start = self.root
                end = self.page.index(">", self.position()) + 1
                self.found[name] = (digest, self.page[start:end])
                self.root = None


def gzipped(fragment: str) -> int:
    return len(gzip.compress(fragment.encode(), compresslevel=6))


def moves_offered(page: str) -> dict[str, str]:
    """What each character's link on the albums says fits it now: {id: "move move ..."}."""
    return {found.group(1): found.group(2).strip() for found in re.finditer(
        r'data-ac-char="(c\d+)".*?data-moves="([^"]*)"', region(page, "albums"), re.S)}


def form_fields(page: str, action: str) -> list[list[str]]:
    """The names of the fields of every form that posts ``action``, form by form."""
    forms = re.findall(r"<form\b.*?</form>", page, re.S)
    return [re.findall(r'name="(\w+)"', form) for form in forms
            if f'name="type" value="{action}"' in form]


class Table(ApiTable):
    """A table started by a host phone, with an API token per seat; a seat in ``phones`` moves
    by its browser's taps instead."""

    def __init__(self, phone, client, players=DUO, **options):
        super().__init__(client, GAME, players, options, host=phone())
        self.phones = {}  # seats whose phone is a browser: their moves are its taps

    def move(self, action, /, by=None, **fields):
        if by in self.phones:
            response = self.phones[by].act(**payload_of(action, fields))
            assert response.status_code == 200, response.get_data(as_text=True)
            return self.snapshot()
        return super().move(action, by, **fields)

    def refused(self, action, /, by=None, **fields):
        if by in self.phones:
            response = self.phones[by].act(**payload_of(action, fields))
            assert response.status_code == 422, response.get_data(as_text=True)
            return response.get_data(as_text=True)
        return super().refused(action, by, **fields)

    def play(self, who, album, strength, character_type, colour, name=None, player=None):
        payload = dict(type="play_character", player=player or who, album=album, strength=strength,
                       character_type=character_type, colour=colour)
        if name:
            payload["name"] = name
        return self.move(payload, by=who)

    def passes(self, *players):
        """Turns taken by reinforcing the hand: nothing changes on the albums."""
        for who in players:
            snapshot = self.move("reinforce_hand", by=who, player=who)
        return snapshot

    def give_turn(self, who):
        """The host's correction: the turn passes to ``who`` (if it is not theirs already)."""
        if self.snapshot()["state"]["turn"] != who:
            response = self.host.act(type="hand_turn", player=who)
            assert response.status_code == 200, response.get_data(as_text=True)


@pytest.fixture
def table(phone, client):
    return lambda players=DUO, **options: Table(phone, client, players, **options)


def side_totals(snapshot, album):
    slot = next(s for s in snapshot["state"]["slots"] if s["album"] == album)
    totals = {"gaul": 0, "roman": 0}
    for c in slot["characters"]:
        if not c["knocked_out"]:
            totals[c["faction"]] += c["strength"] * (2 if c["potion"] else 1)
    return totals


def battle_example(t):
    """The rulebook's battle, move by move, up to the moment before the Potion on Asterix."""
    t.play("Matthew", 1, 3, "Chief", "Gaul", "Getafix")
    t.move("gain_bonus", by="Matthew", player="Matthew", bonus="potion")  # Getafix's power
    t.play("Laura", 1, 3, "Swindler", "Neutral", "Edifis")
    t.move("eliminate", by="Laura", character="c1")  # Edifis eliminates Getafix
    t.play("Matthew", 1, 4, "Rebel", "Gaul", "Dogmatix")
    t.move("gain_helmet", by="Matthew", player="Matthew", helmet="legionary")  # Dogmatix
    t.play("Laura", 1, 4, "Centurion", "Roman", "Crismus Bonus")
    t.play("Matthew", 1, 6, "Hero", "Gaul", "Asterix")
    t.move("knock_out", by="Matthew", character="c4")  # Asterix K.O.s Crismus Bonus
    t.play("Laura", 1, 3, "Swindler", "Roman", "Valueaddedtax")
    return t.move("reinvigorate", by="Laura", character="c4")  # Valueaddedtax


# -- point 1: setup --------------------------------------------------------------------------


def test_the_setup_form_offers_the_stock_counts_with_titles(phone):
    page = text(phone().get(f"/new/{GAME}").get_data(as_text=True))
    for title in ("Legionary helmets in the stockpile", "Centurion helmets in the stockpile",
                  "Potion tokens in the stockpile", "Fish tokens in the stockpile",
                  "Boar tokens in the stockpile"):
        assert title in page
    assert "Leave empty for unlimited" in page


def test_each_phone_sees_which_albums_face_it_and_which_side_it_plays(table, phone):
    t = table(("Ann", "Bob", "Cid"))
    bob = phone("10.0.0.3")
    bob.join(t.code, "Bob")
    albums = text(region(t.page(bob), "albums"))
    assert "Your albums, Bob" in albums
    # His two albums first (the one on his right, then on his left), each saying his side.
    assert albums.index("Album 1 Ann ⟷ Bob on your right: you play the R Roman side") < albums.index(
        "Album 2 Bob ⟷ Cid on your left: you play the G Gaul side") < albums.index("Album 3 Cid ⟷ Ann")
    # The layout as on the table, clockwise, folded under the albums.
    assert ("Ann Album 1 G Gaul side faces Ann R Roman side faces Bob Bob (you) Album 2 G Gaul side faces Bob "
            "R Roman side faces Cid Cid Album 3 G Gaul side faces Cid R Roman side faces Ann "
            "↺ back to Ann") in albums
    assert '<details class="ac-layout">' in t.page(bob)
    assert albums.index("Album 3 Cid ⟷ Ann") < albums.index("How the albums lie on the table")
    t.play("Ann", 1, 4, "Rebel", "Gaul")
    ledger = text(region(t.page(bob), "ledger"))
    assert purse(ledger, "Bob") == "Bob (you) ▶ to play 1 sesterce 49 to go"  # Ann has played
    assert "Potion 1" in ledger and "Fish 1" in ledger and "Boar 1" in ledger
    assert "Stockpile" not in ledger  # unlimited stocks are not shown


def test_the_page_renders_every_region_alone_for_live_updates(table):
    t = table()
    battle_example(t)
    response = t.host.get(f"/t/{t.code}/live?v=0", headers={"HX-Request": "true"})
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    for name in ("albums", "ledger", "resolution", "menus"):
        assert f'id="{name}" data-region="{name}"' in body
        assert re.search(rf'id="{name}" data-region="{name}" data-hash="[0-9a-f]+" hx-swap-oob="true"', body)
    assert "Crismus Bonus" in text(region(body, "albums"))


def test_every_control_has_its_rules_section_and_the_sections_exist(table, client):
    t = table()
    battle_example(t)
    linked = set(re.findall(rf'href="/rules/{GAME}#([a-z-]+)"', t.page()))
    t.move("use_potion", by="Matthew", player="Matthew", character="c5")  # the album falls
    linked |= set(re.findall(rf'href="/rules/{GAME}#([a-z-]+)"', t.page()))
    assert set(HELP_SECTIONS) <= linked
    for section in linked:
        assert client.get(f"/rules/{GAME}/{section}").status_code == 200, section


# -- point 2: album battles ----------------------------------------------------------------------


def test_battle_totals_and_needs_on_the_page(table):
    t = table()
    snapshot = battle_example(t)
    assert side_totals(snapshot, 1) == {"gaul": 10, "roman": 10}
    albums = text(region(t.page(), "albums"))
    assert "G Gaul side Matthew 10 /15" in albums
    assert "R Roman side Laura 10 /15" in albums
    assert albums.count("needs 5 more to take the album") == 2
    assert "Getafix" not in albums  # eliminated
    assert "Asterix 6 · Hero · G Gaul" in albums
    assert "Crismus Bonus 4 · Centurion · R Roman" in albums
    assert "Edifis 3 · Swindler · N Neutral" in albums


def test_potion_ko_reinvigorate_and_call_on_change_the_totals(table):
    t = table()
    t.play("Matthew", 1, 5, "Rebel", "Neutral", "Redbeard")
    t.play("Laura", 1, 4, "Legionary", "Roman")
    t.passes("Matthew")
    assert side_totals(t.move("use_potion", by="Laura", player="Laura", character="c2"), 1) == {
        "gaul": 5, "roman": 8}
    t.passes("Matthew")
    assert side_totals(t.move("use_fish", by="Laura", player="Laura", character="c1"), 1) == {
        "gaul": 0, "roman": 8}
    assert side_totals(t.move("use_boar", by="Matthew", player="Matthew", character="c1"), 1) == {
        "gaul": 5, "roman": 8}
    called = t.move("call_on", by="Laura", player="Laura", album=1, character="c1")
    assert side_totals(called, 1) == {"gaul": 0, "roman": 13}
    albums = text(region(t.page(), "albums"))
    assert "Redbeard 5 · Rebel · N Neutral · called on by Laura" in albums
    assert "R Roman side Laura 13 /15" in albums and "needs 2 more" in albums
    assert "🧪 Potion: 4×2" in albums
    ledger = text(region(t.page(), "ledger"))
    assert purse(ledger, "Laura") == "Laura ▶ to play 1 sesterce 49 to go"
    assert "Potion 0" in ledger and "Fish 0" in ledger


def test_every_one_tap_move_is_undone_by_undo(table, client):
    t = table()
    t.play("Matthew", 1, 6, "Hero", "Gaul", "Asterix")
    t.passes("Laura")
    moves = [
        dict(type="use_potion", player="Matthew", character="c1"),
        dict(type="eliminate", character="c1"),
    ]
    for move in moves:
        before = t.snapshot()["state"]
        t.move(move, by="Matthew")
        undone = t.undo("Laura")
        assert undone["state"] == before
    for move in (dict(type="knock_out", character="c1"),
                 dict(type="call_on", player="Laura", album=2, character="c1")):
        before = t.snapshot()["state"]
        t.move(move, by="Laura")
        undone = t.undo("Laura")
        assert undone["state"] == before


def test_a_character_played_from_the_page_form_arrives_as_strings(table):
    t = table()
    laura = t.host  # the host's phone enters for anyone at the table
    assert laura.act(type="reinforce_hand", player="Matthew").status_code == 200  # Laura's turn
    response = laura.act(type="play_character", player="Laura", album="2", strength="7",
                         character_type="Centurion", colour="Neutral", name="")
    assert response.status_code == 200
    character = t.snapshot()["state"]["slots"][1]["characters"][0]
    assert (character["strength"], character["name"], character["faction"]) == (7, None, "gaul")
    # Each side's "+ Play a character" names its album and player for the page's one play
    # dialog, which holds the fields of the action.
    page = t.page()
    sides = re.findall(r'data-ac-play data-album="(\d+)" data-faction="(\w+)" data-player="(\w+)"', page)
    assert sides == [("1", "gaul", "Matthew"), ("1", "roman", "Laura"),
                     ("2", "gaul", "Laura"), ("2", "roman", "Matthew")]
    [fields] = form_fields(page, "play_character")
    assert {"album", "player", "strength", "character_type", "colour", "name"} <= set(fields)
    assert 'name="strength" value="8"' in page and 'name="character_type" value="Diehard"' in page


def test_the_hero_rule_is_refused_with_its_message_on_the_page(table):
    t = table()
    t.play("Matthew", 1, 6, "Hero", "Gaul", "Asterix")
    response = t.host.act(type="play_character", player="Laura", album="2", strength="6",
                          character_type="Hero", colour="Gaul", name="asterix")
    assert response.status_code == 422
    assert response.get_data(as_text=True) == (
        "Asterix is already visible on album 1; an identical Hero cannot join while it is.")


def test_a_character_opens_one_shared_menu_that_offers_only_what_fits_it(table, phone):
    t = table()
    laura = phone("10.0.0.4")
    laura.join(t.code, "Laura")
    t.phones["Laura"] = laura  # Laura's phone holds her seat: her moves are its taps
    t.token("Matthew")  # and Matthew's seat is held (by the API)
    battle_in_progress(t)  # c1 Asterix with a Potion, c2 K.O.'d, c3 Redbeard on Laura's side
    page = t.page(laura)
    assert moves_offered(page) == {
        # The Potion protects it from K.O., Fish and Call On; the last visible one on
        # album 1, so a Boar may use its power again.
        "c1": "eliminate boar",
        "c2": "reinvigorate boar",  # K.O.'d: a Boar wakes it
        "c3": "potion knock_out eliminate boar",  # already on Laura's side: no Call On for her
    }
    # The host's phone has no seat: it may call Redbeard on for Matthew.
    assert moves_offered(t.page())["c3"] == "potion knock_out eliminate boar call_on"
    # Each move is one form for the whole page, whatever the number of characters.
    for move in ("use_potion", "use_fish", "use_boar", "knock_out", "reinvigorate", "eliminate",
                 "call_on"):
        [fields] = form_fields(page, move)
        assert "character" in fields
    menus = text(region(page, "menus"))
    assert "Call on to your side of album 1" in menus and "Call on to your side of album 2" in menus
    # A move the menu does not offer is still refused with its sentence if posted anyway.
    t.give_turn("Laura")
    response = laura.act(type="use_fish", player="Laura", character="c1")
    assert response.status_code == 422
    assert response.get_data(as_text=True) == "Asterix has a Potion and cannot be K.O.'d."
    assert laura.act(type="eliminate", character="c1").status_code == 200
    assert "c1" not in moves_offered(t.page(laura))


def long_battle(t):
    """Four players, 40 characters on the four albums, three K.O.'d and one with a Potion.

    Played in turn order from Dee's phone: each player in turn plays on the Gaul side of the
    album on their left, then on the Roman side of the album on their right."""
    players = t.snapshot()["state"]["players"]
    names = iter(["Asterix", "Obelix", "Getafix", "Cacofonix", "Vitalstatistix", "Fulliautomatix",
                  "Unhygienix", "Geriatrix", "Impedimenta", "Bacteria"] * 4)
    strengths = (2, 3, 2, 3, 4)  # 14 a side: no album falls
    for index in range(10):
        for position, player in enumerate(players):
            strength = strengths[index // 2]
            plain = (index // 2) % 2 == 0  # a faction colour, else a Neutral
            if index % 2 == 0:  # the Gaul side of the album on the player's left
                t.play("Dee", position + 1, strength, "Hero", "Gaul" if plain else "Neutral",
                       f"{next(names)} {position + 1}", player=player)
            else:  # the Roman side of the album on the player's right
                t.play("Dee", (position - 1) % 4 + 1, strength, "Legionary",
                       "Roman" if plain else "Neutral", player=player)
    slots = t.snapshot()["state"]["slots"]

    def nth(album, faction, index):
        return [c["id"] for c in slots[album - 1]["characters"] if c["faction"] == faction][index]

    for album, faction, index in ((1, "gaul", 1), (2, "roman", 1), (3, "gaul", 2)):
        t.move("knock_out", by="Dee", character=nth(album, faction, index))
    t.move("gain_bonus", by="Dee", player="Ann", bonus="potion")
    t.move("use_potion", by="Dee", player="Ann", character=nth(1, "gaul", 0))
    t.passes("Bob")  # Cid's turn
    state = t.snapshot()["state"]
    assert all(slot["album"] for slot in state["slots"]) and state["turn"] == "Cid"


def test_one_move_in_a_long_battle_sends_little(table, phone):
    """A move re-sends only the regions it changed, small even with 40 characters on the
    table: the controls are one shared copy, not repeated per character."""
    t = table(("Ann", "Bob", "Cid", "Dee"))
    ann = phone("10.0.0.5")
    ann.join(t.code, "Ann")
    long_battle(t)
    for viewer in (t.host, ann):  # the host (no seat: a "whose token?" choice) and a player
        page = t.page(viewer)
        assert gzipped(page) <= 15_000
        before = Regions(page).found
        t.play("Dee", 2, 2, "Legionary", "Roman", player="Cid")  # album 2: Roman side 11 -> 13
        after = Regions(t.page(viewer)).found
        changed = [name for name in after if after[name][0] != before[name][0]]
        assert "albums" in changed
        # The shared dialogs come again only to a seat whose turn moves now wait for someone
        # else (their forms say whose turn it is); the host's phone keeps its copy.
        assert ("menus" in changed) == (viewer is ann)
        # (the power panel of the character just played, under 1 kB, comes with each play)
        assert sum(gzipped(after[name][1]) for name in changed) <= 9_000
        t.undo("Dee")


# -- point 3: resolution -----------------------------------------------------------------------


def test_the_rulebook_battle_example_to_its_result(table, phone):
    t = table()
    laura = phone("10.0.0.4")
    laura.join(t.code, "Laura")
    t.phones["Laura"] = laura  # Laura's phone holds her seat: her moves are its taps
    t.token("Matthew")  # and Matthew's seat is held (by the API)
    battle_example(t)
    snapshot = t.move("use_potion", by="Matthew", player="Matthew", character="c5")
    last = snapshot["state"]["last_resolution"]
    assert last["totals"] == {"gaul": 16, "roman": 10}
    assert (last["winner"], last["loser"], last["centurion_helmets"], last["legionary_helmets"]) == (
        "Matthew", "Laura", 1, 0)
    assert snapshot["scores"] == {"Matthew": 20, "Laura": 1}
    assert snapshot["log"][0]["text"] == (
        "Matthew gave a Potion to Asterix. Matthew took album 1 (16 to 10) "
        "and 1 centurion helmet, reaching 20 sesterces.")

    # Every phone announces it at once, Laura's too.
    resolution = text(region(t.page(laura), "resolution"))
    assert "Album 1 falls!" in resolution
    assert "G Matthew's Gaul side reaches 16 against 10: Matthew takes album 1 (+15 sesterces)" in resolution
    assert "1 centurion helmet (+3)" in resolution
    assert "Matthew now has 20 sesterces" in resolution
    assert "Laura: pick a consolation bonus token" in resolution
    ledger = text(region(t.page(laura), "ledger"))
    # How it adds up, folded away under the scores.
    assert ("How the sesterces add up" in ledger and "Matthew: 20 sesterces Albums 1 × 15 = 15 (no. 1) "
            "Centurion helmets 1 × 3 = 3 Legionary helmets 2 × 1 = 2") in ledger
    assert purse(ledger, "Matthew") == "Matthew 20 sesterces 30 to go"

    # The loser takes a Potion, then reveals album 3 with its Gaul side towards her.
    t.move("take_consolation", by="Laura", bonus="potion")
    resolution = text(region(t.page(laura), "resolution"))
    assert "Laura took a 🧪 Potion token as consolation" in resolution
    assert "Laura reveals album 3: which side faces Laura?" in resolution
    assert "G Gaul side faces Laura Laura plays Gauls, Matthew plays Romans" in resolution
    snapshot = t.move("orient_album", by="Laura", faction="gaul", note="No Fish Bonus here")
    assert snapshot["state"]["ledger"]["Laura"]["bonuses"]["potion"] == 2
    assert snapshot["state"]["turn"] == "Laura"  # on the winner's left
    page = t.page(laura)
    assert "Laura's turn" in text(page)
    albums = text(region(page, "albums"))
    assert ("Album 3 Matthew ⟷ Laura on your right: you play the G Gaul side "
            "✎ Note album 3's effect Album effect: No Fish Bonus here") in albums
    assert "Last album: Matthew took album 1 (16 to 10); Laura took a Potion token." in text(region(
        page, "resolution"))


def test_helmets_are_paid_for_visible_legionaries_and_centurions(table):
    t = table()
    t.passes("Matthew")
    t.play("Laura", 1, 2, "Legionary", "Roman")
    t.passes("Matthew")
    t.play("Laura", 1, 3, "Centurion", "Roman")
    t.passes("Matthew")
    t.play("Laura", 1, 2, "Legionary", "Roman")
    t.move("end_power", by="Laura")  # her Legionary's power is done
    t.move("knock_out", by="Matthew", character="c3")  # a K.O.'d Legionary earns nothing
    t.play("Matthew", 1, 7, "Legionary", "Neutral")
    t.passes("Laura")
    snapshot = t.play("Matthew", 1, 8, "Centurion", "Gaul")
    last = snapshot["state"]["last_resolution"]
    assert (last["winner"], last["legionary_helmets"], last["centurion_helmets"]) == ("Matthew", 2, 2)
    assert snapshot["scores"]["Matthew"] == 15 + 2 * 3 + 3 * 1
    resolution = text(region(t.page(), "resolution"))
    assert "2 centurion helmets (+6) and 2 legionary helmets (+2)" in resolution
    assert ("K.O.'d characters go back to their owners' hands: "
            "the strength 2 Roman Legionary → Laura") in resolution


def test_consolation_refuses_a_third_copy_and_is_skipped_when_all_are_full(table):
    t = table()
    t.move("gain_bonus", by="Laura", player="Laura", bonus="boar")
    t.play("Matthew", 1, 8, "Rebel", "Gaul")
    t.passes("Laura")
    t.play("Matthew", 1, 8, "Diehard", "Gaul")
    assert t.refused("take_consolation", by="Laura", bonus="boar") == (
        "Laura already holds two Boar tokens; a third one is not allowed.")
    resolution = text(region(t.page(), "resolution"))
    assert "Boar Laura holds 2: no third" in resolution
    assert "Fish Laura holds 1" in resolution

    full = table()
    for kind in ("potion", "fish", "boar"):
        full.move("gain_bonus", by="Laura", player="Laura", bonus=kind)
    full.play("Matthew", 1, 8, "Rebel", "Gaul")
    full.passes("Laura")
    snapshot = full.play("Matthew", 1, 8, "Diehard", "Gaul")
    assert snapshot["state"]["pending"]["step"] == "orientation"
    assert "Laura reveals album 3" in text(region(full.page(), "resolution"))


# -- point 4: ledger moves ---------------------------------------------------------------------


def test_powers_and_caesars_cost_are_logged_ledger_moves(table):
    t = table()
    t.move("gain_helmet", by="Matthew", player="Matthew", helmet="centurion")
    t.move("gain_bonus", by="Matthew", player="Matthew", bonus="fish")
    snapshot = t.move("destroy_helmet", by="Matthew", player="Matthew", helmet="legionary")
    assert snapshot["scores"]["Matthew"] == 3
    assert [entry["text"] for entry in snapshot["log"][:3]] == [
        "Matthew destroyed one of their legionary helmets.",
        "Matthew won a Fish token.",
        "Matthew won a centurion helmet.",
    ]
    ledger = text(region(t.page(), "ledger"))
    assert purse(ledger, "Matthew") == "Matthew ▶ to play 3 sesterces 47 to go"
    assert "Centurion helmets 1 × 3 = 3 Legionary helmets 0 × 1 = 0" in ledger
    assert "Fish 2" in ledger
    # One shared dialog for the powers; each player's box opens it for that player.
    page = t.page()
    assert 'data-ac-powers="Matthew"' in page and 'data-ac-powers="Laura"' in page
    assert "Power, Caesar's cost or reinforce: Laura" in text(region(page, "ledger"))
    for move in ("gain_helmet", "gain_bonus", "destroy_helmet", "reinforce_hand"):
        [fields] = form_fields(page, move)  # one form, filled in for the player tapped
        assert "player" in fields


# -- point 5: the win ----------------------------------------------------------------------------


def three_albums_for_matthew(t):
    """Matthew takes three albums while Laura reinforces her hand: 50 sesterces."""
    t.play("Matthew", 1, 8, "Rebel", "Gaul")
    t.passes("Laura")
    t.play("Matthew", 1, 8, "Diehard", "Gaul")
    t.move("take_consolation", by="Laura", bonus="potion")
    t.move("orient_album", by="Laura", faction="roman")
    t.passes("Laura")
    t.play("Matthew", 2, 8, "Legionary", "Roman")
    t.passes("Laura")
    t.play("Matthew", 2, 7, "Centurion", "Roman")
    t.move("take_consolation", by="Laura", bonus="fish")
    t.move("orient_album", by="Laura", faction="roman")
    t.passes("Laura")
    t.play("Matthew", 3, 8, "Chief", "Gaul")
    t.passes("Laura")
    return t.play("Matthew", 3, 7, "Chief", "Gaul")


def test_fifty_sesterces_at_a_resolution_wins_with_the_breakdown_on_every_phone(table, phone):
    t = table()
    laura = phone("10.0.0.4")
    laura.join(t.code, "Laura")
    t.phones["Laura"] = laura  # Laura's phone holds her seat: her moves are its taps
    t.token("Matthew")  # and Matthew's seat is held (by the API)
    snapshot = three_albums_for_matthew(t)
    assert snapshot["finished"] is True and snapshot["winners"] == ["Matthew"]
    assert snapshot["scores"] == {"Matthew": 50, "Laura": 1}
    for viewer in (t.host, laura):
        page = t.page(viewer)
        assert "Matthew wins with 50 sesterces!" in text(page)
        resolution = text(region(page, "resolution"))
        assert "Game over" in resolution
        assert "Matthew reaches 50 sesterces and wins the game!" in resolution
        assert ("Matthew 50 3 albums × 15 = 45 1 centurion helmet × 3 = 3 "
                "2 legionary helmets × 1 = 2") in resolution  # a line each
        assert "Laura 1 0 albums × 15 = 0" in resolution
        assert 'name="type" value="play_character"' not in page  # nothing left to play
    assert t.refused("reinforce_hand", by="Laura", player="Laura") == (
        "The game is over; undo the last move to change it.")


# -- point 6: stocks -----------------------------------------------------------------------------


def test_stock_limits_refuse_an_empty_pile_and_show_what_is_left(table):
    t = table(legionary_helmets="1", centurion_helmets="0")
    snapshot = t.snapshot()
    assert snapshot["state"]["stock"]["legionary"] == 1
    t.move("gain_helmet", by="Matthew", player="Matthew", helmet="legionary")
    assert t.refused("gain_helmet", by="Laura", player="Laura", helmet="legionary") == (
        "The legionary helmet stockpile is empty.")
    assert t.refused("gain_helmet", by="Laura", player="Laura", helmet="centurion") == (
        "The centurion helmet stockpile is empty.")
    ledger = text(region(t.page(), "ledger"))
    assert ("Stockpile Legionary helmets: none left Centurion helmets: none left "
            "🧪 Potion tokens: no limit") in ledger
    # A won album pays only what the pile holds.
    t.play("Matthew", 2, 8, "Centurion", "Roman")
    t.passes("Laura")
    snapshot = t.play("Matthew", 2, 8, "Centurion", "Roman")
    assert snapshot["state"]["last_resolution"]["helmets_short"] == 2
    assert "2 more could not be paid: the stockpile ran out" in text(region(t.page(), "resolution"))


def test_bad_stock_counts_are_refused_at_setup(client):
    response = client.post("/api/tables", json={"game": GAME, "players": list(DUO),
                                                "options": {"fish_tokens": -2}})
    assert response.status_code == 422
    assert "fish_tokens" in response.get_json()["error"]


# -- point 7: album notes ----------------------------------------------------------------------


def test_an_album_note_shows_beside_the_album_and_can_be_cleared(table):
    t = table()
    t.move("set_album_note", by="Laura", album=2, note="At most 1 Neutral per player")
    albums = text(region(t.page(), "albums"))
    assert ("Album 2 Laura ⟷ Matthew ✎ Note album 2's effect "
            "Album effect: At most 1 Neutral per player") in albums
    t.move("set_album_note", by="Laura", album=2)
    assert "Album effect:" not in text(region(t.page(), "albums"))


# -- refusals -------------------------------------------------------------------------------------


def battle_in_progress(t):
    """c1 Asterix with a Potion (Matthew), c2 a K.O.'d Legionary and c3 Redbeard (Laura);
    Matthew's turn."""
    t.play("Matthew", 1, 6, "Hero", "Gaul", "Asterix")
    t.move("gain_bonus", by="Matthew", player="Matthew", bonus="potion")
    t.passes("Laura")
    t.move("use_potion", by="Matthew", player="Matthew", character="c1")
    t.move("gain_bonus", by="Matthew", player="Matthew", bonus="potion")
    t.play("Laura", 1, 4, "Legionary", "Roman")
    t.move("use_fish", by="Matthew", player="Matthew", character="c2")
    t.play("Laura", 2, 5, "Rebel", "Neutral", "Redbeard")


TURN_MOVES = ("play_character", "use_potion", "use_fish", "use_boar", "reinforce_hand")


@pytest.mark.parametrize(("payload", "message"), [
    (dict(type="play_character", player="Laura", album=1, strength=4, character_type="Rebel",
          colour="Gaul"),
     "A Gaul character goes on a Gaul side, and Laura plays the Roman side of album 1."),
    (dict(type="play_character", player="Matthew", album=1, strength=4, character_type="Legionary",
          colour="Roman"),
     "A Roman character goes on a Roman side, and Matthew plays the Gaul side of album 1."),
    (dict(type="play_character", player="Matthew", album=9, strength=4, character_type="Rebel",
          colour="Gaul"), "There is no album 9 on the table."),
    (dict(type="play_character", player="Zoe", album=1, strength=4, character_type="Rebel",
          colour="Gaul"), "It is Matthew's turn."),  # the turn is checked before the name
    (dict(type="play_character", player="Laura", album=2, strength=6, character_type="Hero",
          colour="Gaul", name="Asterix"),
     "Asterix is already visible on album 1; an identical Hero cannot join while it is."),
    (dict(type="play_character", player="Laura", album=2, strength=9, character_type="Rebel",
          colour="Gaul"), "strength"),
    (dict(type="use_potion", player="Matthew", character="c9"),
     "There is no character 'c9' on an album right now."),
    (dict(type="use_potion", player="Matthew", character="c1"),
     "Asterix already has a Potion; one is the most."),
    (dict(type="use_potion", player="Laura", character="c2"),
     "The strength 4 Roman Legionary is K.O.'d; it must be reinvigorated before it can take a Potion."),
    (dict(type="use_fish", player="Laura", character="c1"), "Asterix has a Potion and cannot be K.O.'d."),
    (dict(type="use_fish", player="Matthew", character="c3"), "Matthew has no Fish token to use."),
    (dict(type="knock_out", character="c2"), "The strength 4 Roman Legionary is already K.O.'d."),
    (dict(type="reinvigorate", character="c1"), "Asterix is not K.O.'d, so it cannot be reinvigorated."),
    (dict(type="eliminate", character="c2"),
     "Only a visible character can be eliminated, and the strength 4 Roman Legionary is K.O.'d."),
    (dict(type="call_on", player="Laura", album=1, character="c1"),
     "Asterix has a Potion and cannot be called on."),
    (dict(type="call_on", player="Matthew", album=1, character="c2"),
     "Only a visible character can be called on, and the strength 4 Roman Legionary is K.O.'d."),
    (dict(type="call_on", player="Laura", album=2, character="c3"),
     "Redbeard already fights for Laura on album 2."),
    (dict(type="gain_bonus", player="Matthew", bonus="potion"),
     "Matthew already holds two Potion tokens; a third one is not allowed."),
    (dict(type="destroy_helmet", player="Matthew", helmet="centurion"),
     "Matthew has no centurion helmet to destroy."),
    (dict(type="set_album_note", album=5, note="x"), "There is no album 5 on the table."),
    (dict(type="take_consolation", bonus="boar"),
     "Not now: Matthew plays a character, uses a bonus token or reinforces their hand."),
    (dict(type="orient_album", faction="gaul"),
     "Not now: Matthew plays a character, uses a bonus token or reinforces their hand."),
    (dict(type="orient_album", faction="pirate"), "faction"),
])
def test_every_refusal_is_a_422_with_its_sentence_and_changes_nothing(table, payload, message):
    t = table()
    battle_in_progress(t)
    if payload["type"] in TURN_MOVES and payload.get("player") in DUO:
        t.give_turn(payload["player"])  # so that the rule itself answers
    before = t.snapshot()
    error = t.refused(payload, by="Laura")
    assert message in error
    assert error.endswith(".")
    after = t.snapshot()
    assert (after["state"], after["version"]) == (before["state"], before["version"])


def test_moves_wait_while_the_loser_chooses(table):
    t = table()
    t.play("Matthew", 1, 8, "Rebel", "Gaul")
    t.passes("Laura")
    t.play("Matthew", 1, 8, "Diehard", "Gaul")
    assert t.refused("play_character", by="Laura", player="Laura", album=2, strength=4,
                     character_type="Rebel", colour="Gaul") == (
        "Not now: Laura picks a consolation bonus token.")
    t.move("take_consolation", by="Laura", bonus="fish")
    assert t.refused("take_consolation", by="Laura", bonus="boar") == (
        "Not now: Laura reveals the next album and picks the side that faces them.")


def test_a_watcher_cannot_play(table, client):
    t = table()
    watcher = client.post(f"/api/tables/{t.code}/join", json={"watch": True}).get_json()["token"]
    response = client.post(f"/api/tables/{t.code}/actions", headers=bearer(watcher),
                           json={"type": "reinforce_hand", "player": "Laura"})
    assert response.status_code == 403


def test_a_watcher_is_shown_the_albums_with_nothing_to_tap(table, phone):
    t = table()
    battle_example(t)
    watcher = phone("10.0.0.4")
    watcher.join(t.code)
    page = t.page(watcher)
    assert "Crismus Bonus" in text(region(page, "albums"))  # the characters are shown
    for opener in ("data-ac-play ", "data-ac-char=", "data-ac-note ", "data-ac-powers=", "ac-add"):
        assert opener not in page, opener
    assert "data-ac-play " in t.page()  # the host's phone plays
    # Why a watcher's page has no move buttons is said once, at the top.
    assert "You are watching: the players' phones make the moves" in text(page)


# -- the turn and the page's controls -------------------------------------------------------------


def controls(page: str) -> dict[str, str | None]:
    """Every action form of the page: None when it can be sent, else the reason shown."""
    found = {}
    for kind, body in re.findall(r'<form\b[^>]*data-action="(\w+)"[^>]*>(.*?)</form>', page, re.S):
        why = re.search(r'<p class="why-not">(.*?)</p>', body, re.S)
        assert ("<fieldset disabled>" in body) == bool(why), kind
        found[kind] = html.unescape(why.group(1)) if why else None
    return found


def legal_for(t, seat):
    from companion.games import get_game

    return get_game(GAME).legal_actions(t.snapshot()["state"], seat)


def test_a_control_is_disabled_with_its_reason_exactly_when_the_rules_refuse_it(table, phone):
    t = table()
    laura = phone("10.0.0.4")
    laura.join(t.code, "Laura")
    t.phones["Laura"] = laura  # Laura's phone holds her seat: her moves are its taps
    t.token("Matthew")  # and Matthew's seat is held (by the API)

    def check(expected_disabled):
        shown = controls(t.page(laura))
        legal = legal_for(t, "Laura")
        assert {kind for kind in shown} <= set(legal)
        for kind, why in shown.items():
            assert why == legal[kind], kind
        assert {kind for kind, why in shown.items() if why} >= expected_disabled
        return shown

    # Matthew's turn: Laura's turn moves wait, with whose turn it is; a power does not.
    shown = check({"play_character", "reinforce_hand"})
    assert shown["play_character"] == "It is Matthew's turn."
    assert shown["gain_bonus"] is None and shown["set_album_note"] is None
    assert "It is Matthew's turn." in text(region(t.page(laura), "menus"))
    # Her turn now: she may play; a Fish has a target, the Boar too (c1 faces her).
    t.play("Matthew", 1, 6, "Hero", "Gaul", "Asterix")
    shown = check(set())
    assert shown["play_character"] is None and shown["use_fish"] is None
    assert shown["use_boar"] is None and shown["reinforce_hand"] is None
    # An album falls: the loser's choice is the one thing to do; the rest says so.
    t.passes("Laura")
    t.play("Matthew", 1, 8, "Rebel", "Gaul")
    t.passes("Laura")
    t.play("Matthew", 1, 2, "Rebel", "Gaul")
    shown = check({"play_character"})
    assert shown["take_consolation"] is None
    assert shown["play_character"] == "Not now: Laura picks a consolation bonus token."
    assert "hand_turn" not in shown  # the host's correction is only on the host's phone


def test_a_seated_phone_cannot_play_for_another_player_on_someone_elses_turn(table, phone):
    t = table(("Ann", "Bob", "Cid"))
    cid = phone("10.0.0.5")
    cid.join(t.code, "Cid")
    t.phones["Cid"] = cid  # Cid's phone holds her seat: her moves are its taps
    t.token("Ann")  # and Ann's seat is held (by the API)
    t.play("Ann", 1, 4, "Rebel", "Gaul")  # Bob's turn
    response = cid.act(type="play_character", player="Cid", album="2", strength="5",
                       character_type="Legionary", colour="Roman")
    assert (response.status_code, response.get_data(as_text=True)) == (422, "It is Bob's turn.")
    assert t.refused("use_fish", by="Cid", player="Cid", character="c1") == "It is Bob's turn."
    assert t.snapshot()["state"]["turn"] == "Bob"  # nobody skipped
    # Bob plays (here from his own token): the turn goes on to Cid, and Cid's phone may play.
    t.play("Bob", 2, 4, "Rebel", "Gaul")
    response = cid.act(type="play_character", player="Cid", album="2", strength="5",
                       character_type="Legionary", colour="Roman")
    assert response.status_code == 200
    assert t.snapshot()["state"]["turn"] == "Ann"
    # A seated phone shows "+ Play" on its own sides only, disabled with the reason while it
    # is someone else's turn; the host's phone on every side.
    albums = region(t.page(cid), "albums")
    assert len(re.findall(r"data-ac-play ", albums)) == 0
    waiting = re.findall(r'<button type="button" class="ac-add ac-add-waiting" disabled>(.*?)</button>', albums, re.S)
    assert [text(button).strip() for button in waiting] == ["+ Play a character It is Ann's turn."] * 2
    assert len(re.findall(r"data-ac-play ", t.page())) == 6
    t.play("Ann", 1, 4, "Rebel", "Gaul")  # Bob's turn
    t.play("Bob", 2, 4, "Rebel", "Gaul")  # Cid's turn: her two sides open their dialog
    assert len(re.findall(r"data-ac-play ", region(t.page(cid), "albums"))) == 2


def test_a_seated_phone_enters_the_move_of_a_player_without_a_phone(table, phone):
    """Only Cid has a phone: on Ann's turn Cid's phone offers Ann's move (her sides, her tokens),
    checked by the same table of moves, and its own sides wait with the reason."""
    t = table(("Ann", "Bob", "Cid"))
    cid = phone("10.0.0.5")
    cid.join(t.code, "Cid")
    page = t.page(cid)
    albums = region(page, "albums")
    offered = re.findall(r'data-ac-play data-album="(\d+)" data-faction="(\w+)" data-player="(\w+)"', albums)
    assert sorted(offered) == [("1", "gaul", "Ann"), ("3", "roman", "Ann")]
    assert "Ann's turn: Ann has no phone, enter the move here" in text(albums)
    waiting = re.findall(r'<button type="button" class="ac-add ac-add-waiting" disabled>(.*?)</button>', albums, re.S)
    assert [text(button).strip() for button in waiting] == ["+ Play a character It is Ann's turn."] * 2
    # The shared dialogs: open for Ann's move, her tokens; Call On for Cid or for Ann.
    shown = controls(region(page, "menus"))
    assert shown["play_character"] is None and shown["reinforce_hand"] is None
    potion = [form for form in re.findall(r"<form\b.*?</form>", page, re.S) if 'value="use_potion"' in form]
    assert len(potion) == 1 and 'name="player" value="Ann"' in potion[0]
    menus = text(region(page, "menus"))
    assert "Call on to your side of album 2" in menus and "Call on to Ann's side of album 1" in menus
    response = cid.act(type="play_character", player="Ann", album="1", strength="5",
                       character_type="Rebel", colour="Gaul")
    assert response.status_code == 200
    assert t.snapshot()["state"]["turn"] == "Bob"
    # Once Bob has a phone, his moves are his phone's: Cid's phone waits.
    bob = phone("10.0.0.6")
    bob.join(t.code, "Bob")
    albums = region(t.page(cid), "albums")
    assert "data-ac-play " not in albums and "Bob has no phone" not in text(albums)
    assert controls(region(t.page(cid), "menus"))["play_character"] == "It is Bob's turn."


def test_the_host_hands_the_turn_on_logged_and_undone_and_nobody_else_may(table, phone):
    t = table(("Ann", "Bob", "Cid"))
    bob = phone("10.0.0.3")
    bob.join(t.code, "Bob")
    ledger = region(t.page(), "ledger")
    [fields] = form_fields(ledger, "hand_turn")
    assert "player" in fields
    assert "Host: hand the turn to" in text(ledger)
    assert re.findall(r"<option>(\w+)</option>", ledger) == ["Bob", "Cid"]  # not Ann: hers now
    assert form_fields(t.page(bob), "hand_turn") == []  # only the host's phone offers it

    response = bob.act(type="hand_turn", player="Bob")
    assert response.status_code == 403
    assert response.get_data(as_text=True) == "Only the host hands the turn to another player."
    assert t.snapshot()["state"]["turn"] == "Ann"

    response = t.host.act(type="hand_turn", player="Cid")
    assert response.status_code == 200
    snapshot = t.snapshot()
    assert snapshot["state"]["turn"] == "Cid"
    assert snapshot["log"][0]["text"] == "The host handed the turn to Cid."
    assert purse(text(region(t.page(bob), "ledger")), "Cid") == "Cid ▶ to play 1 sesterce 49 to go"
    assert "Cid's turn" in text(region(t.page(bob), "status"))

    undone = t.host.post(f"/t/{t.code}/undo", {"expected_version": t.host.version()}, htmx=True)
    assert undone.status_code == 200
    assert t.snapshot()["state"]["turn"] == "Ann"


# -- both languages: each phone reads the table in its own --------------------------------------


def german(phone):
    """A phone that chose German in the top bar."""
    phone.post("/language", {"lang": "de", "next": "/"})
    return phone


def attribute_texts(page: str) -> str:
    """The words a phone shows from attributes: tooltips, screen-reader labels, placeholders
    and the sentences the script writes into the dialogs."""
    found = re.findall(r'(?:title|aria-label|placeholder|data-[a-z-]*-text|data-side-[a-z]+)="([^"]*)"',
                       page)
    return " ".join(html.unescape(value) for value in found)


def german_battle(table, phone):
    """The rulebook's battle, a nameless Roman on album 2, then Asterix's Potion decides album 1:
    Laura's phone reads German, the host's English."""
    t = table()
    laura = german(phone("10.0.0.7"))
    laura.join(t.code, "Laura")
    t.phones["Laura"] = laura  # Laura's phone holds her seat: her moves are its taps
    t.token("Matthew")  # and Matthew's seat is held (by the API)
    battle_example(t)
    t.play("Matthew", 2, 5, "Diehard", "Roman")  # c7, no name
    t.give_turn("Matthew")
    t.move("use_potion", by="Matthew", player="Matthew", character="c5")  # album 1 falls
    return t, laura


def test_a_german_phone_reads_the_board_log_and_refusals_in_german(table, phone):
    t, laura = german_battle(table, phone)
    page = t.page(laura)
    albums, ledger = text(region(page, "albums")), text(region(page, "ledger"))
    resolution, status = text(region(page, "resolution")), text(region(page, "status"))
    # The board, in the German words of the rules text.
    assert "Deine Alben, Laura" in albums
    assert "links von dir: du spielst die G Gallierseite" in albums
    assert "R Römerseite Matthew 5 /15 noch 10 nötig für das Album" in albums
    assert "Ohne Namen 5 · Unbeugsamer · R Römer · c7" in albums
    assert "Zwischen Matthew und Laura" in albums
    assert "Laura (du) ▶ am Zug 1 Sesterz noch 49" in ledger and "Matthew 20 Sesterzen noch 30" in ledger
    assert "🧪 Zaubertrank 1 🐟 Fisch 1 🐗 Wildschwein 1" in ledger
    assert "Zenturiohelme 1 × 3 = 3 Legionärshelme 2 × 1 = 2" in ledger
    assert "Album 1 ist entschieden!" in resolution
    assert ("G Die Gallierseite von Matthew erreicht 16 gegen 10: Matthew holt Album 1 "
            "(+15 Sesterzen).") in resolution
    assert "Helme für die sichtbaren Legionäre und Zenturios: 1 Zenturiohelm (+3)." in resolution
    assert "Laura: Bonusplättchen als Trost wählen" in resolution
    assert "🐗 Wildschwein Laura hat 1" in resolution
    assert "Matthew holt Album 1 · Laura wählt ein Bonusplättchen als Trost." in status
    # A refusal the page shows before anyone taps: the legal-moves table, in German.
    assert "Jetzt nicht: Laura wählt ein Bonusplättchen als Trost." in albums
    # The script's sentences for the dialogs come from the page, in German.
    menus = region(page, "menus")
    assert 'data-album-text="Album {album} · {side}"' in menus
    assert 'data-side-gaul="Gallierseite" data-side-roman="Römerseite"' in menus
    assert 'data-album-text="Der Effekt von Album {album}"' in menus

    # One log entry, each phone in its own language.
    english_play = "Matthew played a character (strength 5 Roman Diehard) on album 2."
    german_play = "Matthew spielt eine Figur (Unbeugsamer, Römer, Stärke 5) an Album 2 aus."
    english_fall = ("Matthew gave a Potion to Asterix. Matthew took album 1 (16 to 10) and "
                    "1 centurion helmet, reaching 20 sesterces.")
    german_fall = ("Matthew gibt Asterix einen Zaubertrank. Matthew holt Album 1 (16 zu 10) "
                   "plus 1 Zenturiohelm; jetzt 20 Sesterzen.")
    assert t.snapshot()["log"][0]["text"] == english_fall  # the API keeps the English
    history = text(region(page, "history"))
    assert german_fall in history and german_play in history and english_play not in history
    assert f"Zuletzt: {german_fall}" in text(region(page, "lastmove"))
    host_page = t.page()
    assert english_fall in text(region(host_page, "history")) and german_fall not in text(host_page)
    assert english_play in text(region(host_page, "history"))
    assert "Album 1 falls!" in text(region(host_page, "resolution"))

    # A move refused by the rules: the same reason in each phone's language.
    assert laura.act(type="take_consolation", bonus="boar").status_code == 200
    response = laura.act(type="take_consolation", bonus="boar")
    assert response.status_code == 422
    assert response.get_data(as_text=True) == (
        "Jetzt nicht: Laura deckt das nächste Album auf und wählt die eigene Seite.")
    assert laura.act(type="orient_album", faction="roman").status_code == 200
    assert laura.act(type="use_fish", player="Laura", character="c7").status_code == 200
    t.play("Matthew", 3, 2, "Rebel", "Gaul")
    t.move("end_power", by="Matthew")  # no power waits: a K.O. is anyone's correction
    for who, expected in (
        (laura, "Unbeugsamer (Römer, Stärke 5) ist schon k.o."),
        (t.host, "The strength 5 Roman Diehard is already K.O.'d."),
    ):
        response = who.act(type="knock_out", character="c7")
        assert response.status_code == 422
        assert response.get_data(as_text=True) == expected


# English words this part translated: none may be left on a German phone's table page.
ENGLISH_WORDS = (
    "Gaul", "Gauls", "Roman", "Romans", "side", "sesterce", "sesterces", "Sesterces", "Potion",
    "Fish", "Boar", "token", "tokens", "Hero", "Heroes", "Centurion", "Legionary", "Swindler",
    "Diehard", "Chief", "Rebel", "helmet", "helmets", "Helmets", "albums", "album",  # German "eines Albums" is German
    "Your", "your", "needs", "more", "Play", "play", "plays", "Close", "Note", "Stockpile",
    "stockpile", "Reinvigorate", "Eliminate", "Call", "to go", "turn", "Moves", "Whose",
    "Strength", "Colour", "Type", "Latest", "Between", "took", "takes", "reveals",
    "picks", "holds", "Bonus tokens", "consolation", "Undo", "the player", "The player", "power",
    "Power", "Caesar's", "reinforce", "reinforces", "Discard", "Draw", "optional",
    "e.g.", "face down", "counts", "called on", "No name", "Save", "effect", "Clockwise",
    "How", "Host", "Hand over", "wins", "Game over", "Everyone", "you", "K.O.", "K.O.'d",
)


def leftover_english(words: str) -> list[str]:
    return [word for word in ENGLISH_WORDS if re.search(rf"(?<![\w.]){re.escape(word)}(?![\w'])", words)]


def test_no_english_is_left_on_a_german_phone(table, phone):
    t, laura = german_battle(table, phone)
    pages = [t.page(laura)]
    laura.act(type="take_consolation", bonus="fish")
    pages.append(t.page(laura))  # the loser turns the new album
    laura.act(type="orient_album", faction="gaul", note="Kein Fisch")
    pages.append(t.page(laura))  # the quiet line after the fall
    finished = table()
    three_albums_for_matthew(finished)
    pages.append(finished.page(german(finished.host)))  # the end and everyone's sesterces
    for page in pages:
        words = " ".join(text(region(page, name)) for name in (
            "status", "albums", "ledger", "resolution", "menus"))
        for name in ("albums", "ledger", "resolution", "menus"):
            words += " " + re.sub(r"\{\w+\}", " ", attribute_texts(region(page, name)))
        assert leftover_english(words) == [], words
    # The new-table form's options, in German too.
    setup = text(german(phone("10.0.0.8")).get(f"/new/{GAME}").get_data(as_text=True))
    assert "Wildschweinplättchen im Vorrat" in setup and "Leer lassen für unbegrenzt" in setup
    assert "Boar tokens in the stockpile" not in setup


# -- issue 39: a player's choice is made on that player's phone ---------------------------------

GERMAN = {"Accept-Language": "de-DE,de;q=0.9"}


def german_page(t, who) -> str:
    response = who.get(f"/t/{t.code}", headers=GERMAN)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def coach_say(page: str) -> str:
    return text(re.search(r'<p class="coach-say"[^>]*>(.*?)</p>', page, re.S).group(1)).strip()


def test_a_players_choice_is_theirs_and_every_other_phone_says_whose_it_is(table, phone):
    t = table(coach="1")
    matthew, laura = phone("10.0.0.3"), phone("10.0.0.4")
    matthew.join(t.code, "Matthew")
    laura.join(t.code, "Laura")
    t.phones.update(Matthew=matthew, Laura=laura)

    # Matthew's character: its power is his to enter, and the card tells him where.
    t.play("Matthew", 1, 6, "Hero", "Gaul", "Asterix")
    mine, theirs = german_page(t, matthew), german_page(t, laura)
    assert controls(mine)["end_power"] is None and controls(mine)["knock_out"] is None
    whose = "Matthew trägt die Fähigkeit von Asterix auf dem eigenen Handy ein oder auf dem des Gastgebers."
    assert "end_power" not in controls(theirs) and controls(theirs)["gain_helmet"] == whose
    assert whose in text(region(theirs, "resolution"))  # in one line, where the quiet line stands
    assert "Matthew hat Asterix gespielt: die Fähigkeit" in text(region(mine, "resolution"))
    assert coach_say(mine).startswith("Matthew: trag jetzt die Fähigkeit von Asterix ein.")
    shown = re.sub(r'<span class="ac-nojs">.*?</span>', "", region(mine, "albums"))
    assert re.search(r"\bc\d+\b", text(shown)) is None  # no internal id (but without script)
    assert t.refused("gain_helmet", by="Laura", player="Laura", helmet="legionary") == (
        "Matthew enters the power of Asterix on their own phone or the host's.")
    assert controls(theirs)["play_character"] is None  # Laura may still make her turn
    t.move("end_power", by="Matthew")
    assert coach_say(german_page(t, laura)).startswith("Laura: du bist dran.")

    # Laura loses album 1: its consolation and the new album's side are hers.
    t.passes("Laura")
    t.play("Matthew", 1, 8, "Rebel", "Gaul")
    t.passes("Laura")
    t.play("Matthew", 1, 2, "Rebel", "Gaul")
    mine, theirs = german_page(t, laura), german_page(t, matthew)
    assert controls(mine)["take_consolation"] is None
    whose = "Das Trostplättchen wählt Laura selbst, auf dem eigenen Handy oder dem des Gastgebers."
    assert controls(theirs)["take_consolation"] == whose and whose in text(region(theirs, "resolution"))
    assert coach_say(theirs).startswith("Laura: du hast Album 1 verloren.")
    assert t.refused("take_consolation", by="Matthew", bonus="fish") == (
        "The consolation token is Laura's choice: Laura takes it on their own phone or the host's.")
    t.move("take_consolation", by="Laura", bonus="fish")
    whose = "Die Seite des neuen Albums wählt Laura selbst, auf dem eigenen Handy oder dem des Gastgebers."
    assert controls(german_page(t, matthew))["orient_album"] == whose
    assert t.refused("orient_album", by="Matthew", faction="gaul").startswith(
        "The side of the new album is Laura's choice")
    # The host's phone (no seat) may make it for her.
    assert t.host.act(type="orient_album", faction="roman").status_code == 200


def test_a_seated_host_may_make_another_players_choice(phone):
    host, laura = phone(), phone("10.0.0.4")
    code = host.start(game=GAME, players=DUO, me="0")  # the host sits as Matthew
    laura.join(code, "Laura")
    assert host.act(type="play_character", player="Matthew", album=1, strength=8,
                    character_type="Rebel", colour="Gaul").status_code == 200
    assert laura.act(type="end_power").status_code == 422  # Matthew's, not hers
    assert laura.act(type="reinforce_hand", player="Laura").status_code == 200
    assert host.act(type="play_character", player="Matthew", album=1, strength=8,
                    character_type="Diehard", colour="Gaul").status_code == 200
    page = host.get(f"/t/{code}").get_data(as_text=True)
    assert controls(page)["take_consolation"] is None
    assert host.act(type="take_consolation", bonus="potion").status_code == 200
    assert host.snapshot()["state"]["ledger"]["Laura"]["bonuses"]["potion"] == 2
