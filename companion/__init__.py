"""The table companion: one live game state shared by every phone at the table.

Importing the package loads nothing but this: the pure game rules in ``companion.games``
must be importable without Flask, SQLAlchemy or a database driver. The app itself is built
by ``create_app`` (``companion/app.py``), which gunicorn calls as ``companion:create_app()``.
"""

from __future__ import annotations


def create_app(test_config: dict | None = None):
    """Create and configure an instance of the companion (see ``companion.app``)."""
    from .app import create_app as build

    return build(test_config)
