"""The proxies in front of the companion, run from the documents' own configurations: Caddy
over HTTPS (docs/operating.md's Caddyfile), nginx (README's block, plain HTTP or with its TLS
part too), and a home for Chromium whose certificate store trusts Caddy's local authority.

Caddy (Debian's ``caddy``) issues the site's certificate from its internal authority
(``local_certs``) instead of Let's Encrypt, keeps its data under the test's tmp directory
(``XDG_DATA_HOME``) and listens on loopback only, IPv6's ``::1``: the app behind it sees Caddy
come from 127.0.0.1, so the address the app counts a request for tells the proxy (127.0.0.1)
from the client it passed on (::1). Chromium reads its trusted authorities from NSS's store
in ``$HOME/.pki/nssdb`` (``certutil``, Debian's ``libnss3-tools``); its HOME is the test's own.
"""

from __future__ import annotations

import http.client
import os
import re
import shutil
import socket
import ssl
import subprocess
import time
from pathlib import Path

CADDY = shutil.which("caddy") or "/usr/bin/caddy"
CERTUTIL = shutil.which("certutil") or "/usr/bin/certutil"
OPERATING = Path(__file__).resolve().parents[2] / "docs" / "operating.md"
README = Path(__file__).resolve().parents[2] / "README.md"
NGINX = "/usr/sbin/nginx"
# The README block's HTTPS lines (its port and certificate), left out where plain HTTP is run.
PLAIN_HTTP_ONLY = re.compile(r"^\s*(listen 443 |ssl_certificate).*\n", re.M)
SITE = "companion.test"  # the name Chromium resolves to ::1 (--host-resolver-rules)
DOCUMENTED_SITE, DOCUMENTED_UPSTREAM = "games.example.org", "127.0.0.1:5000"


def free_port6() -> int:
    with socket.socket(socket.AF_INET6) as sock:
        sock.bind(("::1", 0))
        return sock.getsockname()[1]


def documented_caddyfile() -> str:
    """The ```caddyfile block of docs/operating.md."""
    found = re.search(r"```caddyfile\n(.*?)```", OPERATING.read_text(), re.S)
    assert found, "docs/operating.md has no ```caddyfile block"
    return found.group(1)


def caddyfile(data: Path, port: int, upstream: str) -> str:
    """The documented site with this test's name, port and upstream, on loopback, its
    certificate from Caddy's local authority; no admin endpoint, no redirect from port 80."""
    site = documented_caddyfile()
    for theirs, ours in ((f"{DOCUMENTED_SITE} {{", f"{SITE}:{port} {{\n\tbind ::1"),
                         (DOCUMENTED_UPSTREAM, upstream)):
        assert theirs in site, f"docs/operating.md's Caddyfile no longer says {theirs!r}"
        site = site.replace(theirs, ours)
    return ("{\n\tadmin off\n\tlocal_certs\n\tskip_install_trust\n\tauto_https disable_redirects\n"
            f"\tstorage file_system {data}\n}}\n\n{site}")


class Caddy:
    """Caddy on ::1 at ``port`` in front of ``upstream`` (host:port); ``url`` is its address."""

    def __init__(self, folder: Path, upstream: str):
        self.folder, self.upstream = folder, upstream
        self.data = folder / "data"
        self.port = free_port6()
        self.url = f"https://{SITE}:{self.port}"
        self.log = folder / f"caddy-{self.port}.log"
        self.process: subprocess.Popen | None = None

    @property
    def root(self) -> Path:
        """The local authority's root certificate (made at Caddy's first start)."""
        return self.data / "pki" / "authorities" / "local" / "root.crt"

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        config = self.folder / f"Caddyfile-{self.port}"
        config.write_text(caddyfile(self.data, self.port, self.upstream))
        env = {**os.environ, "HOME": str(self.folder), "XDG_DATA_HOME": str(self.folder / "xdg"),
               "XDG_CONFIG_HOME": str(self.folder / "xdg")}
        with open(self.log, "a") as output:
            self.process = subprocess.Popen(
                [CADDY, "run", "--config", str(config), "--adapter", "caddyfile"],
                env=env, stdout=output, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"Caddy stopped at start-up: {self.log.read_text()[-3000:]}")
            try:
                if self.get("/healthz")[0] == 200:
                    return
            except (OSError, ssl.SSLError, http.client.HTTPException):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"Caddy did not answer in time: {self.log.read_text()[-3000:]}")
            time.sleep(0.1)

    def get(self, path: str, headers: dict | None = None) -> tuple[int, dict, bytes]:
        """GET ``path`` through Caddy from ::1, checking its certificate against the root."""
        if not self.root.exists():
            raise FileNotFoundError(self.root)
        connection = _Loopback6(SITE, self.port, timeout=10,
                                context=ssl.create_default_context(cafile=str(self.root)))
        try:
            connection.request("GET", path, headers=headers or {})
            answer = connection.getresponse()
            return answer.status, dict(answer.getheaders()), answer.read()
        finally:
            connection.close()

    def stop(self) -> None:
        stop_process(self.process)
        self.process = None


