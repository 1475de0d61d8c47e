"""Game review in a real browser (headless chromium, Playwright) against a real `tessera
serve`: a short game played on the board and a self-play game reviewed by the analysis
engine; the graph has one point per position, the marks are those the engine's answers
(as the server gave them to the page) call for, a point or row jumps the board there,
Stop and a closed page stop the review. The review's figures, files and practice, and
docs/web-review.png, are tests/test_web_review_more.py's."""

import copy
import json
import random
import time

import httpx
import pytest

from tessera.position import Position
from tessera.web.review import judge, mark, value_for
from tests.browser_page import BROWSER_MARKS, error_free, open_board
from tests.cli_process import tessera
from tests.web_server import running_server

playwright_api = pytest.importorskip("playwright.sync_api")

WAIT_MS = 120_000

pytestmark = BROWSER_MARKS


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """(the board's URL, its process), reading run folders under the tests' temporary directories."""
    with running_server("--runs", tmp_path_factory.getbasetemp()) as (url, process):
        yield url, process


@pytest.fixture(scope="module")
def server(served):
    return served[0]


def open_page(browser, server):
    page = open_board(browser, server)
    page.wait_for_function("ui.tab !== null", timeout=WAIT_MS)
    return page


@pytest.fixture
def page(browser, server):
    with error_free(open_page(browser, server)) as page:
        yield page


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory):
    """One seeded self-play game: a random player against the greedy one."""
    run = tmp_path_factory.mktemp("review-run") / "run"
    done = tessera(
        "selfplay", "azul", "--games", "1", "--agents", "random,greedy", "--seed", "4", "--workers", "1", "--out", run
    )
    assert done.returncode == 0, done.stderr
    return run


def review(page, visits):
    page.fill("#review-visits", str(visits))
    page.click("#review-start")
    page.wait_for_function("reviewState.running && reviewState.id !== null", timeout=WAIT_MS)


def wait_done(page):
    page.wait_for_function("!reviewState.running && reviewState.finished", timeout=WAIT_MS)


def reviewed(page):
    """(the history reviewed, the points and judged moves the page holds) as Python values."""
    return page.evaluate("""() => ({
        history: reviewState.nodes.map((node) => ({text: node.text, move: node.move})),
        points: Object.fromEntries(reviewState.points),
        judged: Object.fromEntries(reviewState.judged)})""")


def check_against_the_answers(state):
    """Every judged move is what the engine's answers for its position (and the next) say;
    returns the marks by history index."""
    history, points = state["history"], {int(i): p for i, p in state["points"].items()}
    marks = {}
    for i, verdict in ((int(i), v) for i, v in state["judged"].items()):
        answer = points[i]["answer"]
        position = Position.parse(history[i]["text"])
        move = history[i + 1]["move"].removesuffix(" (chance dealt)")
        following = points.get(i + 1)
        after = None
        if following is not None and following.get("answer"):
            after = value_for(
                answer["player"],
                following["player"],
                position.players,
                following["answer"]["win"],
                following["answer"]["margin"],
            )
        elif following is not None and following.get("chances"):  # the game's end
            after = (following["chances"][answer["player"] - 1], following["margins"][answer["player"] - 1])
        expected = judge(answer, position.parse_move(move), after)
        assert verdict == {"index": i, **expected}
        assert verdict["mark"] == mark(verdict["lost"]["win"], verdict["lost"]["points"])
        marks[i] = verdict["mark"]
    return marks


