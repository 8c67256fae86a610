"""The measuring helpers of ux.py find what they are meant to find (so a clean result means
something): a page with a tiny button, tiny text, a wide element and a missing label."""

from ux import axe_violations, overflowing, small_targets, small_text

BAD = """<!doctype html><html lang="en"><head><title>t</title>
<meta name="viewport" content="width=device-width"></head><body><main>
<h1>Bad</h1>
<button style="width:20px;height:20px;padding:0">x</button>
<p style="font-size:9px">tiny words</p>
<div style="width:2000px">wide</div>
<input type="text">
<div style="overflow-x:auto"><div style="width:3000px">wide but scrolls on purpose</div></div>
</main></body></html>"""

GOOD = """<!doctype html><html lang="en"><head><title>t</title>
<meta name="viewport" content="width=device-width"></head><body><main>
<h1>Good</h1>
<button style="min-width:44px;min-height:44px">Go</button>
<p>Words at a normal size.</p>
<label>Name <input type="text" style="min-height:44px"></label>
</main></body></html>"""


def test_the_helpers_find_problems_and_pass_a_clean_page(new_phone):
    page = new_phone()
    page.set_content(BAD)
    assert any('"x" 20×20' in found for found in small_targets(page))
    assert any("tiny words" in found for found in small_text(page))
    problems = overflowing(page)
    assert problems and "page is" in problems[0]
    assert not any("scrolls on purpose" in found for found in problems)
    assert any(found.startswith("label ") for found in axe_violations(page))

    page.set_content(GOOD)
    assert small_targets(page) == []
    assert small_text(page) == []
    assert overflowing(page) == []
    assert axe_violations(page) == []
