"""The web board in a real browser: Debian's headless chromium driven by Playwright against
a real `tessera serve` (child process). Azul moves clicked to the end of a round, undo,
redo and jumps; a bad pasted position; live analysis in one tab and in two at once, a
closed tab's search stopped; the engine at a seat; a Summer Pavilion and an Azure turn.
The screenshots in docs/ (docs/web.md) are taken here: `TESSERA_SCREENSHOTS=1` writes
them there (otherwise a test run leaves the repository as it was)."""

import json
import os
import signal
import socket
import time
from pathlib import Path

import httpx
import pytest

from tessera.position import Position
from tessera.web.serve import SHUTDOWN_SECONDS
from tests.browser_page import BROWSER_MARKS, new_game
from tests.cli_process import tessera
from tests.limits import EXIT_SECONDS
from tests.web_server import running_server

playwright_api = pytest.importorskip("playwright.sync_api")

DOCS = Path(__file__).resolve().parents[1] / "docs"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
WAIT_MS = 60_000
# The server compiles its solver on the first solve (the board warms only the searches),
# which on a slow machine takes minutes, then solves for up to the 30 s asked.
SOLVE_MS = 300_000


def save_screenshot(page, name):
    """The page as a PNG, into docs/``name`` when TESSERA_SCREENSHOTS is set."""
    image = page.screenshot(full_page=True)
    assert image.startswith(PNG_SIGNATURE)
    if os.environ.get("TESSERA_SCREENSHOTS"):
        DOCS.joinpath(name).write_bytes(image)


AZUL_LATE = (
    "azul players 2 wall colour round 3 phase draft turn 1 starter 1; factories - - - - -;"
    " centre BYYRRKK; bag 8/8/7/9/8; lid 6/7/6/7/7; player 1 score 8 wall"
    " BYRK./...../...../..W../..... lines W/../.../BBB./K.... floor -; player 2 score 3"
    " wall B..../W..../...../...../..... lines ./YY/RRR/..../WW... floor 1R"
)
AZUL_GRAY_TILING = (
    "azul players 2 wall gray round 1 phase tiling turn 1 starter 1; factories - - - - -;"
    " centre -; bag 16/17/18/14/15; lid 0/0/0/0/0; player 1 score 0 wall"
    " ...../...../...../...../..... lines R/BB/KKK/..../..... floor BKKK; player 2"
    " score 0 wall ...../...../...../...../..... lines R/B./YYY/WWWW/..... floor 1W"
)
PAVILION_PLACING = """pavilion players 2 round 3 wild orange phase place turn 2 starter 1 token 2 passed - reward 0
factories - - - - -
centre -
supply PGOOYYYBRR
bag 9/11/11/9/12/9
tower 5/4/1/4/3/2
player 1 score 12 stars P...../.G..../O...../....../B...../RR..../O..YB. hand GGGGOOYBRRR kept -
player 2 score 17 stars PP..../.G..../O...../Y...../BB..../.RR.../OY.... hand PPPPOOYYBRR kept -"""

pytestmark = BROWSER_MARKS


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The board, reading run folders under the tests' temporary directories."""
    with running_server("--runs", tmp_path_factory.getbasetemp()) as (url, _):
        yield url


def doc(page):
    return page.evaluate("current().doc")


def history_length(page):
    return page.evaluate("ui.history.length")


def pick_selector(fields):
    return f"#board [data-pick='{json.dumps(fields, separators=(',', ':'))}']"


def click_move(page, move):
    """Click the board as a player would: the source's tile, then (if the move is not
    the only one from there) the destination; wait until the move is played."""
    before = page.evaluate("ui.index")
    page.locator(pick_selector({"source": move["source"], "colour": move["colour"]})).first.click()
    if page.evaluate("ui.index") == before:
        page.locator(pick_selector({"destination": move["destination"]})).click()
    page.wait_for_function(f"ui.index === {before + 1} && ui.history.length === {before + 2}", timeout=WAIT_MS)


