"""`tessera serve` on an open network, attacked with raw sockets (docs/web.md, "Security
and limits"; ``tessera.web.connections``): clients that send nothing, trickle their
headers (slowloris) or stall mid-body are cut at the read deadlines; 20,000 half-open
connections leave the server under its cap; an event stream its page stops reading is
closed at the write deadline, and its search stops; past the cap with every connection
busy, new ones are closed at once; out of descriptors, accepts wait. Each time the server stays up,
answers a normal request promptly afterwards, and its log holds nothing but its address
line (one warning a minute where accepts fail)."""

import collections
import json
import os
import resource
import socket
import time
from contextlib import ExitStack

import httpx
import pytest

from tessera.web.connections import IN_FLIGHT
from tests.cli_process import tessera
from tests.web_server import running_server

pytestmark = [
    pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts the server's descriptors in /proc"),
    pytest.mark.long,  # a real server a test, attacked for seconds: the quick tier leaves them out
]

DEADLINE = 1.0  # the servers' header, body and write timeouts here
SLACK = 1.5  # seconds a cut may come after its deadline on a busy machine
WAIT_SECONDS = 60


def address(url):
    host, port = url.removeprefix("http://").split(":")
    return host, int(port)


def descriptors(process):
    return len(os.listdir(f"/proc/{process.pid}/fd"))


def log_lines(process):
    """What the server printed beyond its address line."""
    return [line for line in "".join(process.output).splitlines() if not line.startswith("Tessera board at")]


def assert_quiet(process):
    assert log_lines(process) == [], "".join(process.output)


def fetch(url, path="/api/games", timeout=WAIT_SECONDS):
    """(status, seconds) of a plain GET on a fresh connection, its headers in one write."""
    started = time.monotonic()
    with socket.create_connection(address(url), timeout=timeout) as conn:
        host = url.removeprefix("http://")
        conn.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    return int(answer.split(b" ", 2)[1]), time.monotonic() - started


def assert_prompt(url, seconds=2.0):
    status, took = fetch(url)
    assert status == 200 and took < seconds, (status, took)


def wait_ready(url):
    """Until the server's kernels and analysis engine have loaded (a search's descriptors open)."""
    deadline = time.monotonic() + WAIT_SECONDS
    with httpx.Client(base_url=url, timeout=WAIT_SECONDS) as client:
        while not client.get("/api/warmup").json()["ready"]:
            assert time.monotonic() < deadline, "the server's kernels did not load"
            time.sleep(0.2)


def read_until_closed(conns, until, received=None):
    """{conn: (seconds from now until the server closed it, what it sent)}, each socket
    non-blocking; those still open at ``until`` seconds are left out. ``received`` (conn:
    bytes) keeps what was read across calls: an answer may come in one call, its end in the
    next."""
    started = time.monotonic()
    received = {} if received is None else received
    for conn in conns:
        received.setdefault(conn, b"")
    closed = {}
    while len(closed) < len(conns) and time.monotonic() - started < until:
        for conn in conns:
            if conn in closed:
                continue
            try:
                chunk = conn.recv(65536)
            except BlockingIOError:
                continue
            except ConnectionResetError:
                chunk = b""
            if chunk:
                received[conn] += chunk
            else:
                closed[conn] = (time.monotonic() - started, received[conn])
        time.sleep(0.02)
    return closed


def trickle(url, head, count, every=0.1, until=DEADLINE + SLACK + 2):
    """``count`` connections that send ``head`` whole, then one byte of padding each
    ``every`` seconds, never ending their request: {conn: (seconds from the start until
    the server closed it, what it sent)} of those it closed within ``until`` seconds."""
    with ExitStack() as stack:
        conns = [stack.enter_context(socket.create_connection(address(url), timeout=5)) for _ in range(count)]
        started = time.monotonic()
        for conn in conns:
            conn.sendall(head)
            conn.setblocking(False)
        closed, answered, received = {}, set(), {}
        while len(closed) < count and time.monotonic() - started < until:
            for conn in conns:
                if conn in closed or conn in answered:
                    continue
                try:
                    if conn.recv(1, socket.MSG_PEEK):
                        answered.add(conn)  # a client reads its answer, and stops
                        continue
                except BlockingIOError:
                    pass
                except OSError:
                    continue
                try:
                    conn.send(b"a")
                except OSError:  # closed by the server: what it sent is read below
                    pass
            offset = time.monotonic() - started
            for conn, (seconds, answer) in read_until_closed(
                [c for c in conns if c not in closed], every, received
            ).items():
                closed[conn] = (offset + seconds, answer)
        return closed


@pytest.fixture(scope="module")
def board():
    """(the URL, the process) of a board whose read and write deadlines are DEADLINE."""
    deadlines = ("--header-timeout", "--body-timeout", "--write-timeout")
    with running_server(*(value for option in deadlines for value in (option, str(DEADLINE))), "--searches", "1") as (
        url,
        process,
    ):
        yield url, process


