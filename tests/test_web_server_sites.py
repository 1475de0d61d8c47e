"""Other sites against a real `tessera serve`, over raw sockets (docs/web.md, "Security and
limits"; ``tessera.web.guard``): no page may frame the board; event streams and POSTs
whose fetch metadata or Origin says another site, a link's navigation included, are
refused, so a foreign page's flood of streams leaves the user's page its slot; the
``?token=`` redirect goes to a path of this server, whatever the target; scripts without
fetch metadata pass, with the token where the server has one."""

import json
import socket
from contextlib import ExitStack
from urllib.parse import urljoin, urlsplit

import pytest

from tessera.web.analysis import MAX_TABS
from tests.web_server import running_server

pytestmark = pytest.mark.long  # a real server attacked for seconds: the quick tier leaves it out

WAIT_SECONDS = 60
TOKEN = "s3cret"


def address(url):
    host, port = url.removeprefix("http://").split(":")
    return host, int(port)


def send(url, target, headers=(), method="GET", body=b""):
    """A connection that has sent one request (HTTP/1.0: the answer ends with it)."""
    host = url.removeprefix("http://")
    lines = [f"{method} {target} HTTP/1.0", f"Host: {host}", *headers]
    if body:
        lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    conn = socket.create_connection(address(url), timeout=WAIT_SECONDS)
    conn.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
    return conn


def head_of(conn):
    """(status, {header: [values]}) of the answer on ``conn``, its headers read."""
    raw = b""
    while b"\r\n\r\n" not in raw:
        chunk = conn.recv(65536)
        assert chunk, raw
        raw += chunk
    return parse_head(raw.split(b"\r\n\r\n", 1)[0])


def parse_head(head):
    status, *lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines:
        name, _, value = line.partition(":")
        headers.setdefault(name.strip().lower(), []).append(value.strip())
    return int(status.split()[1]), headers


def answer(url, target, headers=(), method="GET", body=b""):
    """(status, headers, body) of one request."""
    with send(url, target, headers, method, body) as conn:
        raw = b""
        while chunk := conn.recv(65536):
            raw += chunk
    head, _, content = raw.partition(b"\r\n\r\n")
    return *parse_head(head), content


def tabs(url):
    status, _, body = answer(url, "/api/analysis/status")
    assert status == 200
    return json.loads(body)["tabs"]


@pytest.fixture(scope="module")
def board():
    with running_server("--searches", "1") as (url, process):
        yield url, process
    assert "Traceback" not in "".join(process.output), "".join(process.output)


PAGE = ("Sec-Fetch-Site: same-origin", "Sec-Fetch-Mode: cors", "Sec-Fetch-Dest: empty")


def test_every_answer_forbids_framing(board):
    url, _ = board
    host = url.removeprefix("http://")
    for target, headers, method, body, status in [
        ("/", (), "GET", b"", 200),
        ("/api/games", (), "GET", b"", 200),
        ("/static/app.js", (), "GET", b"", 200),
        ("/no-such-page", (), "GET", b"", 404),
        ("/api/new", (), "GET", b"", 405),
        ("/api/new", (), "POST", b"{", 400),
        ("/api/new", (f"Origin: http://attacker.example:{host.split(':')[1]}",), "POST", b"{}", 403),
    ]:
        got, answered, _ = answer(url, target, headers, method, body)
        assert got == status, (target, got)
        assert answered["content-security-policy"] == ["frame-ancestors 'none'"], target
        assert answered["x-frame-options"] == ["DENY"], target
        assert answered["x-content-type-options"] == ["nosniff"], target


# A foreign page's ways to open the board's event stream, each as its browser sends it.
FOREIGN_STREAMS = {
    "a link or window.open": ("Sec-Fetch-Site: cross-site", "Sec-Fetch-Mode: navigate", "Sec-Fetch-Dest: document"),
    "an iframe": ("Sec-Fetch-Site: cross-site", "Sec-Fetch-Mode: navigate", "Sec-Fetch-Dest: iframe"),
    "an EventSource": (
        "Sec-Fetch-Site: cross-site",
        "Sec-Fetch-Mode: cors",
        "Sec-Fetch-Dest: empty",
        "Origin: http://attacker.example",
    ),
    "an image": ("Sec-Fetch-Site: cross-site", "Sec-Fetch-Mode: no-cors", "Sec-Fetch-Dest: image"),
    "a page on another port": (
        "Sec-Fetch-Site: same-site",
        "Sec-Fetch-Mode: cors",
        "Sec-Fetch-Dest: empty",
        "Origin: http://127.0.0.1:1234",
    ),
    "a link on another port": ("Sec-Fetch-Site: same-site", "Sec-Fetch-Mode: navigate", "Sec-Fetch-Dest: document"),
}