def test_a_whole_azul_game_by_clicks_then_undo_redo_and_jump(page):
    played, round_two = [], None
    while not doc(page)["is_over"]:
        if round_two is None and doc(page)["json"]["round"] == 2:
            round_two = doc(page)
            check_drawn_scores(page, round_two)
        moves = [m for m in doc(page)["moves"] if m["kind"] == "draft"]
        # A pattern line when there is one (the round then fills walls), else the floor.
        move = next((m for m in moves if m["destination"] != "floor"), moves[0])
        click_move(page, move)
        played.append(move["text"])
        assert page.evaluate("current().move").startswith(move["text"])
    # Round 1's end tiled the walls and the refill was dealt; the game ended with a winner.
    assert round_two["to_move"] is not None
    walls = "".join("".join(board["wall"]) for board in round_two["json"]["boards"])
    assert walls.replace(".", ""), "the round's end put tiles on the walls"
    after = doc(page)
    assert page.inner_text("#status").startswith("game over:") and after["moves"] == []
    check_drawn_scores(page, after)
    # The move list holds the game; undo, redo and a jump show earlier positions.
    assert page.locator("#history li").count() == len(played) + 1
    page.click("#undo")
    page.wait_for_function(f"ui.index === {len(played) - 1}")
    assert not doc(page)["is_over"] and "game over" not in page.inner_text("#status")
    page.click("#redo")
    page.wait_for_function(f"ui.index === {len(played)}")
    assert doc(page)["text"] == after["text"]
    page.locator("#history li").nth(2).click()
    page.wait_for_function("ui.index === 2")
    assert page.inner_text("#history li.current") == played[1]
    assert doc(page)["text"] == page.evaluate("ui.history[2].text")
    # A move from an earlier position replaces what followed it.
    click_move(page, next(m for m in doc(page)["moves"] if m["kind"] == "draft"))
    assert history_length(page) == 4


def test_gray_wall_tiling_by_clicking_a_column(page):
    """Gray wall, the round's end: player 1 picks the column of each full line by clicking it."""
    page.fill("#position-text", AZUL_GRAY_TILING)
    page.click("#load")
    page.wait_for_function("current().doc.json.phase === 'tiling' && ui.history.length === 1")
    page.locator(pick_selector({"column": 3})).first.click()  # line 1's red: column 3
    page.wait_for_function("ui.history.length === 2", timeout=WAIT_MS)
    assert page.evaluate("current().move") == "col 3"
    assert doc(page)["json"]["boards"][0]["wall"][0] == "..R.."


def check_drawn_scores(page, shown):
    drawn = page.locator("#board").text_content()
    for p, board in enumerate(shown["json"]["boards"], 1):
        assert f"Player {p} · {board['score']} points" in drawn


def test_a_bad_pasted_position_shows_the_engines_error(page):
    text = "azul players 2 wall colour round 1 phase draft turn 1 starter 1; factories BBBBB"
    expected = tessera("show", text).stderr.strip()
    page.fill("#position-text", text)
    page.click("#load")
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error") == expected
    # A good one loads, and the error goes.
    good = tessera("new", "azul", "--seed", "5").stdout.strip()
    page.fill("#position-text", good)
    page.click("#load")
    page.wait_for_function(f"current().doc.text === {json.dumps(good)}", timeout=WAIT_MS)
    assert page.locator("#error").is_hidden()
    # Copy current puts the position on the board into the box.
    page.fill("#position-text", "")
    page.click("#copy")
    page.wait_for_function(f"document.getElementById('position-text').value === {json.dumps(good)}")


def analysis_rows(page):
    return page.locator("#analysis tbody tr").count()


def test_live_analysis_fills_the_table_and_marks_the_best_move(page, server):
    page.fill("#analysis-seconds", "4")
    page.click("#analyse")
    page.wait_for_function("document.querySelectorAll('#analysis tbody tr').length > 0", timeout=WAIT_MS)
    first_visits = int(page.locator("#analysis tbody tr").first.locator("td").nth(3).inner_text())
    assert page.locator("#board .best").count() > 0
    assert page.locator("#board .best-arrow").count() == 1  # Azul: source to line
    page.wait_for_function("document.getElementById('analysis-state').textContent.includes('done')", timeout=WAIT_MS)
    best = page.locator("#analysis tbody tr.best td").first.inner_text()
    assert best in [m["text"] for m in doc(page)["moves"]]
    final_visits = int(page.locator("#analysis tbody tr").first.locator("td").nth(3).inner_text())
    assert final_visits >= first_visits
    save_screenshot(page, "web-azul.png")
    # A click on a row plays its move.
    page.locator("#analysis tbody tr").first.click()
    page.wait_for_function("ui.history.length === 2")
    assert page.evaluate("current().move").startswith(best)
    page.click("#analyse")  # it went on with the new position: stop it
    assert page.inner_text("#analysis-state") == "stopped"


