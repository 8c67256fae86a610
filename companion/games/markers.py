"""Marker shapes of lines on a chart: a game's own board and the group's charts draw the same."""

from __future__ import annotations

import math


def marker_path(shape: str, x: float, y: float) -> str:
    """SVG path data of a marker of ``shape`` centred on (x, y), about 10 units across."""
    if shape == "circle":
        return f"M{x - 4.5:.1f} {y:.1f}a4.5 4.5 0 1 0 9 0a4.5 4.5 0 1 0 -9 0Z"
    if shape == "square":
        return f"M{x - 4:.1f} {y - 4:.1f}h8v8h-8Z"
    if shape == "triangle":
        return f"M{x:.1f} {y - 5.5:.1f}l5.5 9.5h-11Z"
    if shape == "triangle-down":
        return f"M{x:.1f} {y + 5.5:.1f}l5.5 -9.5h-11Z"
    if shape == "diamond":
        return f"M{x:.1f} {y - 6:.1f}l6 6l-6 6l-6 -6Z"
    if shape == "cross":
        return (f"M{x - 5:.1f} {y - 2.5:.1f}l2.5 -2.5l2.5 2.5l2.5 -2.5l2.5 2.5l-2.5 2.5l2.5 2.5"
                f"l-2.5 2.5l-2.5 -2.5l-2.5 2.5l-2.5 -2.5l2.5 -2.5Z")
    if shape == "star":
        points = []
        for index in range(10):
            radius = 6 if index % 2 == 0 else 2.6
            angle = math.pi * index / 5 - math.pi / 2
            points.append(f"{x + radius * math.cos(angle):.1f} {y + radius * math.sin(angle):.1f}")
        return "M" + "L".join(points) + "Z"
    # plus
    return f"M{x - 1.8:.1f} {y - 5.5:.1f}h3.6v3.7h3.7v3.6h-3.7v3.7h-3.6v-3.7h-3.7v-3.6h3.7Z"
