"""QR codes of join addresses: SVG for pages, text blocks for the terminal."""

from __future__ import annotations

import io

import qrcode
import qrcode.image.svg
from markupsafe import Markup, escape


def qr_svg(data: str, label: str = "QR code of the join address") -> Markup:
    """An inline SVG (no image library needed) that scales to its container; ``label`` is
    what a screen reader says it is."""
    code = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_M,
                         image_factory=qrcode.image.svg.SvgPathImage)
    code.add_data(data)
    code.make(fit=True)
    svg = code.make_image().to_string(encoding="unicode")
    svg = svg.replace("<svg ", f'<svg role="img" aria-label="{escape(label)}" ', 1)
    return Markup(svg)


def qr_text(data: str) -> str:
    """The QR code drawn with block characters, for the terminal that starts the server."""
    code = qrcode.QRCode(border=2)
    code.add_data(data)
    code.make(fit=True)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()