def test_a_connection_that_sends_nothing_is_closed_at_the_deadline_without_a_word(board):
    url, process = board
    with ExitStack() as stack:
        conns = [stack.enter_context(socket.create_connection(address(url), timeout=5)) for _ in range(200)]
        for conn in conns:
            conn.setblocking(False)
        closed = read_until_closed(conns, DEADLINE + SLACK + 2)
    assert len(closed) == 200
    assert all(DEADLINE - 0.2 <= seconds <= DEADLINE + SLACK and answer == b"" for seconds, answer in closed.values())
    assert_prompt(url)
    assert_quiet(process)


def test_headers_trickled_a_byte_at_a_time_are_cut_with_a_408(board):
    """Slowloris: 100 clients each sending a header byte every 0.1 s, never ending."""
    url, process = board
    head = f"GET /api/games HTTP/1.1\r\nHost: {url.removeprefix('http://')}\r\nX-Padding: ".encode()
    closed = trickle(url, head, 100)
    assert_prompt(url)  # while they trickled, and after
    assert len(closed) == 100
    for seconds, answer in closed.values():
        assert DEADLINE - 0.2 <= seconds <= DEADLINE + SLACK
        status, _, body = answer.partition(b"\r\n\r\n")
        assert status.startswith(b"HTTP/1.1 408 ") and "in time" in json.loads(body)["error"], answer
    assert_quiet(process)


@pytest.mark.parametrize("stall", ["stops", "trickles"])
def test_a_body_that_stalls_or_trickles_is_cut_with_a_408(board, stall):
    url, process = board
    head = (
        f"POST /api/new HTTP/1.1\r\nHost: {url.removeprefix('http://')}\r\n"
        "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
        '{"game": "azul", "padding": "'
    ).encode()
    closed = trickle(url, head, 50, every=0.1 if stall == "trickles" else 60)
    assert len(closed) == 50
    for seconds, answer in closed.values():
        assert DEADLINE - 0.2 <= seconds <= DEADLINE + SLACK
        assert answer.startswith(b"HTTP/1.1 408 "), answer
    assert_prompt(url)
    assert_quiet(process)


