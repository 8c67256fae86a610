"""A newcomer robot: a family that trusts the coach ("Our first game") and nothing else.

Two German phones sit at a coached table beside a simulated physical game (a ``Physical``:
shuffled decks, dice, a seed). At every step the robot reads the coach card as the phones show
it, finds the phone of the player the card names (the host's for the whole table), and has the
simulated table decide what that player does with what the card marks there: which marked form,
which values the physical game shows. It fails where a family following the card would be lost:
the card marks nothing on the acting phone, the server refuses what it marked, or the game
stalls; at the end the companion's scores must equal the simulated table's own count.

The same steps run over HTTP (``HttpPhone``: the Flask test client, reading the pages as a
browser gets them) and in Chromium (``BrowserPhone``: what coach.js really marks, opened and
tapped by hand, one seed per game)."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field

from lxml.html import HtmlElement, document_fromstring, fromstring

from tests.conftest import Phone

GERMAN = {"Accept-Language": "de-DE,de;q=0.9"}


def over_http(seeds: list, long_only) -> list:
    """A game's seeds played over HTTP by `make test`: all but ``long_only`` (the one its
    browser test plays too, or one much like another), so that with the browser's each game
    plays five; `make test-long` (LONG_ROBOTS=1) plays every one."""
    return [seed for seed in seeds if os.environ.get("LONG_ROBOTS") or seed != long_only]


class Lost(AssertionError):
    """Where a family following the coach would be lost; says what the card said."""


@dataclass(frozen=True)
class Button:
    name: str | None
    value: str | None
    text: str


@dataclass
class Form:
    """One action form of a phone's page (``form[data-action]``), as the page offers it."""

    action: str
    url: str
    index: int  # among the page's forms of this action, in page order
    fields: dict[str, str]  # what the form would send untouched (hidden and prefilled fields)
    offered: dict[str, list[str]]  # the values a select, a radio group or a checkbox offers
    buttons: list[Button]  # its submit buttons
    text: str  # what it says, for choosing by label
    enabled: bool  # its controls are not disabled (the seat may use it now)
    folded: bool  # inside a closed <details> or <dialog>
    classes: tuple[str, ...] = ()  # its class names, e.g. "score-entry"


@dataclass
class Card:
    """The coach card as a phone shows it."""

    control: str | None  # the action type the card marks
    player: str | None  # who acts now (None: the whole table or the host)
    say: str  # the card's sentence(s), as shown on this phone
    text: str  # everything the card says

    def names(self, words: str) -> bool:
        return words.casefold() in self.text.casefold()


@dataclass
class Page:
    """A phone's table page as it stands: the card, every action form, the document."""

    card: Card | None
    forms: list[Form]
    root: HtmlElement  # the document, for what a game's robot reads beyond the forms


@dataclass
class Tap:
    """What a player does on their phone: a form, the values they enter, the button."""

    form: Form
    values: dict[str, str | list[str]] = field(default_factory=dict)
    button: Button | None = None
    opener: str | None = None  # a CSS selector to tap first when the form is folded (a cell)


@dataclass
class Turn:
    """One player's moment: the card as their phone shows it, what it marks there, and every
    form their phone offers now (for a step the card names in words, like "Finish the game")."""

    card: Card
    seat: str
    marked: list[Form]
    forms: list[Form]
    page: Page

    def named(self, action: str) -> Form:
        """The enabled form of ``action`` whose button the card names in words."""
        for form in self.forms:
            if form.action == action and form.enabled and any(
                    button.text and self.card.names(button.text) for button in form.buttons):
                return form
        raise Lost(f"the card does not say how to {action}: {self.card.text!r}")


