"""A group's owner key: what changes its history, kept by its owners' phones and links."""

from __future__ import annotations

from flask import current_app
from itsdangerous import BadSignature, URLSafeSerializer

from ..service.models import PlayerGroup


def _owner_keys() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.secret_key, salt="group owner")


def owner_key(group: PlayerGroup) -> str:
    """The key that changes the group's history: the group's code signed with the server's
    secret, so it is made again for an owner's page and needs no storing (the creator's phone,
    a shared owner link and the recovery link all carry it)."""
    return _owner_keys().dumps(group.code)


def is_owner_key(group: PlayerGroup, key: str | None) -> bool:
    try:
        return bool(key) and _owner_keys().loads(key) == group.code
    except BadSignature:
        return False