def test_exact_values_from_the_solver(page):
    """docs/api.md's last-round position: the solver proves every move's value."""
    page.fill("#position-text", AZUL_LATE)
    page.click("#load")
    page.wait_for_function("current().doc.text.includes('BYYRRKK')", timeout=WAIT_MS)
    page.select_option("#analysis-algo", "solve")
    page.fill("#analysis-seconds", "30")
    page.click("#analyse")
    page.wait_for_function("document.getElementById('analysis-state').textContent.includes('done')", timeout=SOLVE_MS)
    assert "proven" in page.inner_text("#analysis-state")
    exact = Position.parse(AZUL_LATE).solve()
    best = page.locator("#analysis tbody tr.best td")
    assert best.nth(0).inner_text() in exact["best_moves"]
    assert best.nth(2).inner_text() == f"={exact['root']['exact']['margin']:.1f}"
    page.click("#analyse")


def test_two_tabs_analyse_at_once_and_a_closed_tab_stops_its_search(browser, server, page):
    other = browser.new_page()
    other.goto(server)
    other.wait_for_selector("#board [data-pick]")
    new_game(other, "pavilion")
    for tab in (page, other):
        tab.fill("#analysis-seconds", "60")
        tab.click("#analyse")
    for tab in (page, other):
        tab.wait_for_function("document.querySelectorAll('#analysis tbody tr').length > 0", timeout=WAIT_MS)
    tabs = [f"{server}/api/analysis/status?tab={tab.evaluate('ui.tab')}" for tab in (page, other)]
    assert [httpx.get(status).json() for status in tabs] == [{"open": True, "searching": True}] * 2
    other.close()
    # The page stops its search as it goes (the browser may hold its stream open a while).
    deadline = time.monotonic() + 10
    while (status := httpx.get(tabs[1]).json())["searching"]:
        assert time.monotonic() < deadline, f"the closed tab's search went on: {status}"
        time.sleep(0.1)
    assert httpx.get(tabs[0]).json() == {"open": True, "searching": True}
    page.click("#analyse")
    page.wait_for_function("document.getElementById('analysis-state').textContent === 'stopped'")


def test_the_engine_plays_a_seat_and_both(page):
    page.fill("#engine-seconds", "0.2")
    page.check("#seats input[data-seat='2']")
    click_move(page, next(m for m in doc(page)["moves"] if m["kind"] == "draft"))
    page.wait_for_function("ui.history.length === 3 && !ui.busy", timeout=WAIT_MS)
    assert doc(page)["to_move"] == 1 and page.locator("#history li").count() == 3
    page.check("#seats input[data-seat='1']")  # the engine against itself
    page.wait_for_function("ui.history.length >= 6", timeout=WAIT_MS)
    page.uncheck("#seats input[data-seat='1']")
    page.uncheck("#seats input[data-seat='2']")
    page.wait_for_function("!ui.busy", timeout=WAIT_MS)
    settled = history_length(page)
    page.wait_for_timeout(600)
    assert history_length(page) == settled  # nobody plays for the players
    assert "error" not in page.inner_text("#error")


def test_a_summer_pavilion_turn(page):
    new_game(page, "pavilion", seed=2)
    move = doc(page)["moves"][0]
    page.locator(pick_selector({"source": move["source"], "colour": move["colour"]})).first.click()
    page.wait_for_function("ui.history.length === 2", timeout=WAIT_MS)
    assert page.evaluate("current().move").startswith(move["text"])
    assert doc(page)["to_move"] == 2 and "player 2" in page.inner_text("#status")
    save_screenshot(page, "web-pavilion.png")