def graph_marks(page):
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#review-graph .review-point')]
        .map((dot) => [dot.dataset.index,
                       ([...dot.classList].find((c) => c.startsWith('mark-')) || '').slice(5) || null]))""")


def test_a_short_game_played_on_the_board_reviewed(page):
    # Player 1 throws tiles on the floor, player 2 takes the first line it can.
    for _ in range(6):
        moves = page.evaluate("current().doc.moves")
        mover = page.evaluate("current().doc.to_move")
        pick = [m for m in moves if (m["destination"] == "floor") == (mover == 1)] or moves
        before = page.evaluate("ui.history.length")
        page.locator(f"#moves button[data-move='{pick[0]['text']}']").click()
        page.wait_for_function(f"ui.history.length === {before + 1}", timeout=WAIT_MS)
    positions = page.evaluate("ui.history.length")
    review(page, 400)
    assert page.locator("#review-progress").is_visible()
    assert page.inner_text("#review-start") == "Stop"
    wait_done(page)
    assert page.inner_text("#review-state") == f"done: {positions} positions"
    assert page.evaluate("[reviewState.done, reviewState.total]") == [positions, positions]
    assert page.evaluate("document.getElementById('review-progress').value") == positions
    # One point per position; every move judged; the marks are the answers' own.
    assert page.locator("#review-graph .review-point").count() == positions
    marks = check_against_the_answers(reviewed(page))
    assert sorted(marks) == list(range(positions - 1))
    drawn = graph_marks(page)
    assert {int(i): m for i, m in drawn.items() if int(i) < positions - 1} == marks
    assert any(marks[i] for i in range(0, positions - 1, 2)), f"tiles thrown on the floor lost nothing: {marks}"
    # A point jumps the board to its position, the best move outlined when another was played.
    page.locator("#review-graph .review-point[data-index='2']").click()
    page.wait_for_function("ui.index === 2 && current().doc", timeout=WAIT_MS)
    if marks[2]:
        assert page.evaluate("ui.best") == reviewed(page)["judged"]["2"]["best"]["move"]
    # The costliest moves, worst first; a row jumps too.
    rows = page.locator("#review-costly tbody tr")
    assert rows.count() > 0
    lost = [float(rows.nth(k).locator("td").nth(3).inner_text()) for k in range(rows.count())]
    assert lost == sorted(lost, reverse=True)
    index = int(rows.first.get_attribute("data-index"))
    rows.first.click()
    page.wait_for_function(f"ui.index === {index}", timeout=WAIT_MS)
    # The current position is ringed; player 2's graph mirrors player 1's (two players).
    assert page.locator("#review-graph .review-point.at").get_attribute("data-index") == str(index)
    first = page.evaluate("reviewState.points.get(0).chances")
    assert first[0] == pytest.approx(1 - first[1])
    heights = {}
    for player in ("1", "2"):
        page.select_option("#review-player", player)
        heights[player] = [
            float(page.locator(f"#review-graph .review-point[data-index='{i}']").get_attribute("cy"))
            for i in range(positions)
        ]
    middle = page.evaluate("REVIEW_GRAPH.top + (REVIEW_GRAPH.height - REVIEW_GRAPH.top - REVIEW_GRAPH.bottom) / 2")
    for one, two in zip(heights["1"], heights["2"]):
        assert one + two == pytest.approx(2 * middle)


def test_a_self_play_game_reviewed_then_the_board_moved_on(page, run_folder):
    page.fill("#run-folder", str(run_folder))
    page.click("#open-run")
    page.wait_for_selector("#run-games:not([hidden])")
    page.select_option("#run-games", index=1)
    page.wait_for_function("ui.history.length > 10 && current().doc", timeout=WAIT_MS)
    positions = page.evaluate("ui.history.length")
    review(page, 300)
    wait_done(page)
    state = reviewed(page)
    assert len(state["points"]) == positions == page.locator("#review-graph .review-point").count()
    marks = check_against_the_answers(state)
    assert len(marks) == positions - 1 and any(marks.values())
    final = state["points"][str(positions - 1)]
    assert "answer" not in final  # not searched: the game is over
    assert sorted(final["chances"]) == [0.0, 1.0]  # the game's result
    # The costliest move's position on the board, the engine's best move outlined.
    page.locator("#review-costly tbody tr").first.click()
    page.wait_for_function("ui.best !== null && document.querySelector('#board .best')", timeout=WAIT_MS)
    # A new game on the board: a point still jumps into the reviewed game.
    page.click("#new")
    page.wait_for_function("ui.history.length === 1", timeout=WAIT_MS)
    page.locator("#review-graph .review-point[data-index='5']").click()
    page.wait_for_function("ui.index === 5 && current().doc", timeout=WAIT_MS)
    assert page.evaluate("current().text") == state["history"][5]["text"]


def search_status(server, page):
    return httpx.get(f"{server}/api/analysis/status?tab={page.evaluate('ui.tab')}").json()


def test_stop_stops_the_review(page, server, run_folder):
    page.fill("#run-folder", str(run_folder))
    page.click("#open-run")
    page.wait_for_selector("#run-games:not([hidden])")
    page.select_option("#run-games", index=1)
    page.wait_for_function("ui.history.length > 10 && current().doc", timeout=WAIT_MS)
    review(page, 20_000)
    page.wait_for_function("reviewState.done >= 1", timeout=WAIT_MS)
    assert search_status(server, page)["searching"]
    page.click("#review-start")
    page.wait_for_function("!reviewState.running", timeout=WAIT_MS)
    assert page.inner_text("#review-state").startswith("stopped at")
    deadline = time.monotonic() + 10
    while search_status(server, page)["searching"]:
        assert time.monotonic() < deadline, "the review searched on after Stop"
        time.sleep(0.1)
    done = page.evaluate("reviewState.done")
    page.wait_for_timeout(1500)
    assert page.evaluate("reviewState.done") == done < page.evaluate("reviewState.total")
    assert page.inner_text("#review-start") == "Review the game"


def test_a_closed_page_stops_its_review(browser, server, run_folder):
    page = open_page(browser, server)
    page.fill("#run-folder", str(run_folder))
    page.click("#open-run")
    page.wait_for_selector("#run-games:not([hidden])")
    page.select_option("#run-games", index=1)
    page.wait_for_function("ui.history.length > 10 && current().doc", timeout=WAIT_MS)
    review(page, 20_000)
    page.wait_for_function("reviewState.done >= 1", timeout=WAIT_MS)
    status = f"{server}/api/analysis/status?tab={page.evaluate('ui.tab')}"
    assert httpx.get(status).json()["searching"]
    page.close()
    deadline = time.monotonic() + 10
    while httpx.get(status).json()["searching"]:
        assert time.monotonic() < deadline, "the closed page's review searched on"
        time.sleep(0.1)


def test_a_bad_review_request_is_one_error(server):
    with httpx.Client(timeout=60) as client:
        with client.stream("GET", f"{server}/api/analysis/stream") as stream:
            lines = stream.iter_lines()  # held: the stream stays open while it is
            tab = next(json.loads(line[5:]) for line in lines if line.startswith("data:"))["tab"]
            start = Position.new("azul", seed=1).text()
            for body, message in [
                ({"history": [{"text": start}]}, "this page has no analysis stream"),
                ({"tab": tab, "history": "x"}, "history must be a list"),
                ({"tab": tab, "history": [{"text": start}], "visits": 0}, "visits must be"),
                ({"tab": tab, "history": [{"text": start}], "seed": -1}, "seed must be"),
                (
                    {"tab": tab, "history": [{"text": start}, {"text": start, "move": "F1 nothing 1"}]},
                    "history[1].move: ",
                ),
            ]:
                answer = client.post(f"{server}/api/review/start", json=body)
                assert answer.status_code == 400, answer.text
                assert answer.json()["error"].startswith(message), answer.json()
            stopped = client.post(f"{server}/api/review/stop", json={"tab": tab})
            assert stopped.status_code == 200 and stopped.json() == {"stopped": True}


def junk_bodies(tab, seed, count):
    """Seeded bodies of /api/review/start: a good one with fields swapped for junk."""
    choose = random.Random(seed)
    start = Position.new("azul", seed=2)
    good_history = [
        {"text": start.text(), "move": None},
        {"text": start.play(start.legal_moves[0]).text(), "move": start.legal_moves[0]},
    ]
    junk = [
        None,
        True,
        -1,
        0,
        2**64,
        1.5,
        "",
        "x" * 5000,
        [],
        {},
        [None],
        {"text": None},
        Position.new("pavilion", seed=1).text(),
        Position.new("azure", seed=1).view(2).text(),
        [{"text": start.text(), "move": "F1 blue 9"}] * 3,
        [{"text": "azul"}],
        [{"text": start.text()}] * 1001,
        start.to_json(),
    ]
    for _ in range(count):
        body = {"tab": tab, "history": [dict(entry) for entry in good_history], "visits": 1, "seed": 0}
        for _ in range(choose.randint(1, 3)):
            where = choose.choice(["tab", "history", "visits", "seed", "entry", "extra"])
            value = copy.deepcopy(choose.choice(junk))
            if where == "entry":
                entry = (
                    choose.choice(body["history"]) if isinstance(body["history"], list) and body["history"] else None
                )
                if isinstance(entry, dict):
                    entry[choose.choice(["text", "move"])] = value
            elif where == "extra":
                body[choose.choice(["x", "moves", "position"])] = value
            else:
                body[where] = value
        yield body


def test_junk_review_requests_are_answered_with_one_error(served):
    """300 seeded junk bodies: each a review started (200) or one 400 line; never a 500,
    never a traceback in the server's log."""
    server, process = served
    with httpx.Client(timeout=60) as client:
        with client.stream("GET", f"{server}/api/analysis/stream") as stream:
            lines = stream.iter_lines()
            tab = next(json.loads(line[5:]) for line in lines if line.startswith("data:"))["tab"]
            answered = set()
            for body in junk_bodies(tab, seed=7, count=300):
                answer = client.post(f"{server}/api/review/start", json=body)
                assert answer.status_code in (200, 400), (body, answer.text)
                if answer.status_code == 400:
                    error = answer.json()["error"]
                    assert error and "\n" not in error and "Traceback" not in error
                answered.add(answer.status_code)
            assert answered == {200, 400}
            client.post(f"{server}/api/review/stop", json={"tab": tab})
        assert client.get(f"{server}/api/games").status_code == 200
    assert "Traceback" not in "".join(process.output)


def test_another_search_of_the_page_stops_the_review(page, run_folder):
    """One search per page: Start of the live analysis ends a running review, which says so."""
    page.fill("#run-folder", str(run_folder))
    page.click("#open-run")
    page.wait_for_selector("#run-games:not([hidden])")
    page.select_option("#run-games", index=1)
    page.wait_for_function("ui.history.length > 10 && current().doc", timeout=WAIT_MS)
    review(page, 20_000)
    page.wait_for_function("reviewState.done >= 1", timeout=WAIT_MS)
    page.fill("#analysis-seconds", "2")
    page.click("#analyse")
    page.wait_for_function("!reviewState.running", timeout=WAIT_MS)
    assert page.inner_text("#review-state").startswith("stopped at")
    page.wait_for_selector("#analysis tbody tr", timeout=WAIT_MS)  # the analysis runs
    page.click("#analyse")
