"""The one guard for every address a user gives the server to call (STYLE.md 9; docs/security.md,
"Addresses the server calls"): a browser's push endpoint, a club's webhook, any later one.

- ``check(url)``: the address parsed by urllib3's ``parse_url``, the parser requests sends with
  (so the host checked is the host called: ``https://127.0.0.1\\@fcm.googleapis.com/`` is
  127.0.0.1 here as it is there); refused with a backslash, a user or password, or a scheme
  other than http(s); the host resolved and *every* address it resolves to checked
  (``refusal``).
- ``Session``: a ``requests-hardened`` session (Saleor's, for its webhooks): the address it
  connects to is the one its filter checked (pinned, so DNS cannot swap it between the check
  and the connection; the name still goes in ``Host`` and in TLS's SNI and certificate check),
  loopback and private addresses refused, no redirect followed, no proxy or netrc read from the
  environment. What it lacks is added here: ``check`` before every request, and a deadline for
  the *whole* request (connection, TLS, headers and body), where requests' timeout is per read
  (a hook dripping a byte a second would hold it for ever). A watchdog shuts the request's
  sockets at the deadline; the answer's body is kept up to ``MAX_BODY`` bytes.
- ``outcome``: what a page may show of a try ("answered 500", "refused", "timed out",
  "unreachable"), never an exception's text (it would make the site a port scanner).

``OUTBOUND_ALLOW_PRIVATE`` (off by default) lets a club on its own network call loopback and
private addresses. requests-hardened's filter refuses those, so with it on the session is
requests' own adapter behind ``check`` (as Saleor's ``HTTP_IP_FILTER_ENABLED=False``): checked,
not pinned. Link-local (the clouds' metadata service, 169.254.169.254), multicast, unspecified
and reserved addresses are refused by ``check`` either way, and again by the address each socket
connected to (``_watched``), before a byte is sent: a name that changes its answer between the
check and the connection reaches no such address (still, never turn the setting on on a cloud
server). The name's resolution itself is outside the deadline (the system resolver's
own timeouts bound it).
"""

from __future__ import annotations

import contextlib
import contextvars
import ipaddress
import socket
import threading
from typing import Any

import requests
from django.conf import settings
from requests.adapters import HTTPAdapter
from requests_hardened import Config, HTTPSession
from requests_hardened.ip_filter import EXTRA_BLOCKED_NET_RANGES, InvalidIPAddress
from requests_hardened.ip_filter_adapter import IPFilterAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import LocationParseError
from urllib3.util import Url, parse_url

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

# The most of an answer's body kept (a hook or a push service says little).
MAX_BODY = 64 * 1024
SHARED = ipaddress.ip_network("100.64.0.0/10")  # carrier-grade NAT; a VPN such as Tailscale
# The ranges requests-hardened refuses beyond Python's (6to4, NAT64, ...), the shared one aside.
TRANSLATED = tuple(net for net in EXTRA_BLOCKED_NET_RANGES if net != SHARED)
# The clouds' metadata services (the server's credentials) that are not link-local, refused
# even where private addresses are allowed (``OUTBOUND_ALLOW_PRIVATE``): AWS's over IPv6
# (a private address) and Alibaba's (in the shared range). 169.254.169.254, the others' and
# AWS's over IPv4, is link-local, refused in every mode already.
METADATA = tuple(ipaddress.ip_address(a) for a in ("fd00:ec2::254", "100.100.100.200"))


class Refused(requests.RequestException):
    """The address is not one the server calls; ``reason`` says why, for the one who gave it."""

    def __init__(self, reason: str, **kwargs: Any) -> None:
        super().__init__(reason, **kwargs)
        self.reason = reason


class Unresolved(requests.ConnectionError):
    """The host has no address (now): nothing to check, nothing to call."""


class DeadlinePassed(requests.Timeout):
    """The whole request took longer than its deadline and was cut."""


# --- the address ------------------------------------------------------------------------------


def refusal(ip: Address, *, allow_private: bool = False) -> str | None:
    """Why the server does not call ``ip`` ("a loopback address", ...), or None.

    >>> refusal(ipaddress.ip_address("10.0.0.5")), refusal(ipaddress.ip_address("8.8.8.8"))
    ('a private address', None)
    >>> refusal(ipaddress.ip_address("::ffff:169.254.169.254"), allow_private=True)
    'a link-local address'
    """
    if ip.version == 6 and ip.ipv4_mapped is not None:  # ::ffff:127.0.0.1 is 127.0.0.1
        ip = ip.ipv4_mapped
    if ip.is_unspecified:
        return "an unspecified address"
    if ip.is_link_local:
        return "a link-local address"
    if ip in METADATA:
        return "a cloud's metadata address"
    if ip.is_multicast:
        return "a multicast address"
    if ip.is_loopback:
        return None if allow_private else "a loopback address"
    if ip.is_reserved or any(ip in net for net in TRANSLATED) or _embeds_ipv4(ip):
        return "a reserved address"
    if ip.is_private or ip in SHARED or not ip.is_global or _site_local(ip):
        return None if allow_private else "a private address"
    return None