def test_a_cross_site_stream_flood_leaves_the_pages_slot(board):
    url, _ = board
    with ExitStack() as stack:
        flood = [
            (way, stack.enter_context(send(url, "/api/analysis/stream", headers)))
            for way, headers in FOREIGN_STREAMS.items()
            for _ in range(MAX_TABS + 4)
        ]
        for way, conn in flood:
            status, _ = head_of(conn)
            assert status == 403, way
        assert tabs(url) == 0
        # The user's page gets its stream, and searches.
        page = stack.enter_context(send(url, "/api/analysis/stream", PAGE))
        status, _ = head_of(page)
        assert status == 200 and tabs(url) == 1
    for headers in FOREIGN_STREAMS.values():  # nor can another site start work by a POST
        for route in ("/api/analysis/start", "/api/review/start", "/api/new", "/api/engine-move"):
            status, _, body = answer(url, route, headers, "POST", b'{"game": "azul"}')
            assert status == 403 and "another" in json.loads(body)["error"], (route, headers)


def test_a_link_from_another_site_opens_the_page_only(board):
    url, _ = board
    link = ("Sec-Fetch-Site: cross-site", "Sec-Fetch-Mode: navigate", "Sec-Fetch-Dest: document", "Sec-Fetch-User: ?1")
    assert answer(url, "/", link)[0] == 200
    for target in ("/api/games", "/api/status", "/static/app.js", "/api/analysis/stream"):
        status, _, body = answer(url, target, link)
        assert status == 403 and "opens the page only" in json.loads(body)["error"], target
    typed = ("Sec-Fetch-Site: none", "Sec-Fetch-Mode: navigate", "Sec-Fetch-Dest: document")
    assert answer(url, "/api/games", typed)[0] == 200  # the user's own typing


def test_scripts_without_fetch_metadata_pass_with_the_token_where_there_is_one(board):
    url, _ = board
    with send(url, "/api/analysis/stream") as script:
        assert head_of(script)[0] == 200  # a loopback board without a token: the user's own tools
    with running_server("--token", TOKEN) as (guarded, process):
        with send(guarded, "/api/analysis/stream") as stranger:
            assert head_of(stranger)[0] == 403
        with send(guarded, "/api/analysis/stream", (f"X-Tessera-Token: {TOKEN}",)) as script:
            assert head_of(script)[0] == 200
        cross = (f"X-Tessera-Token: {TOKEN}", "Sec-Fetch-Site: cross-site", "Sec-Fetch-Mode: navigate")
        with send(guarded, "/api/analysis/stream", cross) as foreign:
            assert head_of(foreign)[0] == 403  # the token does not make another site's request the user's
    assert "Traceback" not in "".join(process.output)


def test_the_token_redirect_goes_to_a_path_of_this_server_only():
    with running_server("--token", TOKEN) as (url, process):
        own = f"{url}/"
        cookie = f"tessera-token-{url.rsplit(':', 1)[1]}={TOKEN}"
        for target in (
            f"//evil.example/?token={TOKEN}",
            f"//evil.example?token={TOKEN}",
            f"///evil.example/?token={TOKEN}",
            f"/\\evil.example/?token={TOKEN}",
            f"/\\\\evil.example?token={TOKEN}",
            f"/%5Cevil.example?token={TOKEN}",
            f"/%2F%2Fevil.example?token={TOKEN}",
            f"http://evil.example/?token={TOKEN}",
            f"https://evil.example//x?token={TOKEN}",
            f"/%0D%0ASet-Cookie:%20x=1?token={TOKEN}",
            f"/?token={TOKEN}&next=//evil.example",
        ):
            status, headers, _ = answer(url, target)
            assert status == 303, (target, status)
            (location,) = headers["location"]
            assert location.startswith("/") and location[1:2] not in ("/", "\\"), (target, location)
            assert urlsplit(urljoin(own, location)).netloc == url.removeprefix("http://"), (target, location)
            assert headers["set-cookie"] == [f"{cookie}; Path=/; HttpOnly; SameSite=Strict"]
        status, headers, _ = answer(url, f"/?token={TOKEN}&seat=2")
        assert status == 303 and headers["location"] == ["/?seat=2"]
        assert answer(url, "/", (f"Cookie: {cookie}",))[0] == 200
    assert "Traceback" not in "".join(process.output)