class Physical:
    """The simulated physical game beside the phones. A game's robot subclasses it."""

    game: str = ""
    players: tuple[str, ...] = ()
    phones: tuple[str, ...] = ()  # the players with a phone; the first is the host's
    options: dict[str, str] = {}  # set-up form fields

    def tap(self, turn: Turn) -> Tap:
        """What the player at ``turn.seat`` does now, having read the card: one of the marked
        forms (or one the card names in words), filled from the physical game, which this
        call also plays on. Raise ``Lost`` when the card asks what the table cannot do."""
        raise NotImplementedError

    def actor(self, card: Card) -> str | None:
        """Who acts when the card speaks to the whole table (None: the host)."""
        return None

    def choice_of(self, card: Card) -> str | None:
        """Whose own choice the card's control is (None: not one player's): no other phone
        but that player's and the host's may show it marked."""
        return None

    def over(self) -> bool:
        """The physical game has ended."""
        raise NotImplementedError

    def check_end(self, snapshot: dict) -> None:
        """The companion's final state (the API's snapshot) against the physical game's own
        count: a game's robot compares scores, winners or the cooperative result."""
        raise NotImplementedError


def parse_page(html: str) -> Page:
    """The coach card (None: no card) and every action form of a table page."""
    root = document_fromstring(html)
    section = root.find('.//section[@id="coach"]')
    card = None
    if section is not None and "hidden" not in section.attrib:
        say = section.find_class("coach-say")
        card = Card(control=section.get("data-control") or None,
                    player=section.get("data-player") or None,
                    say=words(say[0]) if say else "",
                    text=words(section))
    forms, seen = [], {}
    for element in root.iter("form"):
        action = element.get("data-action")
        if action is None:
            continue
        forms.append(_form(element, action, seen.get(action, 0)))
        seen[action] = seen.get(action, 0) + 1
    return Page(card, forms, root)


def words(element) -> str:
    """What an element says, as a browser shows it: its strings, stripped, joined by a space
    (nothing of scripts, styles, templates or comments)."""
    parts: list[str] = []

    def walk(node) -> None:
        if not isinstance(node.tag, str) or node.tag in ("script", "style", "template"):
            return
        parts.append(node.text or "")
        for child in node:
            walk(child)
            parts.append(child.tail or "")

    walk(element)
    return " ".join(part.strip() for part in parts if part.strip())


def _form(element, action: str, index: int) -> Form:
    fields, offered, buttons = {}, {}, []
    for control in element.iter("input", "select", "textarea", "button"):
        name, kind = control.get("name"), (control.get("type") or "").lower()
        if control.tag == "button" or kind == "submit":
            if kind in ("", "submit"):
                buttons.append(Button(name, control.get("value"), words(control)))
            continue
        if not name or kind == "button":
            continue
        if control.tag == "select":
            options = control.findall(".//option")
            values = [option.get("value", option.text_content().strip()) for option in options]
            offered[name] = values
            chosen = next((option for option in options if "selected" in option.attrib),
                          options[0] if options else None)
            if chosen is not None:
                fields[name] = chosen.get("value", chosen.text_content().strip())
        elif kind in ("radio", "checkbox"):
            offered.setdefault(name, []).append(control.get("value", "on"))
            if "checked" in control.attrib:
                fields[name] = control.get("value", "on")
        elif control.tag == "textarea":
            fields[name] = control.text or ""
        else:
            fields[name] = control.get("value", "")
    fieldset = element.find(".//fieldset")
    folded = any(parent.tag in ("details", "dialog") and "open" not in parent.attrib
                 for parent in element.iterancestors())
    return Form(action=action, url=element.get("action", ""), index=index, fields=fields,
                offered=offered, buttons=buttons, text=words(element),
                enabled=not (fieldset is not None and "disabled" in fieldset.attrib), folded=folded,
                classes=tuple((element.get("class") or "").split()))


def marked(card: Card, forms: list[Form]) -> list[Form]:
    """The forms the card marks on a phone (as coach.js does): its control's, where enabled."""
    return [form for form in forms if card.control and form.action == card.control and form.enabled]