def test_summer_pavilion_placements_by_clicking_a_stars_space(page):
    """docs/pavilion-notation.md's example: player 2 places."""
    page.fill("#position-text", PAVILION_PLACING)
    page.click("#load")
    page.wait_for_function("current().doc.json.phase === 'place' && ui.history.length === 1")
    page.click(pick_selector({"star": "R", "space": 1}))  # one way to pay: played
    page.wait_for_function("ui.history.length === 2", timeout=WAIT_MS)
    assert page.evaluate("current().move") == "place red 1"
    page.click("#undo")
    page.wait_for_function("ui.index === 0 && current().doc.to_move === 2")
    page.click(pick_selector({"star": "P", "space": 3}))  # three ways: a choice
    choices = page.locator("#choices button")
    assert choices.all_inner_texts() == ["place purple 3", "place purple 3 wild 1", "place purple 3 wild 2"]
    choices.nth(1).click()  # replaces the undone move
    page.wait_for_function("ui.index === 1 && current().move === 'place purple 3 wild 1'", timeout=WAIT_MS)
    assert page.evaluate("current().move") == "place purple 3 wild 1"
    assert doc(page)["json"]["boards"][1]["stars"][0] == "PPP..."


def test_an_azure_turn_and_a_players_view(page):
    new_game(page, "azure", seed=5)
    move = doc(page)["moves"][0]
    page.click(pick_selector({"cell": move["cell"]}))
    page.wait_for_function("ui.history.length === 2", timeout=WAIT_MS)
    assert page.evaluate("current().move").startswith(move["text"])
    assert doc(page)["to_move"] == 2
    stones = page.locator("#board circle").count()
    page.select_option("#viewer", "2")  # player 1's cards drawn from the hidden deck: "?"
    assert "?" in page.evaluate("current().doc.views['2'].players[0].hand")
    assert page.locator("#board text", has_text="?").count() > 0
    assert page.locator("#board circle").count() == stones  # the realm is public
    # Player 2's view, player 2 to move: the search knows what player 2 knows.
    page.fill("#analysis-seconds", "1")
    page.click("#analyse")
    page.wait_for_function("document.getElementById('analysis-state').textContent.includes('done')", timeout=WAIT_MS)
    assert analysis_rows(page) > 0 and page.evaluate("ui.answer.algo") == "ismcts"
    page.click("#analyse")
    save_screenshot(page, "web-azure.png")


def test_a_dropped_stream_ends_its_tab_and_its_search(server):
    """Whatever the page does, the server stops the search of a stream that ends."""
    with httpx.Client(timeout=WAIT_MS / 1000) as client:
        with client.stream("GET", f"{server}/api/analysis/stream") as stream:
            lines = stream.iter_lines()
            tab = next(json.loads(line[5:]) for line in lines if line.startswith("data:"))["tab"]
            text = Position.new("azure", seed=3).text()
            client.post(f"{server}/api/analysis/start", json={"tab": tab, "position": text, "seconds": 60})
            answer = next(json.loads(line[5:]) for line in lines if line.startswith("data:"))
            assert answer["isDuringSearch"] and answer["moves"]
            status = f"{server}/api/analysis/status?tab={tab}"
            assert client.get(status).json() == {"open": True, "searching": True}
        deadline = time.monotonic() + 10
        while (now := client.get(status).json()) != {"open": False, "searching": False}:
            assert time.monotonic() < deadline, now
            time.sleep(0.1)
        gone = client.post(f"{server}/api/analysis/start", json={"tab": tab, "position": text})
        assert gone.status_code == 400 and "no analysis stream" in gone.json()["error"]