def _embeds_ipv4(ip: Address) -> bool:
    """6to4 and Teredo carry an IPv4 address the network may route to."""
    return isinstance(ip, ipaddress.IPv6Address) and (
        ip.sixtofour is not None or ip.teredo is not None
    )


def _site_local(ip: Address) -> bool:
    return isinstance(ip, ipaddress.IPv6Address) and ip.is_site_local


def _allow_private(allow_private: bool | None) -> bool:
    return settings.OUTBOUND_ALLOW_PRIVATE if allow_private is None else allow_private


def parse(url: str) -> Url:
    """``url`` as the sender reads it, if it may be called at all (before resolving)."""
    if not isinstance(url, str) or "\\" in url:
        raise Refused("The address has a backslash: the site does not call it.")
    try:
        parsed = parse_url(url.strip())
    except LocationParseError:
        raise Refused("This is not a web address.") from None
    if parsed.scheme not in ("http", "https") or not parsed.host:
        raise Refused("The address must start with https:// (or http://) and name a host.")
    if parsed.auth is not None or "@" in (parsed.netloc or ""):
        raise Refused("The address has a user or a password before its host: not taken.")
    return parsed


def addresses(parsed: Url) -> list[Address]:
    """Every address the host resolves to now (raises ``Unresolved``)."""
    host = parsed.host.strip("[]")
    port = parsed.port or (443 if parsed.scheme == "https" else 80)
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, OSError):
        raise Unresolved(f"The host {host} cannot be found.") from None
    return [ipaddress.ip_address(info[4][0].split("%", 1)[0]) for info in found]


def check(url: str, *, allow_private: bool | None = None) -> Url:
    """``url`` parsed, if the server may call it: raises ``Refused`` (with the reason) or
    ``Unresolved``. The reason names the kind of address, not the address."""
    parsed = parse(url)
    allow = _allow_private(allow_private)
    for ip in addresses(parsed):
        reason = refusal(ip, allow_private=allow)
        if reason:
            raise Refused(f"Its host is {reason}: the site calls only addresses on the internet.")
    return parsed


# --- the total deadline: a watchdog over the request's sockets -------------------------------


class _Watch:
    """The sockets one request opened (each a duplicate of the connection's descriptor, so it
    shuts the connection at every stage, TLS included); ``cut`` shuts them all."""

    def __init__(self, allow_private: bool = False) -> None:
        self.lock = threading.Lock()
        self.sockets: list[socket.socket] = []
        self.was_cut = False
        self.over = False
        self.allow_private = allow_private  # (for the address each socket connected to)

    def add(self, sock: socket.socket) -> None:
        with self.lock:
            if self.over:
                return
            self.sockets.append(sock.dup())
            if self.was_cut:
                self._shut(self.sockets[-1])

    def cut(self) -> None:
        with self.lock:
            if self.over:
                return
            self.was_cut = True
            for sock in self.sockets:
                self._shut(sock)

    def close(self) -> None:
        with self.lock:
            self.over = True
            for sock in self.sockets:
                sock.close()
            self.sockets.clear()

    @staticmethod
    def _shut(sock: socket.socket) -> None:
        with contextlib.suppress(OSError):  # closed already
            sock.shutdown(socket.SHUT_RDWR)


_WATCH: contextvars.ContextVar[_Watch | None] = contextvars.ContextVar("outbound", default=None)