class Robot:
    """Plays one coached table from set-up to the end, the way a newcomer family would."""

    MOST_STEPS = 600

    def __init__(self, physical: Physical, phones: dict[str, object]):
        self.physical = physical
        self.phones = phones  # seat → HttpPhone or BrowserPhone
        self.steps: list[str] = []  # what happened, for the failure's message
        self._checked: tuple | None = None  # the last choice looked for on the other phones

    def acting_seat(self, card: Card) -> str:
        """The phone the card speaks to: the named player's, else (the whole table, or a
        player with no phone of their own) the host's."""
        seat = card.player if card.player is not None else self.physical.actor(card)
        return seat if seat in self.phones else self.physical.phones[0]

    def play(self) -> dict:
        """Every step until the game is over; the companion's final snapshot, checked."""
        host_seat = self.physical.phones[0]
        # The card names the same player on every phone: read the phone that acted last
        # (it usually acts again), and another only when the card names another.
        reader = host_seat
        for _ in range(self.MOST_STEPS):
            page = self.phones[reader].read()
            card = page.card
            if card is None:
                raise Lost("the coached table shows no coach card")
            if card.control is None:
                if not self.physical.over():
                    raise Lost(self._why(f"the card marks nothing and the game is not over: {card.say!r}"))
                snapshot = self.phones[host_seat].snapshot()
                self.physical.check_end(snapshot)
                return snapshot
            seat = self.acting_seat(card)
            phone = self.phones[seat]
            if seat != reader:
                page = phone.read()
                card = page.card
                reader = seat
            turn = Turn(card, seat, phone.marked(card, page.forms),
                        [form for form in page.forms if form.enabled], page)
            if not turn.marked:
                raise Lost(self._why(f"the card marks nothing on {seat}'s phone: {card.say!r}"))
            self._only_the_choosers(card, host_seat)
            tap = self.physical.tap(turn)
            self.steps.append(f"{seat}: {card.say} → {tap.form.action} {tap.values}")
            refused = phone.send(tap)
            if refused:
                raise Lost(self._why(f"the server refused what the card marked ({tap.form.action} "
                                     f"{tap.values}): {refused!r}"))
        raise Lost(self._why(f"the game stalled: {self.MOST_STEPS} taps and no end"))

    def _only_the_choosers(self, card: Card, host_seat: str) -> None:
        """A player's own choice is marked on no other phone but theirs and the host's."""
        chooser = self.physical.choice_of(card)
        if chooser is None or (card.control, chooser, card.say) == self._checked:
            return  # (a choice of several taps is looked at once)
        self._checked = (card.control, chooser, card.say)
        for other, phone in self.phones.items():
            if other not in (chooser, host_seat) and phone.marks(card.control):
                raise Lost(self._why(f"{chooser}'s choice ({card.control}) is marked on "
                                     f"{other}'s phone: {card.say!r}"))

    def _why(self, problem: str) -> str:
        return problem + "\n  the last steps:\n  " + "\n  ".join(self.steps[-8:])


class HttpPhone:
    """A phone that reads the pages over HTTP (the Flask test client): the marks are what
    coach.js would mark, computed from the same page."""

    def __init__(self, app, address: str):
        self.phone = Phone(app, address)

    def read(self) -> Page:
        response = self.phone.get(f"/t/{self.phone.code}", headers=GERMAN)
        assert response.status_code == 200, response.status_code
        return parse_page(response.get_data(as_text=True))

    def marked(self, card: Card, forms: list[Form]) -> list[Form]:
        return marked(card, forms)

    def marks(self, control: str) -> bool:
        """Whether the page marks a form of ``control`` now (one enabled), read quickly."""
        response = self.phone.get(f"/t/{self.phone.code}", headers=GERMAN)
        forms = re.findall(rf'<form\b[^>]*data-action="{re.escape(control)}"[^>]*>(.*?)</form>',
                           response.get_data(as_text=True), re.S)
        return any(not re.search(r"<fieldset\b[^>]*\bdisabled", body) for body in forms)

    def send(self, tap: Tap) -> str | None:
        """Posts the tap as the page's form would; the refusal's sentence, or None."""
        data = {**tap.form.fields, **tap.values}
        if tap.button is not None and tap.button.name:
            data[tap.button.name] = tap.button.value or ""
        response = self.phone.post(tap.form.url, data, htmx=True, headers=dict(GERMAN))
        if response.status_code != 200:
            return f"{response.status_code}: " + _words(response.get_data(as_text=True))
        return None

    def snapshot(self) -> dict:
        return self.phone.snapshot()


