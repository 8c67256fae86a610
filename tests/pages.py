"""What a phone is sent, read the way a player sees it: shared by the tests of the pages."""

from __future__ import annotations

import re


def region(html: str, name: str) -> str:
    """One live region of a page or of a live answer: its root element's HTML, whole."""
    start = re.search(rf'<(\w+) id="{name}" data-region="{name}"', html)
    assert start, f"region {name} is missing"
    tag, depth = start.group(1), 0
    for found in re.finditer(rf"<(/?){tag}\b[^>]*>", html[start.start():]):
        depth += -1 if found.group(1) else 1
        if depth == 0:
            return html[start.start():start.start() + found.end()]
    raise AssertionError(f"region {name} is not closed")
