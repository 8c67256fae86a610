"""Draw the companion's icons: the PNGs a phone puts on its home screen and the favicon.

Run from the repository: `.venv/bin/python static/icons/make_icons.py`. Plain Python (zlib
and struct write the PNG), so no imaging library is needed; icon.svg is the same picture
drawn by hand. The picture: a Gaulish-blue square, a white die showing five, and a gold
meeple-like dot in the middle pip. Each pixel is sampled 4 × 4 times for smooth edges.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
BLUE = (11, 79, 168)
WHITE = (255, 253, 247)
INK = (17, 17, 17)
GOLD = (232, 162, 0)
SAMPLES = 4

# Shapes on a 0..1 square, drawn in order (later ones on top). Icons that are "maskable" keep
# everything that matters inside the middle 80 %, which the round crop of Android leaves.
DIE = (0.22, 0.22, 0.78, 0.78, 0.10)  # left, top, right, bottom, corner radius
PIPS = [(0.34, 0.34), (0.66, 0.34), (0.34, 0.66), (0.66, 0.66)]
PIP = 0.062
CENTRE = (0.5, 0.5)
CENTRE_PIP = 0.085


def inside_rounded(x: float, y: float, box: tuple, radius: float) -> bool:
    left, top, right, bottom = box
    if not (left <= x <= right and top <= y <= bottom):
        return False
    cx = min(max(x, left + radius), right - radius)
    cy = min(max(y, top + radius), bottom - radius)
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2


def colour_at(x: float, y: float, rounded_background: bool) -> tuple | None:
    if rounded_background and not inside_rounded(x, y, (0, 0, 1, 1), 0.18):
        return None
    colour = BLUE
    if inside_rounded(x, y, DIE[:4], DIE[4]):
        colour = WHITE
    for px, py in PIPS:
        if (x - px) ** 2 + (y - py) ** 2 <= PIP ** 2:
            colour = INK
    if (x - CENTRE[0]) ** 2 + (y - CENTRE[1]) ** 2 <= CENTRE_PIP ** 2:
        colour = GOLD
    return colour


def draw(size: int, rounded_background: bool) -> bytes:
    """RGBA rows of the icon at ``size`` × ``size`` pixels, each row led by PNG's filter byte."""
    rows = bytearray()
    step = 1 / (size * SAMPLES)
    for row in range(size):
        rows.append(0)
        for column in range(size):
            red = green = blue = alpha = 0
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    x = (column * SAMPLES + sx + 0.5) * step
                    y = (row * SAMPLES + sy + 0.5) * step
                    found = colour_at(x, y, rounded_background)
                    if found:
                        red += found[0]
                        green += found[1]
                        blue += found[2]
                        alpha += 255
            count = SAMPLES * SAMPLES
            covered = alpha // 255
            if covered:
                rows += bytes((red // covered, green // covered, blue // covered, alpha // count))
            else:
                rows += bytes(4)
    return bytes(rows)


def png(size: int, rounded_background: bool) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(draw(size, rounded_background), 9)) + chunk(b"IEND", b""))


# (file, size, rounded): home-screen icons fill the square (the phone crops it to its own
# shape); the favicon is rounded by itself, as a browser tab shows it as it is.
ICONS = [
    ("icon-192.png", 192, False),
    ("icon-512.png", 512, False),
    ("apple-touch-icon.png", 180, False),
    ("favicon-32.png", 32, True),
]

if __name__ == "__main__":
    for name, size, rounded in ICONS:
        (HERE / name).write_bytes(png(size, rounded))
        print(f"wrote {name} ({size} × {size})")