def _words(html: str) -> str:
    return re.sub(r"\s+", " ", words(fromstring(html)) if html.strip() else "")[:300]


def http_table(app, physical: Physical) -> Robot:
    """The host's phone sets the table up with "Our first game" on and sits at the first
    seat; the other phones join at theirs."""
    phones: dict[str, HttpPhone] = {}
    for number, seat in enumerate(physical.phones):
        phones[seat] = HttpPhone(app, f"10.0.0.{number + 2}")
    host = phones[physical.phones[0]].phone
    host.start(game=physical.game, players=physical.players,
               me=str(physical.players.index(physical.phones[0])), coach="1", **physical.options)
    for seat in physical.phones[1:]:
        joined = phones[seat].phone.join(host.code, seat)
        assert joined.status_code == 303, joined.status_code
    return Robot(physical, phones)


class BrowserPhone:
    """A phone in Chromium: it reads what the page shows, finds what coach.js marked, opens a
    folded menu by its marked opener (or the "Tap here" link), enters the values by hand and
    taps the button."""

    def __init__(self, page, live_server: str, code: str):
        self.page, self.live_server, self.code = page, live_server, code

    def read(self) -> Page:
        """The page as it stands, with each form's fields as their controls hold them now
        (a script may have changed a value since the page came)."""
        self._settle()
        page = parse_page(self.page.content())
        values = self.page.evaluate(
            """() => Array.from(document.querySelectorAll('form[data-action]'),
                 (form) => Object.fromEntries(new FormData(form)))""")
        for form, now in zip(page.forms, values):
            form.fields = {**form.fields, **now}
        return page

    def marked(self, card: Card, forms: list[Form]) -> list[Form]:
        """The forms coach.js marked on this page (an outline, or its boxes outlined)."""
        indices = self.page.evaluate(
            """control => Array.from(document.querySelectorAll(`form[data-action="${control}"]`))
                 .map((form, i) => [i, form.matches('.coach-target') || !!form.querySelector('.coach-target')
                   || !!(form.closest('details, dialog') && document.querySelector('.coach-target:not(form)'))])
                 .filter(([, on]) => on).map(([i]) => i)""", card.control or "")
        return [form for form in marked(card, forms) if form.index in indices]

    def marks(self, control: str) -> bool:
        """Whether coach.js marked a form of ``control`` on this page."""
        self._settle()
        return self.page.evaluate(
            """control => !!document.querySelector(`form[data-action="${control}"].coach-target,
                 form[data-action="${control}"] .coach-target`)""", control)

    def send(self, tap: Tap) -> str | None:
        page = self.page
        form = page.locator(f'form[data-action="{tap.form.action}"]').nth(tap.form.index)
        button = (form.locator(f'button[name="{tap.button.name}"][value="{tap.button.value}"]')
                  if tap.button is not None and tap.button.name else form.locator('button[type="submit"], button:not([type])').first)
        # The button, not the form: a form laid out in its parent's grid (display: contents, the
        # arrows around A&O's tortoise) has no box of its own to be visible or scrolled to.
        if not button.is_visible():
            opener = page.locator(tap.opener) if tap.opener else page.locator(".coach-target:not(form)").first
            if opener.count() == 0:
                return "the marked form is folded away and nothing on the page that opens it is marked"
            opener.first.click()  # (a click scrolls to what it taps first, as a thumb does)
        before = self._version()
        # What the form holds now: opening it may have filled fields (a dialog's script).
        now = form.evaluate("form => Object.fromEntries(new FormData(form))")
        for name, value in tap.values.items():
            if now.get(name) != value:  # a hand leaves a field that already says it
                self._enter(form, name, value)
        button.click()
        try:
            page.wait_for_function(
                "v => { const m = document.getElementById('live-meta'); return m && +m.dataset.version > v; }",
                arg=before, timeout=5000)
        except Exception:  # noqa: BLE001 - the refusal's words are what the test reports
            error = form.locator(".form-error")
            return (error.inner_text() if error.count() else "") or "the tap changed nothing"
        return None

    def _enter(self, form, name: str, value) -> None:
        field = form.locator(f'[name="{name}"]')
        kind = field.first.evaluate("el => el.tagName === 'SELECT' ? 'select' : (el.type || '')")
        if kind == "select":
            field.first.select_option(value)
        elif kind in ("radio", "checkbox"):
            for one in [value] if isinstance(value, str) else value:
                choice = form.locator(f'[name="{name}"][value="{one}"]')
                label = form.locator(f'label:has([name="{name}"][value="{one}"])')
                # A chip's input hides under its label's text: the finger taps the label.
                if label.count() and not choice.is_checked():
                    label.first.click()
                else:
                    choice.check()
        elif kind != "hidden":
            field.first.fill(str(value))
        else:
            field.first.evaluate("(el, v) => { el.value = v; }", value)

    def _version(self) -> int:
        return int(self.page.evaluate("() => +document.getElementById('live-meta').dataset.version"))

    def _settle(self) -> None:
        with_version = json.loads(self.page.request.get(f"{self.live_server}/api/tables/{self.code}").text())
        self.page.wait_for_function(
            "v => { const m = document.getElementById('live-meta'); return m && +m.dataset.version >= v; }",
            arg=with_version["version"], timeout=5000)

    def snapshot(self) -> dict:
        return json.loads(self.page.request.get(f"{self.live_server}/api/tables/{self.code}").text())