def test_a_bad_analysis_request_leaves_the_tabs_search_running(server):
    """The page's search goes on when its next request is refused (400)."""
    with httpx.Client(timeout=WAIT_MS / 1000) as client:
        with client.stream("GET", f"{server}/api/analysis/stream") as stream:
            lines = stream.iter_lines()
            tab = next(json.loads(line[5:]) for line in lines if line.startswith("data:"))["tab"]
            text = Position.new("azul", seed=3).text()
            started = client.post(f"{server}/api/analysis/start", json={"tab": tab, "position": text, "seconds": 60})
            assert started.status_code == 200, started.text
            status = f"{server}/api/analysis/status?tab={tab}"
            for body in ({"seconds": -1}, {"visits": 0}, {"algo": "guess"}):
                refused = client.post(f"{server}/api/analysis/start", json={"tab": tab, "position": text, **body})
                assert refused.status_code == 400, refused.text
                assert client.get(status).json() == {"open": True, "searching": True}, body
            refused = client.post(f"{server}/api/engine-move", json={"tab": tab, "position": text, "seconds": "soon"})
            assert refused.status_code == 400, refused.text
            assert client.get(status).json() == {"open": True, "searching": True}


def test_garbage_never_stops_the_server(server):
    """Raw bytes that are no HTTP, bad JSON to every route, wrong types: each gets its
    error (or a closed connection) and the server answers the next page."""
    host, port = server.removeprefix("http://").split(":")
    for garbage in (
        b"\x00\xff" * 500 + b"\r\n\r\n",
        b"GET / HTTP/9.9\r\n\r\n",
        b"POST /api/play HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n{",
        b"GET /" + b"a" * 100_000 + b" HTTP/1.1\r\n\r\n",
    ):
        with socket.create_connection((host, int(port)), timeout=10) as raw:
            raw.sendall(garbage)
            raw.shutdown(socket.SHUT_WR)
            raw.recv(4096)
    routes = [
        "/api/new",
        "/api/position",
        "/api/play",
        "/api/deal",
        "/api/view",
        "/api/run",
        "/api/run/game",
        "/api/analysis/start",
        "/api/analysis/stop",
        "/api/engine-move",
    ]
    bodies = [
        b"{",
        b"[]",
        b"null",
        b'{"position": {"game": "azure"}}',
        b'{"tab": [], "seconds": -1}',
        b'{"position": "azul", "move": 5, "rng": "-1"}',
        b'{"folder": "/nonexistent"}',
    ]
    with httpx.Client(timeout=30, headers={"Content-Type": "application/json"}) as client:
        for route in routes:
            for body in bodies:
                response = client.post(f"{server}{route}", content=body)
                assert response.status_code == 400, (route, body, response.text)
                assert response.json()["error"]
        assert client.get(f"{server}/").status_code == 200
        assert client.post(f"{server}/api/new", json={"game": "azure"}).json()["game"] == "azure"