def stop_process(process: subprocess.Popen | None) -> None:
    """SIGTERM, and SIGKILL after 10 s: a server of the tests that is still running ends."""
    if process and process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class _Loopback6(http.client.HTTPSConnection):
    """HTTPS to the site's name (certificate, SNI, Host) at ::1, where Caddy listens."""

    def connect(self):
        sock = socket.create_connection(("::1", self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


def trusting_home(folder: Path, root: Path) -> Path:
    """A HOME whose NSS store (Chromium's on Linux) trusts ``root`` to issue sites' certificates."""
    nssdb = folder / ".pki" / "nssdb"
    nssdb.mkdir(parents=True, exist_ok=True)
    subprocess.run([CERTUTIL, "-d", f"sql:{nssdb}", "-N", "--empty-password"], check=True,
                   capture_output=True)
    subprocess.run([CERTUTIL, "-d", f"sql:{nssdb}", "-A", "-t", "C,,", "-n", "caddy-local",
                    "-i", str(root)], check=True, capture_output=True)
    return folder


def nginx_conf(prefix: Path, port: int, upstreams: list[str],
               tls: tuple[int, Path, Path] | None = None) -> str:
    """README's nginx block with the two servers' addresses and ``port``, in a minimal nginx.conf;
    with ``tls`` (a port on ::1, a certificate and its key for SITE) its
    HTTPS part too, else only plain HTTP."""
    found = re.search(r"```nginx\n(.*?)```", README.read_text(), re.S)
    assert found, "README.md has no ```nginx block"
    block = found.group(1)
    for theirs, ours in (("127.0.0.1:5001", upstreams[0]), ("127.0.0.1:5002", upstreams[1]),
                         ("listen 80;", f"listen 127.0.0.1:{port};")):
        assert theirs in block, f"README's nginx block no longer says {theirs!r}"
        block = block.replace(theirs, ours)
    if tls is None:
        block = PLAIN_HTTP_ONLY.sub("", block)
    else:
        site = f"/etc/letsencrypt/live/{DOCUMENTED_SITE}/"
        for theirs, ours in (("listen 443 ssl http2;", f"listen [::1]:{tls[0]} ssl http2;"),
                             (f"{site}fullchain.pem", str(tls[1])), (f"{site}privkey.pem", str(tls[2])),
                             (f"server_name {DOCUMENTED_SITE};", f"server_name {SITE};")):
            assert theirs in block, f"README's nginx block no longer says {theirs!r}"
            block = block.replace(theirs, ours)
    temp = "\n".join(f"    {kind}_temp_path {prefix / kind};"
                     for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    # As root, nginx's workers would run as nobody, who cannot enter pytest's private tmp dirs.
    user = "user root;\n" if os.geteuid() == 0 else ""
    return (f"{user}worker_processes 1;\npid {prefix / 'nginx.pid'};\n"
            f"error_log {prefix / 'error.log'} info;\nevents {{}}\n"
            f"http {{\n    access_log off;\n{temp}\n{block}}}\n")
