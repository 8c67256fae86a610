"""What a hand and an eye feel, measured in the browser: shared by the browser tests.

- ``axe_violations``: axe-core (pinned in package.json, installed by `make setup`) run in the page.
- ``small_targets``: visible controls smaller than 44 × 44 CSS px.
- ``small_text``: visible text set below 12 px.
- ``overflowing``: elements that stick out of the viewport sideways (the page scrolls sideways).
- ``kept_in_place``: tap something and check the page did not jump under the finger.
- ``assert_fit_for_hands_and_eyes``: the first four at once.
"""

from __future__ import annotations

from pathlib import Path

PHONE_390 = {"width": 390, "height": 844}
PHONE_320 = {"width": 320, "height": 568}
TABLET = {"width": 1024, "height": 768}
SIZES = {"390x844": PHONE_390, "320x568": PHONE_320}
# Where the page stays after a tap, and what outlives another phone's move, do not depend on the
# width: checked on the smallest phone, where the page scrolls most (the fit at both sizes).
SMALLEST = {"320x568": PHONE_320}

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
MIN_TARGET = 44
MIN_TEXT = 12
LINE = 24  # "stays where it was": within about one line of text


def axe_violations(page, context: str | None = None) -> list[str]:
    """axe-core's violations on the page as it is now (WCAG 2.x A and AA rules and best
    practices), one readable line each: rule, impact, what it is about and where."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        # Evaluated through the DevTools protocol, not added as a <script>: the page's
        # Content-Security-Policy (companion/security.py) runs no inline script.
        page.evaluate(AXE.read_text() + "\n;undefined")
    result = page.evaluate(
        """async (context) => {
            const found = await axe.run(context ? document.querySelector(context) : document,
                                        {resultTypes: ['violations']});
            return found.violations.map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 4).map(n => n.target.join(' ') + ' :: ' + n.failureSummary.split('\\n').slice(0, 2).join(' '))
            }));
        }""",
        context,
    )
    return [f"{v['id']} ({v['impact']}): {v['help']} -- " + " | ".join(v["nodes"]) for v in result]


_VISIBLE = """
    function visible(el) {
        const style = getComputedStyle(el);
        if (style.visibility === 'hidden' || style.display === 'none') return false;
        if (el.closest('[hidden], dialog:not([open]), details:not([open]) > :not(summary)')) return false;
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.height > 0;
    }
"""


def small_targets(page, minimum: int = MIN_TARGET) -> list[str]:
    """Visible controls a finger must hit that measure less than ``minimum`` CSS px either
    way. A checkbox or radio counts with its label (the label is what is tapped)."""
    return page.evaluate(
        """(minimum) => {""" + _VISIBLE + """
            const out = [];
            const controls = document.querySelectorAll(
                'a[href], button, select, textarea, summary, [role=button], ' +
                'input:not([type=hidden]):not([type=checkbox]):not([type=radio]), ' +
                'input[type=checkbox], input[type=radio]');
            for (let el of controls) {
                if (!visible(el) && !(el.matches('input[type=checkbox], input[type=radio]'))) continue;
                let target = el;
                if (el.matches('input[type=checkbox], input[type=radio]')) {
                    target = el.closest('label') || (el.id && document.querySelector(`label[for="${el.id}"]`)) || el;
                }
                if (!visible(target)) continue;
                const r = target.getBoundingClientRect();
                if (r.width < minimum - 0.5 || r.height < minimum - 0.5) {
                    const name = (target.innerText || target.value || target.getAttribute('aria-label') || '').trim().slice(0, 40);
                    out.push(`${target.tagName.toLowerCase()}${target.id ? '#' + target.id : ''}` +
                             `${target.className ? '.' + String(target.className).split(' ').join('.') : ''}` +
                             ` "${name}" ${Math.round(r.width)}×${Math.round(r.height)}`);
                }
            }
            return out;
        }""",
        minimum,
    )


def small_text(page, minimum: int = MIN_TEXT) -> list[str]:
    """Visible elements whose own text is set below ``minimum`` px."""
    return page.evaluate(
        """(minimum) => {""" + _VISIBLE + """
            const out = [];
            for (const el of document.querySelectorAll('body *')) {
                const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
                if (!own || !visible(el)) continue;
                const size = parseFloat(getComputedStyle(el).fontSize);
                if (size < minimum - 0.01) out.push(`${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 30)}" ${size}px`);
            }
            return out;
        }""",
        minimum,
    )


def overflowing(page) -> list[str]:
    """The page scrolls sideways, or visible elements stick out past the right edge (those
    inside a container that scrolls sideways on purpose, like a wide score sheet, are fine)."""
    return page.evaluate(
        """() => {""" + _VISIBLE + """
            const width = document.documentElement.clientWidth;
            const out = [];
            if (document.documentElement.scrollWidth > width + 1) out.push(`page is ${document.documentElement.scrollWidth}px wide in ${width}px`);
            for (const el of document.querySelectorAll('body *')) {
                if (!visible(el)) continue;
                const r = el.getBoundingClientRect();
                if (r.right <= width + 1 && r.left >= -1) continue;
                let scroller = el.parentElement, inside = false;
                while (scroller && scroller !== document.body) {
                    const o = getComputedStyle(scroller).overflowX;
                    if (o === 'auto' || o === 'scroll' || o === 'hidden' || o === 'clip') { inside = true; break; }
                    scroller = scroller.parentElement;
                }
                if (!inside) out.push(`${el.tagName.toLowerCase()}.${el.className} right=${Math.round(r.right)} left=${Math.round(r.left)}`);
            }
            return out.slice(0, 10);
        }""")


def assert_fit_for_hands_and_eyes(page, where: str, *also) -> None:
    """Nothing sticks out sideways, every control is big enough for a finger, every text for
    an eye, and axe finds nothing; ``also``: a game's own checks (page -> what is wrong)."""
    assert overflowing(page) == [], (where, overflowing(page))
    for check in also:
        assert check(page) == [], where
    assert small_targets(page) == [], where
    assert small_text(page) == [], where
    assert axe_violations(page) == [], where


def page_height(page) -> int:
    return page.evaluate("() => document.documentElement.scrollHeight")


def top_of(page, selector: str) -> float:
    """Where the element is on screen now (its top, in CSS px from the top of the viewport)."""
    return page.eval_on_selector(selector, "el => el.getBoundingClientRect().top")


def kept_in_place(page, selector: str, tap, settle=None, tolerance: float = LINE) -> tuple[float, float]:
    """Scroll ``selector`` to the middle of the screen, call ``tap()``, wait with ``settle()``
    (e.g. until the page shows the new version), and return (top before, top after) of the
    element matching ``selector`` (the same control, or the one that replaced it). Asserts
    the page did not move it more than ``tolerance`` px: what the player looked at stays."""
    page.eval_on_selector(selector, "el => el.scrollIntoView({block: 'center'})")
    page.wait_for_timeout(100)
    before = top_of(page, selector)
    tap()
    if settle:
        settle()
    page.wait_for_timeout(300)  # a swap, focus or scroll that follows the answer
    after = top_of(page, selector)
    assert abs(after - before) <= tolerance, (
        f"the page jumped: {selector} was at {before:.0f}px on screen, now at {after:.0f}px "
        f"(scrollY {page.evaluate('scrollY')})")
    return before, after