class _RefusedPeer(Exception):  # noqa: N818 (raised through urllib3, turned into Refused)
    """The address a socket connected to is refused. Not an ``OSError`` (nor a requests
    exception, which is one): urllib3 would take that for a network failure and try again or
    wrap it; ``Session.send`` turns this into ``Refused``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _watched(sock: socket.socket) -> socket.socket:
    """The request's new socket, seen by its watch, once the address it connected to passes
    ``refusal`` (whatever resolved it: the check's resolution, the pinned adapter's, or a
    second one that answered otherwise); closed before a byte is sent otherwise."""
    watch = _WATCH.get()
    if watch is not None:
        watch.add(sock)
    try:
        peer = ipaddress.ip_address(str(sock.getpeername()[0]).split("%", 1)[0])
    except (OSError, ValueError, IndexError, TypeError):
        return sock  # (not an IP socket: nothing to check)
    reason = refusal(peer, allow_private=watch.allow_private if watch is not None else False)
    if reason:
        sock.close()
        raise _RefusedPeer(f"Its host is {reason}: the site calls only addresses on the internet.")
    return sock


class _HTTPConnection(HTTPConnection):
    def _new_conn(self) -> socket.socket:
        return _watched(super()._new_conn())


class _HTTPSConnection(HTTPSConnection):
    def _new_conn(self) -> socket.socket:
        return _watched(super()._new_conn())


class _HTTPPool(HTTPConnectionPool):
    ConnectionCls = _HTTPConnection


class _HTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _HTTPSConnection


class _WatchedPools:
    """An adapter whose connections the request's watch sees."""

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)  # type: ignore[misc]
        self.poolmanager.pool_classes_by_scheme = {"http": _HTTPPool, "https": _HTTPSPool}  # type: ignore[attr-defined]


class _PinnedAdapter(_WatchedPools, IPFilterAdapter):
    """requests-hardened's: connects to the address it resolved and checked."""


class _CheckedAdapter(_WatchedPools, HTTPAdapter):
    """requests' own, for ``OUTBOUND_ALLOW_PRIVATE`` (``check`` before each request)."""


# --- the session -----------------------------------------------------------------------------


class Session(HTTPSession):
    """The only way the site calls an address a user gave it: ``check`` before each request,
    the connection pinned to the checked address (unless private addresses are allowed), no
    redirect, at most ``deadline`` seconds in all, an answer's body of ``MAX_BODY`` at most.
    No connection outlives its request (each is watched from its opening)."""

    def __init__(self, deadline: float, *, allow_private: bool | None = None) -> None:
        self.deadline = float(deadline)
        self.allow_private = _allow_private(allow_private)
        super().__init__(
            Config(
                ip_filter_enable=False,  # its adapters are mounted below, watched
                ip_filter_allow_loopback_ips=False,
                never_redirect=True,
                default_timeout=(self.deadline, self.deadline),
            )
        )
        self.trust_env = False  # no proxy, no netrc credentials from the environment
        for scheme in ("http://", "https://"):
            if self.allow_private:
                self.mount(scheme, _CheckedAdapter())
            else:
                self.mount(scheme, _PinnedAdapter(is_https_proto=scheme == "https://"))

    def send(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:
        check(request.url or "", allow_private=self.allow_private)
        kwargs.update(stream=True, allow_redirects=False, timeout=(self.deadline, self.deadline))
        watch = _Watch(self.allow_private)
        token = _WATCH.set(watch)
        timer = threading.Timer(self.deadline, watch.cut)
        timer.daemon = True
        timer.start()
        try:
            answer = super().send(request, **kwargs)
            answer._content = _body(answer)
            answer._content_consumed = True
            return answer
        except _RefusedPeer as exc:
            raise Refused(exc.reason, request=request) from None
        except Exception as exc:
            if watch.was_cut:
                raise DeadlinePassed(
                    f"No whole answer within {self.deadline:g} s.", request=request
                ) from exc
            raise
        finally:
            timer.cancel()
            watch.close()
            _WATCH.reset(token)
            for adapter in self.adapters.values():
                adapter.close()  # no connection kept for a later request, out of its watch


def _body(answer: requests.Response) -> bytes:
    body = bytearray()
    try:
        for chunk in answer.iter_content(8192):
            body += chunk
            if len(body) > MAX_BODY:
                break
    finally:
        answer.close()
    return bytes(body[:MAX_BODY])


def post(url: str, *, deadline: float, json: Any = None, **kwargs: Any) -> requests.Response:
    """POST to ``url`` through the guard (raises ``requests.RequestException``: ``Refused``,
    ``Unresolved``, ``DeadlinePassed``, ...)."""
    with Session(deadline) as session:
        return session.post(url, json=json, **kwargs)


def outcome(result: requests.Response | BaseException) -> str:
    """What a page may say of a try: "answered 500", "refused", "timed out", "unreachable"."""
    if isinstance(result, requests.Response):
        return f"answered {result.status_code}"
    if isinstance(result, Refused | InvalidIPAddress):
        return "refused"
    if isinstance(result, requests.Timeout):
        return "timed out"
    return "unreachable"
