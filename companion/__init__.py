"""The table companion: one live game state shared by every phone at the table.

Importing the package loads nothing but this: the pure game rules in ``companion.games``
must be importable without Flask, SQLAlchemy or a database driver. The app itself is built
by ``create_app`` (``companion/web/app.py``), which gunicorn calls as ``companion:create_app()``.
"""

from __future__ import annotations


def create_app(test_config: dict | None = None):
    """Create and configure an instance of the companion (see ``companion.web.app``)."""
    from .web.app import create_app as build  # here, not above: the games load without Flask

    return build(test_config)