def test_a_request_sent_in_pieces_in_time_is_answered(board):
    url, process = board
    body = b'{"game": "azul", "seed": 3}'
    head = (
        f"POST /api/new HTTP/1.1\r\nHost: {url.removeprefix('http://')}\r\nContent-Type: application/json\r\n"
        f"Connection: close\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode()
    with socket.create_connection(address(url), timeout=WAIT_SECONDS) as conn:
        for piece in (head[:20], head[20:], body[:5], body[5:]):
            time.sleep(DEADLINE / 5)
            conn.sendall(piece)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 200 "), answer[:200]
    assert_quiet(process)


def stream_status(url):
    with httpx.Client(base_url=url, timeout=WAIT_SECONDS) as client:
        return client.get("/api/analysis/status").json()


def test_an_event_stream_its_page_stops_reading_is_closed_and_its_search_stops(board):
    """A page opens its stream, starts a long analysis and reads no more: once the answers
    fill the send buffers, the stream is closed at the write deadline, and the page's slot
    and its search are freed."""
    url, process = board
    wait_ready(url)
    with socket.socket() as conn:
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # little room: the server's buffers fill
        conn.settimeout(WAIT_SECONDS)
        conn.connect(address(url))
        conn.sendall(f"GET /api/analysis/stream HTTP/1.1\r\nHost: {url.removeprefix('http://')}\r\n\r\n".encode())
        received = b""
        while b"\n\n" not in received.partition(b"data:")[2]:
            received += conn.recv(4096)
        tab = json.loads(received.partition(b"data:")[2].partition(b"\n")[0])["tab"]
        with httpx.Client(base_url=url, timeout=WAIT_SECONDS) as client:
            position = client.post("/api/new", json={"game": "azul", "seed": 1}).json()["text"]
            started = client.post("/api/analysis/start", json={"tab": tab, "position": position, "seconds": 100})
            assert started.status_code == 200, started.text
        assert stream_status(url) == {"tabs": 1, "searching": 1}
        deadline = time.monotonic() + WAIT_SECONDS
        while stream_status(url)["tabs"]:  # the page reads nothing more
            assert time.monotonic() < deadline, "the stream of a page that reads nothing stayed open"
            time.sleep(0.2)
        assert stream_status(url) == {"tabs": 0, "searching": 0}
        conn.settimeout(DEADLINE + SLACK)
        with pytest.raises(ConnectionResetError):  # reset: what it did not take is dropped
            while conn.recv(65536):
                pass
    assert_prompt(url)
    assert_quiet(process)


def hold_half_open(url, total, window, sample):
    """Open ``total`` connections in batches, each sending the start of a request and no
    more; at most ``window`` are held at once (the oldest closed first: the test's own
    descriptors are limited). ``sample()`` runs after each batch. The connections still
    held, as a deque."""
    held = collections.deque()
    start = f"GET / HTTP/1.1\r\nHost: {url.removeprefix('http://')}\r\n".encode()
    batch = 200
    for _ in range(0, total, batch):
        fresh = []
        for _ in range(batch):
            if len(held) >= window:
                held.popleft().close()
            conn = socket.socket()
            conn.setblocking(False)
            try:
                conn.connect(address(url))
            except BlockingIOError:
                pass
            held.append(conn)
            fresh.append(conn)
        time.sleep(0.005)
        for conn in fresh:
            try:
                conn.send(start)
            except OSError:  # not connected yet, or closed by the server: half-open either way
                pass
        sample()
    return held


@pytest.mark.long
def test_twenty_thousand_half_open_connections_leave_the_server_under_its_cap():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    window = min(20_000, hard) - 300
    if soft < window + 300:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(20_000, hard), hard))
    try:
        with running_server("--header-timeout", "2") as (url, process):
            wait_ready(url)
            base = descriptors(process)
            most = [base]
            held = hold_half_open(url, 20_000, window, lambda: most.append(descriptors(process)))
            try:
                time.sleep(0.3)
                assert_prompt(url)  # the newest half-open ones are closed to make room for it
                # The cap (1000) and what the accepts hold before the protocol sees them.
                assert max(most) <= base + 1000 + IN_FLIGHT, max(most)
                assert max(most) < soft
            finally:
                for conn in held:
                    conn.close()
            deadline = time.monotonic() + 2 + SLACK + 2
            while descriptors(process) > base + 10:
                assert time.monotonic() < deadline, (descriptors(process), base)
                time.sleep(0.1)
            assert_prompt(url)
        assert_quiet(process)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_past_the_cap_with_every_connection_answered_new_ones_are_closed_at_once():
    with running_server("--max-connections", "6", "--searches", "1") as (url, process):
        with ExitStack() as stack:
            client = stack.enter_context(httpx.Client(base_url=url, timeout=WAIT_SECONDS))
            streams = [stack.enter_context(client.stream("GET", "/api/analysis/stream")) for _ in range(6)]
            lines = [stream.iter_lines() for stream in streams]  # held: a stream is open while its reader is
            for stream_lines in lines:  # each names its page: each is being answered
                assert next(line for line in stream_lines if line.startswith("data:"))
            refused = [stack.enter_context(socket.create_connection(address(url), timeout=5)) for _ in range(50)]
            for conn in refused:
                conn.setblocking(False)
            closed = read_until_closed(refused, 3)
            assert len(closed) == 50 and all(answer == b"" for _, answer in closed.values())
            streams[0].close()
            deadline = time.monotonic() + 5
            while True:  # the closed stream's connection goes: room for one
                try:
                    assert_prompt(url)
                    break
                except (ConnectionError, IndexError):
                    assert time.monotonic() < deadline, "no room after a stream closed"
                    time.sleep(0.1)
    assert_quiet(process)


def test_out_of_descriptors_accepts_wait_and_the_log_says_so_once():
    with running_server("--searches", "1", open_files=300) as (url, process):
        wait_ready(url)
        held = hold_half_open(url, 3000, 2500, lambda: None)
        for conn in held:
            conn.close()
        deadline = time.monotonic() + 10
        while True:  # accepts resume a second after they failed, and the backlog drains
            try:
                assert_prompt(url)
                break
            except (ConnectionError, IndexError, TimeoutError):
                assert time.monotonic() < deadline, "the server did not take connections again"
                time.sleep(0.2)
        assert_prompt(url)
    lines = log_lines(process)
    assert len(lines) <= 1 and all("cannot accept connections for now" in line for line in lines), lines
    assert "Traceback" not in "".join(process.output)


@pytest.mark.parametrize(
    "option, value, message",
    [
        ("--header-timeout", "0", "Invalid value for '--header-timeout'"),
        ("--body-timeout", "-1", "Invalid value for '--body-timeout'"),
        ("--body-timeout", "nan", "--body-timeout must be a number of seconds, not nan"),
        ("--write-timeout", "0", "Invalid value for '--write-timeout'"),
        ("--write-timeout", "nan", "--write-timeout must be a number of seconds, not nan"),
        ("--header-timeout", "inf", "Invalid value for '--header-timeout'"),
        ("--review-seconds", "nan", "--review-seconds must be a number of seconds, not nan"),
        ("--review-seconds", "121", "Invalid value for '--review-seconds'"),
        ("--max-connections", "0", "Invalid value for '--max-connections'"),
        ("--max-connections", "many", "Invalid value for '--max-connections'"),
    ],
)
def test_a_bad_limit_is_refused_before_the_server_starts(option, value, message):
    with socket.socket() as taken:  # a server that started anyway would fail on it at once
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        result = tessera("serve", "--port", taken.getsockname()[1], option, value)
    assert result.returncode == 2 and message in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