def test_an_oversized_body_is_refused_before_it_is_all_read(server):
    """A request that announces 50 MB is answered 413 before the body is read, and one
    sent in chunks once it passes 1 MB: the server does not wait for (and hold) the rest."""
    from tessera.web.http import MAX_BODY

    host, port = server.removeprefix("http://").split(":")
    head = (f"POST /api/position HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n").encode()
    with socket.create_connection((host, int(port)), timeout=10) as raw:
        raw.sendall(head + b"Content-Length: 50000000\r\n\r\n")
        assert raw.recv(4096).startswith(b"HTTP/1.1 413")
    chunk = b" " * (1 << 16)
    with socket.create_connection((host, int(port)), timeout=10) as raw:
        raw.sendall(head + b"Transfer-Encoding: chunked\r\n\r\n")
        for _ in range(MAX_BODY // len(chunk) + 2):
            raw.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        assert raw.recv(4096).startswith(b"HTTP/1.1 413")


def test_a_self_play_game_stepped_through(page, tmp_path):
    run = tmp_path / "run"
    done = tessera(
        "selfplay", "azul", "--games", "2", "--agents", "random,greedy", "--seed", "4", "--workers", "1", "--out", run
    )
    assert done.returncode == 0, done.stderr
    page.fill("#run-folder", str(run))
    page.click("#open-run")
    page.wait_for_selector("#run-games:not([hidden])")
    assert page.locator("#run-games option").count() == 3  # the prompt and two games
    page.select_option("#run-games", index=2)
    page.wait_for_function("ui.history.length > 10 && current().doc", timeout=WAIT_MS)
    length = history_length(page)
    page.keyboard.press("ArrowRight")
    page.wait_for_function("ui.index === 1 && current().doc")
    page.locator("#history li").last.click()
    page.wait_for_function(f"ui.index === {length - 1} && current().doc && current().doc.is_over", timeout=WAIT_MS)
    assert page.inner_text("#status").startswith("game over:")


def test_boards_stack_on_a_narrow_screen(page):
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_function("document.getElementById('board').getAttribute('viewBox').startsWith('0 0 500 ')")
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.wait_for_function("document.getElementById('board').getAttribute('viewBox').startsWith('0 0 1000 ')")


def test_the_page_works_behind_a_token(browser):
    """With --token the page is opened once with ?token=; the cookie it gets then carries
    the token on every request of the page, its event stream included."""
    with running_server("--token", "page-secret") as (url, _):
        page = browser.new_page()
        try:
            refused = page.goto(url)
            assert refused.status == 403 and "token" in refused.json()["error"]
            page.goto(f"{url}/?token=page-secret")
            assert page.url == f"{url}/"
            page.wait_for_selector("#board [data-pick]")
            page.wait_for_function("ui.tab !== null", timeout=WAIT_MS)
            first = doc(page)["moves"][0]["text"]
            page.locator(f"#moves button[data-move='{first}']").click()
            page.wait_for_function("ui.history.length === 2", timeout=WAIT_MS)
        finally:
            page.close()


def test_ctrl_c_stops_the_server_with_a_page_open():
    """An open page's event stream does not hold the server: Ctrl-C ends it, exit 0."""
    with running_server() as (url, process), httpx.Client(timeout=30) as client:
        with client.stream("GET", f"{url}/api/analysis/stream") as stream:
            lines = stream.iter_lines()
            assert next(line for line in lines if line.startswith("data:"))
            started = time.monotonic()
            process.send_signal(signal.SIGINT)
            for _ in lines:  # the stream ends (it would hang here)
                pass
            # ... ended by the server, not cut by uvicorn's last resort after SHUTDOWN_SECONDS
            assert time.monotonic() - started < SHUTDOWN_SECONDS
            process.wait(timeout=EXIT_SECONDS)


def warmup_report(moves, search, compiled_ahead):
    """A /api/warmup answer with Azul's stages as given (each ``(state, seconds)``) and the
    other games ready."""

    def stage(state, seconds):
        return {"state": state, **({} if seconds is None else {"seconds": seconds})}

    games = [{"game": "azul", "stages": {"moves": stage(*moves), "search": stage(*search)}}]
    games += [
        {"game": game, "stages": {"moves": stage("ready", 0.4), "search": stage("ready", 0.9)}}
        for game in ("pavilion", "azure")
    ]
    done = sum(s["state"] in ("ready", "failed") for g in games for s in g["stages"].values())
    return {
        "games": games,
        "done": done,
        "total": 6,
        "ready": done == 6,
        "seconds": 5.0,
        "compiled_ahead": compiled_ahead,
    }


def test_the_board_says_what_loads_for_how_long_and_what_works_already(page):
    """Above the board, for the game chosen (Azul here), as the reports of a first start come:
    the page's own drawing of /api/warmup answers."""

    def line(moves, search, compiled_ahead):
        page.evaluate("(report) => warmup.show(report)", warmup_report(moves, search, compiled_ahead))
        shown = page.locator("#board-loading")
        return shown.inner_text() if shown.is_visible() else None

    assert line(("compiling", 3.4), ("waiting", None), False) == (
        "Azul: compiling its rules… 3.4 s. The board appears once they are ready."
    )
    assert line(("ready", 4.0), ("compiling", 12.0), False) == (
        "Azul: moves ready, play on the board; compiling the search… 12.0 s, and an analysis starts once it is ready."
    )
    assert line(("ready", 0.4), ("compiling", 1.2), True) == (
        "Azul: moves ready, play on the board; loading the search… 1.2 s, and an analysis starts once it is ready."
    )
    assert "loading" in page.inner_text("#warmup") and "compiles them" not in page.inner_text("#warmup")
    assert line(("ready", 0.4), ("ready", 1.5), True) is None  # all ready: the line goes
