"""Where phones reach this server: the LAN address, never loopback when there is a LAN, and
why they cannot when the server listens on loopback only."""

from __future__ import annotations

import ipaddress
import os
import socket
from urllib.parse import urlsplit

import psutil

# `companion serve` puts its --host here for its workers: the pages then know whether phones
# on the network can reach them at all.
LISTEN_HOST_VARIABLE = "COMPANION_LISTEN_HOST"
# Interfaces of containers and VPNs: an address there is not what a phone on the Wi-Fi sees.
VIRTUAL_PREFIXES = ("docker", "br-", "veth", "virbr", "lxc", "tun", "tap", "zt", "tailscale", "wg")


def lan_addresses() -> list[str]:
    """IPv4 addresses of the interfaces that are up, best candidate first."""
    stats = psutil.net_if_stats()
    found: list[tuple[int, str]] = []
    for name, addresses in psutil.net_if_addrs().items():
        if name in stats and not stats[name].isup:
            continue
        for address in addresses:
            if address.family != socket.AF_INET:
                continue
            ip = ipaddress.ip_address(address.address)
            if ip.is_loopback or ip.is_link_local or ip.is_unspecified:
                continue
            rank = 0 if ip.is_private else 1
            if name.startswith(VIRTUAL_PREFIXES):
                rank += 2
            found.append((rank, address.address))
    return [address for _rank, address in sorted(found)]


def is_loopback_host(host: str) -> bool:
    host = host.strip("[]")
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def listen_host() -> str | None:
    """The address the server listens on, as `companion serve` started it (None: unknown,
    e.g. under the test client or another WSGI server)."""
    return os.environ.get(LISTEN_HOST_VARIABLE) or None


def base_url(request_host_url: str, public_url: str | None = None,
             lan: list[str] | None = None, listening: str | None = None) -> str:
    """The address phones should open: PUBLIC_URL, else this request's host with loopback
    swapped for the machine's LAN address (same port), unless the server listens on loopback
    only (``listening``): nothing answers on the LAN address then."""
    if public_url:
        return public_url.rstrip("/")
    parts = urlsplit(request_host_url)
    host = parts.hostname or "localhost"
    if is_loopback_host(host) and not (listening and is_loopback_host(listening)):
        candidates = lan_addresses() if lan is None else lan
        if candidates:
            port = f":{parts.port}" if parts.port else ""
            return f"{parts.scheme}://{candidates[0]}{port}"
    return request_host_url.rstrip("/")


def unreachable_reason(root: str, listening: str | None = None) -> str | None:
    """Why other phones cannot open ``root`` (an answer of base_url), or None when they can:
    a loopback address only ever reaches the machine it is typed on."""
    if not is_loopback_host(urlsplit(root).hostname or "localhost"):
        return None
    if listening and is_loopback_host(listening):
        return "loopback"  # started with HOST=127.0.0.1: the server ignores the network
    return "no-network"  # listening everywhere, but this machine has no network address
