"""Who may drive the board, checked before any route runs (an ASGI middleware), and the
last word on a defect.

A local server is reachable by every web page its user visits: a page cannot read a
cross-origin answer, but it can send requests, and a DNS-rebinding page (its own name
pointed at 127.0.0.1) is same-origin with the server. So, as local notebook servers do:

- the ``Host`` header must name the server: the address it listens on, ``localhost``,
  ``127.0.0.1`` or ``[::1]``, with its port (any host when it listens on every
  interface; its token then guards it);
- a request with an ``Origin`` from another origin is refused; so is one whose fetch
  metadata (``Sec-Fetch-Site``) names another site (``cross-site``) or another origin of
  the same site (``same-site``: a page on another port of localhost), except a link
  followed to the page itself (a GET navigation of ``/``), which starts nothing: the
  event stream and every POST, which start work, never come from another site. A request
  with neither fetch metadata nor ``Origin`` is not a current browser's (they send fetch
  metadata to a local server) but the user's own tool, curl or a script: it passes, with
  the token when the server has one;
- a POST must be ``Content-Type: application/json``, which no HTML form can send and
  no cross-origin script can send without a preflight the server never grants;
- with a token (``tessera serve --token``, made up when the server listens beyond
  loopback), every request carries it: ``?token=`` once (the server answers with a
  cookie and sends the browser on without it), the cookie, or an ``X-Tessera-Token``
  header for scripts. The address it sends the browser on to is a path of this server,
  whatever the request's target was (``//host``, ``/\\host``, an absolute URL).

Every answer says that no page may frame the board (``Content-Security-Policy:
frame-ancestors 'none'`` and ``X-Frame-Options: DENY``), that its content types are
meant (``X-Content-Type-Options: nosniff``) and that no other origin may embed its
answers (``Cross-Origin-Resource-Policy: same-origin``).

Refusals are JSON, 403 or 415. An exception no route turned into an answer is a defect:
its traceback is printed once and the client gets HTTP 500 with ``{"error"}``; a client
that went away mid-request gets nothing and leaves nothing in the log.
"""

import ipaddress
import json
import secrets
import traceback
from urllib.parse import parse_qsl, quote, urlencode

from starlette.datastructures import Headers

from tessera.web.http import ClientGone

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
WILDCARD = ("0.0.0.0", "::", "")
TOKEN_HEADER = "x-tessera-token"
# On every answer: no page frames the board (clickjacking), no content is sniffed as
# another type, no other origin embeds an answer.
SAFETY_HEADERS = [
    (b"content-security-policy", b"frame-ancestors 'none'"),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"cross-origin-resource-policy", b"same-origin"),
]
OWN_SITE = ("same-origin", "none")  # Sec-Fetch-Site of the page's own requests, and of the user's typing
PATH_SAFE = "/!$&'()*+,;=:@-._~"  # characters a redirect's path keeps as they are


def is_loopback(host):
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def url_host(host):
    """``host`` as it stands in a URL (an IPv6 address in brackets)."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def cookie_name(port):
    """Cookies do not tell ports apart: each server's token cookie has its own name."""
    return f"tessera-token-{port}"


class Guard:
    def __init__(self, app, host, token=None):
        self.app = app
        self.any_host = host in WILDCARD
        self.names = set(LOOPBACK_NAMES) | {url_host(host)}
        self.token = token

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        send = _with_safety_headers(send)
        headers = Headers(scope=scope)
        port = scope["server"][1] if scope.get("server") else None
        refusal = self._refusal(scope, headers, port)
        if refusal is not None:
            await _answer(send, *refusal)
            return
        query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
        if self.token is not None and "token" in query and scope["method"] == "GET":
            await self._remember_token(scope, send, query, port)
            return
        await self._run(scope, receive, send)

    def _refusal(self, scope, headers, port):
        """(status, message) of a request this server does not take, or None."""
        host = headers.get("host", "")
        if (
            not self.any_host
            and host not in {f"{name}:{port}" for name in self.names}
            and not (port == 80 and host in self.names)
        ):
            return 403, (f"this server answers only to its own address, not to Host {host[:80]!r}")
        origin = headers.get("origin")
        if origin is not None and origin != f"http://{host}":
            return 403, f"requests from another origin ({origin[:80]!r}) are refused"
        site = headers.get("sec-fetch-site")
        if site is not None and site not in OWN_SITE and not _link_to_page(scope, headers):
            return 403, "requests from another site are refused (a link from another site opens the page only)"
        if self.token is not None and not self._has_token(scope, headers, port):
            return 403, ("this board needs its token: open the address with ?token= that tessera serve printed")
        if scope["method"] == "POST":
            media = headers.get("content-type", "").split(";")[0].strip().lower()
            if media != "application/json":
                return 415, (f"a POST must be Content-Type: application/json, not {media[:80] or 'none'}")
        return None

    def _has_token(self, scope, headers, port):
        query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
        cookies = {}
        for part in headers.get("cookie", "").split(";"):
            name, _, value = part.strip().partition("=")
            cookies[name] = value
        given = [query.get("token"), headers.get(TOKEN_HEADER), cookies.get(cookie_name(port))]
        return any(value is not None and secrets.compare_digest(value.encode(), self.token.encode()) for value in given)

    async def _remember_token(self, scope, send, query, port):
        """``?token=`` once: the browser keeps it as a cookie and goes on without it."""
        rest = urlencode([(name, value) for name, value in query.items() if name != "token"])
        location = local_path(scope["path"]) + (f"?{rest}" if rest else "")
        cookie = f"{cookie_name(port)}={self.token}; Path=/; HttpOnly; SameSite=Strict"
        await send(
            {
                "type": "http.response.start",
                "status": 303,
                "headers": [
                    (b"location", location.encode("ascii")),
                    (b"set-cookie", cookie.encode("latin-1")),
                    (b"content-length", b"0"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": b""})

    async def _run(self, scope, receive, send):
        started = False

        async def tracked_send(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracked_send)
        except ClientGone:
            return  # nobody to answer, nothing to report
        except Exception as err:
            traceback.print_exception(err)
            if not started:
                last = traceback.format_exception_only(err)[-1].strip()
                await _answer(send, 500, f"internal error: {last}")


def _with_safety_headers(send):
    """``send`` adding SAFETY_HEADERS to the start of every answer."""

    async def send_safe(message):
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", []), *SAFETY_HEADERS]}
        await send(message)

    return send_safe


def _link_to_page(scope, headers):
    """A link followed from elsewhere to the page itself: a GET navigation of ``/``."""
    return scope["method"] in ("GET", "HEAD") and headers.get("sec-fetch-mode") == "navigate" and scope["path"] == "/"


def local_path(path):
    """``path`` (a request's, decoded) as a path of this server to send a browser to: one
    leading slash, never two or a backslash (which browsers read as a slash), so that no
    target makes it another host's address; anything but a path's plain characters
    percent-encoded, so that it is ASCII with no control characters."""
    return quote("/" + path.lstrip("/\\"), safe=PATH_SAFE)


async def _answer(send, status, message):
    body = json.dumps({"error": message}, ensure_ascii=True).encode("ascii")
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})
