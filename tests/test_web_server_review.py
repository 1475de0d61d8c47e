"""A game review on a real `tessera serve` keeps to the server's limits (docs/web.md, "Game
review"; ``tessera.web.review``): each position is searched for at most
``--review-seconds``, whatever visits the page asks, and a review holds one search process
at a time, so that another page's analysis waits for one position's search at most, not
for the whole review. Driven over HTTP, event streams included, on the real server."""

import json
import queue
import random
import socket
import threading
import time

import httpx
import pytest

from tessera.web import documents
from tests.web_server import running_server

pytestmark = pytest.mark.long  # a real server attacked for seconds: the quick tier leaves it out

REVIEW_SECONDS = 0.3  # the server's search of a review's position here
VISITS = 100_000  # what the page asks a position: about 4 s of an Azul search on one core
WAIT_SECONDS = 120
SLACK = 2.5  # seconds of a busy machine's delays a wait may take beyond its budget


def page_history(seed, plies):
    """A seeded Azul game as the page's history holds it: positions and the moves to them."""
    position, draws = documents.new_game("azul", seed, {})
    choose = random.Random(seed)
    history = [{"text": position.text(), "move": None}]
    while not position.is_over and len(history) <= plies:
        moves = [text for text, _ in position.chance_outcomes()] if position.is_chance else position.legal_moves
        move = choose.choice(moves)
        position, _ = documents.play(position, move, draws, True)
        history.append({"text": position.text(), "move": move})
    return history


class Page:
    """A page: its event stream read from a raw socket in a thread (``events`` gets
    (kind, document, when)), its requests sent through ``client``."""

    def __init__(self, url):
        self.client = httpx.Client(base_url=url, timeout=WAIT_SECONDS)
        self.events = queue.Queue()
        host, port = url.removeprefix("http://").split(":")
        self.conn = socket.create_connection((host, int(port)), timeout=WAIT_SECONDS)
        # HTTP/1.0: the answer's body is the stream itself, to the connection's end.
        self.conn.sendall(f"GET /api/analysis/stream HTTP/1.0\r\nHost: {host}:{port}\r\n\r\n".encode())
        lines = self.conn.makefile("rb")
        assert lines.readline().startswith(b"HTTP/1.1 200 ")
        while lines.readline().strip():
            pass
        self.tab = None
        opened = threading.Event()

        def read():
            kind = None
            try:
                for line in lines:
                    line = line.decode().rstrip("\r\n")
                    if line.startswith("event:"):
                        kind = line[6:].strip()
                    elif line.startswith("data:"):
                        document = json.loads(line[5:])
                        if kind == "tab":
                            self.tab = document["tab"]
                            opened.set()
                        else:
                            self.events.put((kind, document, time.monotonic()))
            except OSError:  # closed by the test
                pass

        self.reader = threading.Thread(target=read, daemon=True)
        self.reader.start()
        assert opened.wait(timeout=WAIT_SECONDS), "the page's stream did not open"

    def next(self, kind, timeout=WAIT_SECONDS):
        deadline = time.monotonic() + timeout
        while True:
            got, document, when = self.events.get(timeout=max(0.01, deadline - time.monotonic()))
            if got == kind:
                return document, when

    def close(self):
        self.conn.shutdown(socket.SHUT_RDWR)
        self.conn.close()
        self.reader.join(10)
        self.client.close()


@pytest.fixture(scope="module")
def board():
    with running_server("--searches", "1", "--review-seconds", str(REVIEW_SECONDS)) as (url, process):
        with httpx.Client(base_url=url, timeout=WAIT_SECONDS) as client:
            deadline = time.monotonic() + WAIT_SECONDS
            while not client.get("/api/warmup").json()["ready"]:
                assert time.monotonic() < deadline, "the server's kernels did not load"
                time.sleep(0.2)
            assert client.get("/api/status").json()["review_seconds"] == REVIEW_SECONDS
        yield url, process
    assert "Traceback" not in "".join(process.output), "".join(process.output)


def start_review(page, history):
    answer = page.client.post("/api/review/start", json={"tab": page.tab, "history": history, "visits": VISITS})
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_each_position_of_a_review_is_searched_within_the_servers_time(board):
    url, _ = board
    page = Page(url)
    try:
        history = page_history(seed=3, plies=10)
        started = time.monotonic()
        review = start_review(page, history)
        points = []
        while True:
            event, _ = page.next("review")
            assert not event.get("error") and not event.get("stopped"), event
            points += [point for point in event["positions"] if "answer" in point]
            if event.get("finished"):
                break
        took = time.monotonic() - started
    finally:
        page.close()
    assert len(points) == review["total"] == 11
    # Each search was cut by time, far short of the visits asked (about 4 s of them).
    assert all(point["answer"]["visits"] < VISITS for point in points)
    assert took < review["total"] * REVIEW_SECONDS + SLACK * 2, took


def test_another_pages_analysis_waits_for_one_review_position_at_most(board):
    """One search process; page A reviews 40 positions at 100,000 visits each (about 12 s
    at the server's limit, 150 s without it); page B's 1-s analysis, started once A's
    review runs, answers within its own second and one review position's search."""
    url, _ = board
    reviewer, analyst = Page(url), Page(url)
    try:
        history = page_history(seed=5, plies=39)
        start_review(reviewer, history)
        reviewer.next("review")  # the start
        reviewer.next("review")  # a position searched: the review holds the search process
        asked = time.monotonic()
        position = history[len(history) // 2]["text"]
        body = {"tab": analyst.tab, "position": position, "seconds": 1}
        started = analyst.client.post("/api/analysis/start", json=body)
        assert started.status_code == 200, started.text
        while True:
            answer, answered = analyst.next("analysis")
            if answer["id"] == started.json()["id"] and not answer["isDuringSearch"]:
                break
        assert answered - asked < 1 + REVIEW_SECONDS + SLACK, answered - asked
        # ... and the review goes on after it, sharing the process.
        event, when = reviewer.next("review")
        while when < answered:
            assert not event.get("finished"), event
            event, when = reviewer.next("review")
        assert not event.get("finished")
        assert reviewer.client.post("/api/review/stop", json={"tab": reviewer.tab}).status_code == 200
        while not event.get("finished"):
            event, _ = reviewer.next("review")
        assert event.get("stopped"), event
    finally:
        reviewer.close()
        analyst.close()
