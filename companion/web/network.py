"""Where phones reach this server: the LAN address, never loopback when there is a LAN, and
why they cannot when the server listens on loopback only."""

from __future__ import annotations

import ipaddress
import os
import socket
from urllib.parse import urlsplit

import psutil
from flask import current_app, request

# Where `companion serve` listens, for the pages to know whether phones can reach them at all.
LISTEN_HOST_VARIABLE = "COMPANION_LISTEN_HOST"
LISTEN_PORT_VARIABLE = "COMPANION_LISTEN_PORT"
# Interfaces of containers, VPNs and virtual machines, in any case (Linux's names, then Windows'
# for WSL and Hyper-V, VirtualBox, VMware): an address there is not what a phone on the Wi-Fi sees.
VIRTUAL_PREFIXES = ("docker", "br-", "veth", "virbr", "lxc", "tun", "tap", "zt", "tailscale", "wg",
                    "vboxnet", "vmnet", "vethernet", "virtualbox", "vmware")


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
            if name.lower().startswith(VIRTUAL_PREFIXES):
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


def listen_port() -> int | None:
    """The port the server listens on, as `companion serve` started it (None: unknown)."""
    value = os.environ.get(LISTEN_PORT_VARIABLE, "")
    return int(value) if value.isdigit() else None


def base_url(request_host_url: str, public_url: str | None = None,
             lan: list[str] | None = None, listening: str | None = None,
             trusted_host: bool = False, port: int | None = None) -> str:
    """The address phones should open: PUBLIC_URL, else this machine's LAN address (the port
    it listens on), unless the server listens on loopback only (``listening``): nothing
    answers on the LAN address then.

    The request's own host is kept only when it cannot have been made up: a loopback or LAN
    address of this machine, or a name the server was told to trust (``trusted_host``: Flask's
    TRUSTED_HOSTS, which refuses every other Host header). Any other name came from a Host
    header anyone can write (``Host: evil.example``) and is never put in an invite."""
    if public_url:
        return public_url.rstrip("/")
    parts = urlsplit(request_host_url)
    if trusted_host:
        return request_host_url.rstrip("/")
    host = parts.hostname or "localhost"
    port = port or parts.port
    suffix = f":{port}" if port else ""
    candidates = lan_addresses() if lan is None else lan
    if listening and is_loopback_host(listening):
        # Loopback only: name it as typed (localhost or an address), or plain 127.0.0.1.
        return f"{parts.scheme}://{host if is_loopback_host(host) else '127.0.0.1'}{suffix}"
    if host in candidates:
        return f"{parts.scheme}://{host}{suffix}"  # a LAN address of this machine, as typed
    if candidates:
        return f"{parts.scheme}://{candidates[0]}{suffix}"
    return f"{parts.scheme}://{host if is_loopback_host(host) else '127.0.0.1'}{suffix}"


def phone_root() -> str:
    """``base_url`` for the request being answered, from the app's settings."""
    return base_url(request.host_url, current_app.config.get("PUBLIC_URL"),
                    listening=listen_host(), port=listen_port(),
                    trusted_host=bool(current_app.config.get("TRUSTED_HOSTS")))


def unreachable_reason(root: str, listening: str | None = None) -> str | None:
    """Why other phones cannot open ``root`` (an answer of base_url), or None when they can:
    a loopback address only ever reaches the machine it is typed on."""
    if not is_loopback_host(urlsplit(root).hostname or "localhost"):
        return None
    if listening and is_loopback_host(listening):
        return "loopback"  # started with HOST=127.0.0.1: the server ignores the network
    return "no-network"  # listening everywhere, but this machine has no network address