def browser_table(new_phone, live_server: str, physical: Physical, viewports: tuple) -> Robot:
    """The set-up form filled in by hand on the host's phone ("Our first game" ticked), then
    the other phones join by the table's join page; German phones of the given sizes."""
    host_seat = physical.phones[0]
    host = new_phone(viewport=viewports[0], locale="de-DE")
    host.goto(f"{live_server}/new/{physical.game}")
    for number, name in enumerate(physical.players):
        host.locator('input[name="player"]').nth(number).fill(name)
    host.locator(f'input[name="me"][value="{physical.players.index(host_seat)}"]').check()
    host.locator('input[name="coach"]').check()
    options = host.locator("details.options")
    if physical.options and options.count() and not options.evaluate("el => el.open"):
        options.locator("summary").click()
    for name, value in physical.options.items():
        field = host.locator(f'.setup-form [name="{name}"]').first
        if field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(value)
        elif field.get_attribute("type") == "checkbox":
            field.set_checked(value not in ("", "0", "off"))
        else:
            field.fill(value)
    host.locator('.setup-form button[type="submit"]').last.click()
    host.wait_for_url(f"{live_server}/t/*")
    code = host.url.rsplit("/", 1)[-1]
    phones = {host_seat: BrowserPhone(host, live_server, code)}
    for seat, viewport in zip(physical.phones[1:], viewports[1:] * len(physical.phones)):
        page = new_phone(viewport=viewport, locale="de-DE")
        page.goto(f"{live_server}/j/{code}")
        page.locator(f'button[name="seat"][value="{seat}"]').click()
        page.wait_for_url(f"**/t/{code}")
        phones[seat] = BrowserPhone(page, live_server, code)
    return Robot(physical, phones)
