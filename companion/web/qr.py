"""QR codes of join addresses: SVG for pages, text blocks for the terminal."""

from __future__ import annotations

import io

import qrcode
from markupsafe import Markup, escape


def qr_svg(data: str, label: str = "QR code of the join address") -> Markup:
    """An inline SVG (no image library needed) that scales to its container; ``label`` is
    what a screen reader says it is. Each row's runs of dark modules are strokes one module
    thick along the row's middle, each run a step on from the last ("m2 0h3"): a tenth of
    the bytes of a square per module (qrcode's SvgPathImage), on every table page."""
    code = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_M)
    code.add_data(data)
    code.make(fit=True)
    rows = code.get_matrix()
    runs = []
    for y, row in enumerate(rows):
        x, end = 0, None  # end: where the row's last run stopped
        while x < len(row):
            if not row[x]:
                x += 1
                continue
            start = x
            while x < len(row) and row[x]:
                x += 1
            runs.append(f"M{start} {y}.5" if end is None else f"m{start - end} 0")
            runs.append(f"h{x - start}")
            end = x
    size = len(rows)
    return Markup(f'<svg role="img" aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg" '
                  f'viewBox="0 0 {size} {size}" width="{size}mm" height="{size}mm">'
                  f'<path shape-rendering="crispEdges" stroke="#000" d="{"".join(runs)}"/></svg>')


def qr_text(data: str) -> str:
    """The QR code drawn with block characters, for the terminal that starts the server."""
    code = qrcode.QRCode(border=2)
    code.add_data(data)
    code.make(fit=True)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()
