"""The game review a player opens after a game, in a real browser (Debian's headless chromium
against a real `tessera serve`): move numbers and each round's start on the graph, each
player's marks counted with an accuracy figure (worked by hand on a saved review), every
move listed, marks that differ in shape as well as colour (told apart in the light and the
dark theme, at a desktop size and at a phone's), a review saved to a file and loaded back
(and bad files refused with one error line), and "Practise your mistakes": a player's
marked positions as exercises, each try judged by the engine. One server and one browser
for the module; reviews at a small budget. `TESSERA_SCREENSHOTS=1` writes
docs/web-review.png (a practised exercise of a reviewed game)."""

import copy
import json
import random
from pathlib import Path

import httpx
import jsonschema
import pytest

from tessera.position import Position
from tessera.web import documents
from tessera.web.review import accuracy, mark
from tests.browser_page import BROWSER_MARKS, SIZES, TAP_PX, error_free, open_board
from tests.test_web_browser import save_screenshot
from tests.test_web_comfort import contrast

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = BROWSER_MARKS

REPO = Path(__file__).resolve().parents[1]
SCHEMA_PATH = REPO / "docs" / "review.schema.json"
SHIPPED_SCHEMA = REPO / "solver" / "web" / "static" / "review.schema.json"
WAIT_MS = 120_000
VISITS = 60  # a review's visits a position here: each search takes milliseconds
MARK_SHAPES = {"inaccuracy": "circle", "mistake": "rect", "blunder": "polygon"}
COLOUR_APART = 100  # the marks' fills, pairwise at least this far apart in RGB
MARK_CONTRAST = 3  # a mark's fill against the panel (WCAG's figure for graphics)


def open_sized(browser, server, size="desktop", scheme="light"):
    page = open_board(browser, server, size, scheme)
    page.wait_for_function("ui.tab !== null", timeout=WAIT_MS)
    return page


@pytest.fixture
def page(browser, server):
    with error_free(open_sized(browser, server)) as page:
        yield page


# ---- the game: three rounds of Azul, player 1 throwing tiles on the floor ---------------------------


def floor_tiles(position, player):
    return len(position.to_json()["boards"][player - 1]["floor"].strip("-"))


def game_history(seed=2, rounds=3):
    """The saved history of an Azul game as the board deals it (chance by the seed): player
    1 throws the most tiles it can on the floor, player 2 takes the first draft to a line;
    until two moves into round ``rounds``."""
    position, draws = documents.new_game("azul", seed, {})
    history = [{"text": position.text(), "move": None, "rng": str(draws.state)}]
    into_last = 0
    while not position.is_over and into_last < 2:
        moves = position.legal_moves
        if position.to_move == 1:
            thrown = [m for m in moves if m.endswith("floor")] or moves
            move = max(thrown, key=lambda m: floor_tiles(position.play(m), 1))
        else:
            move = next((m for m in moves if not m.endswith("floor")), moves[0])
        position, dealt = documents.play(position, move, draws, True)
        entry = {"text": position.text(), "move": move, "rng": str(draws.state)}
        if dealt:
            entry["dealt"] = True
        history.append(entry)
        into_last += position.to_json()["round"] == rounds
    return history


def review_file(history, points=(), moves=(), finished=False):
    return {
        "format": "tessera-review",
        "version": 1,
        "game": "azul",
        "players": 2,
        "visits": VISITS,
        "seed": 0,
        "finished": finished,
        "history": history,
        "points": list(points),
        "moves": list(moves),
    }


@pytest.fixture(scope="module")
def history():
    return game_history()


@pytest.fixture(scope="module")
def unreviewed(history, tmp_path_factory):
    """The game as a review file with nothing searched: loading it puts the game on the board."""
    path = tmp_path_factory.mktemp("review-files") / "game.json"
    path.write_text(json.dumps(review_file(history)))
    return path


def load(page, path):
    """Loads the review file at ``path`` through Load review: returns once the page says it
    loaded it or shows an error."""
    page.evaluate("document.getElementById('review-state').textContent = ''")
    with page.expect_file_chooser() as chooser:
        page.click("#review-load")
    chooser.value.set_files(str(path))
    page.wait_for_function(
        "document.getElementById('review-state').textContent.startsWith('loaded ')"
        " || !document.getElementById('error').hidden",
        timeout=WAIT_MS,
    )


def wait_loaded(page, name):
    assert page.locator("#error").is_hidden(), page.inner_text("#error")
    assert page.inner_text("#review-state").startswith(f"loaded {name}: ")
    page.wait_for_function("current().doc", timeout=WAIT_MS)


def shown(page):
    """What the page shows of a review: the summary's rows, the list's rows, the graph's
    points and marks, the history reviewed."""
    return page.evaluate("""() => ({
        summary: [...document.querySelectorAll('#review-summary tbody tr')].map((r) => r.innerText),
        rows: [...document.querySelectorAll('#review-costly tbody tr')].map((r) => r.innerText),
        points: [...document.querySelectorAll('#review-graph .review-point')].map((d) =>
            [d.dataset.index, d.getAttribute('cy'), d.getAttribute('class')]),
        marks: [...document.querySelectorAll('#review-graph .review-mark')].map((m) =>
            [m.dataset.index, m.dataset.mark, m.tagName]),
        history: reviewState.nodes.map((node) => [node.move, node.text]),
    })""")


@pytest.fixture(scope="module")
def reviewed(browser, server, unreviewed, tmp_path_factory):
    """The game reviewed at VISITS a position, saved by Save review: (the file's path, what
    the page showed when it saved it)."""
    with error_free(open_sized(browser, server)) as page:
        load(page, unreviewed)
        wait_loaded(page, "game.json")
        page.fill("#review-visits", str(VISITS))
        page.click("#review-start")
        page.wait_for_function("!reviewState.running && reviewState.finished", timeout=WAIT_MS)
        with page.expect_download() as download:
            page.click("#review-save")
        path = tmp_path_factory.mktemp("saved") / download.value.suggested_filename
        download.value.save_as(path)
        return path, shown(page)


# ---- the review's figures ----------------------------------------------------------------------


def test_a_saved_review_is_the_schemas_and_loads_back_as_it_was(page, reviewed, history):
    path, before = reviewed
    assert path.name == f"review-azul-{len(history)}-positions.json"
    saved = json.loads(path.read_text())
    assert SCHEMA_PATH.read_bytes() == SHIPPED_SCHEMA.read_bytes()  # docs/ holds the package's schema
    schema = json.loads(SCHEMA_PATH.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(saved, schema, cls=jsonschema.Draft202012Validator)
    # The game as the board held it (chance dealt by the seed, the generator), every position searched.
    assert saved["history"] == history and saved["finished"]
    assert sorted(p["index"] for p in saved["points"]) == list(range(len(history)))
    assert sorted(m["index"] for m in saved["moves"]) == list(range(len(history) - 1))
    # Loaded into another page: the same graph, figures, list and game.
    load(page, path)
    wait_loaded(page, path.name)
    assert page.locator("#error").is_hidden()
    assert shown(page) == before
    assert page.evaluate("ui.history.length") == len(history) and page.evaluate("ui.index") == 0
    assert page.evaluate("current().rng") == history[0]["rng"]
    assert page.input_value("#review-visits") == str(VISITS)
    # It plays on from a loaded position as the game would: the chance dealt after a round's
    # last move is the game's (its generator came with it).
    k = next(i for i, entry in enumerate(history) if entry.get("dealt")) - 1
    page.locator("#history li").nth(k).click()
    page.wait_for_function(f"ui.index === {k} && current().doc", timeout=WAIT_MS)
    page.locator(f"#moves button[data-move='{history[k + 1]['move']}']").click()
    page.wait_for_function(f"ui.index === {k + 1} && ui.history.length === {k + 2}", timeout=WAIT_MS)
    assert page.evaluate("current().text") == history[k + 1]["text"]


def test_move_numbers_rounds_counts_accuracy_and_the_full_list(page, reviewed, history):
    path, _ = reviewed
    saved = json.loads(path.read_text())
    load(page, path)
    wait_loaded(page, path.name)
    # Move numbers along the bottom; a dashed line where each round starts.
    ticks = page.eval_on_selector_all("#review-graph .review-tick", "(ts) => ts.map((t) => Number(t.textContent))")
    assert ticks[0] == 0 and len(ticks) >= 3 and ticks == sorted(ticks) and ticks[-1] <= len(history) - 1
    step = ticks[1] - ticks[0]
    assert ticks == list(range(0, len(history), step))
    rounds = [Position.parse(entry["text"]).to_json()["round"] for entry in history]
    starts = [i for i in range(1, len(rounds)) if rounds[i] != rounds[i - 1]]
    assert len(starts) == 2
    drawn = page.eval_on_selector_all("#review-graph .review-round", "(ls) => ls.map((l) => Number(l.dataset.index))")
    assert drawn == starts
    labels = page.eval_on_selector_all("#review-graph .review-round-label", "(ls) => ls.map((l) => l.textContent)")
    assert labels == ["round 2", "round 3"]
    # Each player's counts and accuracy: the server's figures over the moves the file holds.
    rows = page.locator("#review-summary tbody tr")
    assert rows.count() == 2
    for player in (1, 2):
        own = [m for m in saved["moves"] if m["player"] == player]
        mean = sum(accuracy(m["lost"]["win"], m["lost"]["points"]) for m in own) / len(own)
        counts = [sum(m["mark"] == name for m in own) for name in ("inaccuracy", "mistake", "blunder")]
        cells = rows.nth(player - 1).locator("td").all_inner_texts()
        assert cells == [f"player {player}", f"{mean:.1f}", *map(str, counts), str(len(own))]
    assert any(m["mark"] for m in saved["moves"] if m["player"] == 1)  # the floor is paid for
    # The full list: every move judged, the costliest first, or in the game's order.
    listed = page.locator("#review-costly tbody tr")
    assert listed.count() == len(saved["moves"]) > 5
    lost = [float(x) for x in page.eval_on_selector_all("#review-costly tbody tr td:nth-child(4)", LIST_TEXT)]
    assert lost == sorted(lost, reverse=True)
    page.select_option("#review-order", "game")
    order = page.eval_on_selector_all("#review-costly tbody tr", "(rs) => rs.map((r) => Number(r.dataset.index))")
    assert order == list(range(len(history) - 1))
    # Each mark its shape, on the graph and in the list, with its symbol.
    for move in saved["moves"]:
        row = page.locator(f"#review-costly tbody tr[data-index='{move['index']}']")
        marks = page.locator(f"#review-graph .review-mark[data-index='{move['index']}']")
        if move["mark"] is None:
            assert marks.count() == 0 and row.locator("td").nth(2).inner_text() == ""
            continue
        assert marks.evaluate("(m) => m.tagName") == MARK_SHAPES[move["mark"]]
        symbol = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}[move["mark"]]
        assert row.locator("td").nth(2).inner_text().strip() == f"{symbol} {move['mark']}"
        assert row.locator(f"td svg .review-mark[data-mark='{move['mark']}']").count() == 1


LIST_TEXT = "(cells) => cells.map((c) => c.textContent)"


def crafted_moves(history):
    """Five judged moves of ``history`` with losses chosen to work the figures out by hand
    (tests/test_review.py works the same ones)."""
    losses = [(0.0, 0.0), (0.0, 0.0), (0.10, 0.0), (0.30, 0.0), (0.0, 5.0), (0.03, 1.0)]
    moves = []
    for index, (win, points) in enumerate(losses):
        position = Position.parse(history[index]["text"])
        best = next(m for m in position.legal_moves if m != history[index + 1]["move"])
        moves.append(
            {
                "index": index,
                "move": history[index + 1]["move"],
                "player": position.to_move,
                "best": {"move": best, "win": 0.6, "margin": 3.0, "visits": 50},
                "played": {
                    "move": history[index + 1]["move"],
                    "win": 0.6 - win,
                    "margin": 3.0 - points,
                    "visits": 20,
                    "valued_by": "search",
                },
                "lost": {"win": win, "points": points},
                "mark": mark(win, points),
            }
        )
    return moves


def test_accuracy_and_counts_worked_by_hand(page, history, tmp_path):
    """Player 1 loses 0, 10 percentage points and 5 points (10): accuracies 100, 63.5828 and
    63.5828, mean 75.7; player 2 loses 0, 30 points of win chance and 3 (3 percentage
    points, 1 point of margin: 2): 100, 24.7757 and 87.3676, mean 70.7."""
    moves = crafted_moves(history)
    assert [m["player"] for m in moves] == [1, 2, 1, 2, 1, 2]
    path = tmp_path / "worked.json"
    path.write_text(json.dumps(review_file(history, moves=moves)))
    load(page, path)
    wait_loaded(page, "worked.json")
    cells = [row.split("\t") for row in shown(page)["summary"]]
    assert cells == [["player 1", "75.7", "0", "2", "0", "3"], ["player 2", "70.7", "0", "0", "1", "3"]]
    assert (100 + 63.5828 * 2) / 3 == pytest.approx(75.7219, abs=1e-4)
    assert (100 + 24.7757 + 87.3676) / 3 == pytest.approx(70.7144, abs=1e-4)


# ---- bad files ----------------------------------------------------------------------------------


def bad_files(history):
    good = review_file(history, moves=crafted_moves(history))
    wrong_mark = copy.deepcopy(good)
    wrong_mark["moves"][2]["mark"] = "blunder"
    illegal = copy.deepcopy(good)
    illegal["history"][3]["move"] = "F9 blue 1"
    other_move = copy.deepcopy(good)
    other_move["moves"][1]["move"] = other_move["moves"][1]["best"]["move"]
    players = copy.deepcopy(good)
    players["players"] = 3
    late = copy.deepcopy(good)
    late["points"] = [{"index": len(history), "player": None, "chances": [0.5, 0.5]}]
    version = dict(good, version=2)
    missing = {k: v for k, v in good.items() if k != "history"}
    return [
        ("not-json.json", "{ this is not json", "review file: not-json.json is not JSON"),
        ("array.json", "[]", "review file: [] is not of type 'object'"),
        ("version.json", json.dumps(version), "review file: version: 1 was expected"),
        ("missing.json", json.dumps(missing), "review file: 'history' is a required property"),
        ("illegal.json", json.dumps(illegal), "review file: history[3].move: "),
        ("mark.json", json.dumps(wrong_mark), "review file: moves/2: a move that lost 0.1 of the win"),
        ("other.json", json.dumps(other_move), "review file: moves/1 is not the move history/2 played"),
        ("players.json", json.dumps(players), "review file: it says azul for 3 players"),
        ("late.json", json.dumps(late), f"review file: points/0: index {len(history)} is past the history"),
    ]


def test_a_bad_file_is_one_error_line_and_changes_nothing(page, history, tmp_path):
    before = page.evaluate("[ui.history.length, current().text]")
    for name, text, message in bad_files(history):
        path = tmp_path / name
        path.write_text(text)
        load(page, path)
        error = page.inner_text("#error")
        assert error.startswith(f"error: {message}"), error
        assert "\n" not in error and "Traceback" not in error
        # Nothing changed and nothing waits: the board, the review's controls.
        assert page.evaluate("[ui.history.length, current().text]") == before
        assert page.evaluate("reviewState.id") is None
        assert page.inner_text("#review-start") == "Review the game"
        assert page.is_enabled("#review-load") and page.is_enabled("#review-start")
        assert page.evaluate("document.getElementById('review-file').value") == ""
    # A good file loads after them, and the next action clears the line.
    path = tmp_path / "good.json"
    path.write_text(json.dumps(review_file(history, moves=crafted_moves(history))))
    load(page, path)
    wait_loaded(page, "good.json")
    assert page.locator("#error").is_hidden()


def test_junk_for_the_load_and_try_routes_is_one_error(server, history):
    """Seeded junk for /api/review/load and /api/review/try: each answered (200) or refused
    with one 400 line; never a server error."""
    good = review_file(history, moves=crafted_moves(history))
    junk = [None, True, -1, 2**64, 1.5, "", "x" * 3000, [], {}, [None], {"text": None}, "F1 blue 1", 10**30]
    choose = random.Random(11)
    start = Position.parse(history[0]["text"])
    with httpx.Client(timeout=60) as client:
        with client.stream("GET", f"{server}/api/analysis/stream") as stream:
            lines = stream.iter_lines()
            tab = next(json.loads(line[5:]) for line in lines if line.startswith("data:"))["tab"]
            answered = set()
            for _ in range(150):
                body = copy.deepcopy(good)
                for _ in range(choose.randint(1, 3)):
                    target = body
                    path = [choose.choice(sorted(body))]
                    while isinstance(target[path[-1]], (dict, list)) and target[path[-1]] and choose.random() < 0.7:
                        target = target[path[-1]]
                        keys = range(len(target)) if isinstance(target, list) else sorted(target)
                        path.append(choose.choice(list(keys)))
                    target[path[-1]] = copy.deepcopy(choose.choice(junk))
                answer = client.post(f"{server}/api/review/load", json={"review": body})
                assert answer.status_code in (200, 400), answer.text
                if answer.status_code == 400:
                    assert answer.json()["error"].startswith("review file: ") and "\n" not in answer.json()["error"]
                answered.add(answer.status_code)
            assert 400 in answered
            tries = {"tab": tab, "position": start.text(), "move": start.legal_moves[0], "visits": 20, "seed": 0}
            for _ in range(40):
                body = dict(tries)
                body[choose.choice(sorted(body))] = copy.deepcopy(choose.choice(junk))
                answer = client.post(f"{server}/api/review/try", json=body)
                assert answer.status_code in (200, 400), answer.text
                if answer.status_code == 400:
                    assert answer.json()["error"] and "\n" not in answer.json()["error"]
            for position, move, message in [
                (Position.new("azure", seed=1).view(1).text(), "A1", "a try needs a complete position"),
                (start.text(), "F9 blue 1", "move: "),
                ("azul nonsense", "F1 blue 1", "position: "),
            ]:
                answer = client.post(f"{server}/api/review/try", json={"tab": tab, "position": position, "move": move})
                assert answer.status_code == 400 and answer.json()["error"].startswith(message), answer.text


# ---- Practise your mistakes ---------------------------------------------------------------------


def play_from_list(page, move):
    page.locator(f"#moves button[data-move='{move}']").click()


def test_practise_your_mistakes(page, reviewed, history):
    path, _ = reviewed
    saved = json.loads(path.read_text())
    load(page, path)
    wait_loaded(page, path.name)
    page.select_option("#review-player", "1")
    exercises = sorted((m for m in saved["moves"] if m["player"] == 1 and m["mark"]), key=lambda m: m["index"])
    assert page.inner_text("#review-practise") == f"Practise your mistakes ({len(exercises)})"
    page.click("#review-practise")
    first = exercises[0]
    page.wait_for_function(f"ui.index === {first['index']} && current().doc", timeout=WAIT_MS)
    assert page.locator("#review-practice").is_visible()
    said = page.inner_text("#review-exercise")
    assert said.startswith(f"Exercise 1 of {len(exercises)}: move {first['index'] + 1}, player 1 to play.")
    assert f"In the game: {first['move']} ({first['mark']})" in said
    assert page.evaluate("ui.best") is None  # the answer is not on the board
    # The move of the game tried again: the engine judges it, nothing is played.
    play_from_list(page, first["move"])
    page.wait_for_function("['good', 'bad'].includes(document.getElementById('review-verdict').className)")
    verdict = page.inner_text("#review-verdict")
    if page.evaluate("document.getElementById('review-verdict').className") == "bad":
        assert verdict.startswith(f"✗ {first['move']} loses ") and "Try again" in verdict
    assert page.evaluate("[ui.history.length, ui.index]") == [len(history), first["index"]]
    # The best shown, then played: as good as the best.
    page.click("#review-show-best")
    best = page.evaluate("ui.best")
    assert best and page.inner_text("#review-verdict") == f"The engine's best: {best} (outlined on the board)."
    assert page.locator("#board .best").count() > 0
    play_from_list(page, best)
    page.wait_for_function("document.getElementById('review-verdict').className === 'good'", timeout=WAIT_MS)
    assert page.inner_text("#review-verdict").startswith(f"✓ {best}")
    assert page.evaluate("[ui.history.length, ui.index]") == [len(history), first["index"]]
    assert page.evaluate("ui.history.every((node, i) => node.text === reviewState.nodes[i].text)")
    save_screenshot(page, "web-review.png")
    # The next exercise; the engine at player 1's seat plays nothing meanwhile.
    page.locator("#seats input[data-seat='1']").check()
    page.click("#review-next")
    second = exercises[1]
    page.wait_for_function(f"ui.index === {second['index']} && current().doc", timeout=WAIT_MS)
    assert page.inner_text("#review-exercise").startswith(f"Exercise 2 of {len(exercises)}")
    page.wait_for_timeout(300)
    assert page.evaluate("[ui.history.length, ui.index]") == [len(history), second["index"]]
    page.locator("#seats input[data-seat='1']").uncheck()
    # Stopped: the panel goes, the board plays again.
    page.click("#review-practice-stop")
    assert page.locator("#review-practice").is_hidden()
    assert page.inner_text("#review-state") == "practice stopped"
    play_from_list(page, second["move"])
    page.wait_for_function(f"ui.index === {second['index'] + 1}", timeout=WAIT_MS)
    # Leaving an exercise for another position ends the practice too.
    page.click("#review-practise")
    page.wait_for_function(f"ui.index === {first['index']}", timeout=WAIT_MS)
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.getElementById('review-practice').hidden", timeout=WAIT_MS)
    assert page.inner_text("#review-state") == "practice ended: the board left the exercise"


# ---- at a phone's size and a desktop's, light and dark -------------------------------------------


def rgb(text):
    return tuple(int(float(part)) for part in text[text.index("(") + 1 : text.index(")")].split(",")[:3])


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_marks_are_told_apart_at_both_sizes_in_both_themes(browser, server, reviewed, history, size, scheme):
    path, _ = reviewed
    with error_free(open_sized(browser, server, size, scheme)) as page:
        load(page, path)
        wait_loaded(page, path.name)
        panel = rgb(page.eval_on_selector("#review", "(s) => getComputedStyle(s).backgroundColor"))
        looks = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#review-legend .review-mark')]
            .map((m) => [m.dataset.mark, {tag: m.tagName, fill: getComputedStyle(m).fill,
                                          stroke: getComputedStyle(m).stroke}]))""")
        assert {mark: look["tag"] for mark, look in looks.items()} == MARK_SHAPES  # three shapes
        fills = {mark: rgb(look["fill"]) for mark, look in looks.items()}
        for one, two in [("inaccuracy", "mistake"), ("mistake", "blunder"), ("inaccuracy", "blunder")]:
            apart = sum((a - b) ** 2 for a, b in zip(fills[one], fills[two])) ** 0.5
            assert apart >= COLOUR_APART, (scheme, one, two, fills)
        for mark_name, fill in fills.items():
            assert contrast(fill, panel) >= MARK_CONTRAST, (scheme, mark_name, fill, panel)
            assert contrast(rgb(looks[mark_name]["stroke"]), panel) >= 7  # outlined in the page's ink
        # The graph's marks are those shapes and colours.
        for mark_name, tag in MARK_SHAPES.items():
            drawn = page.eval_on_selector_all(
                f"#review-graph .review-mark.mark-{mark_name}",
                "(ms) => ms.map((m) => [m.tagName, getComputedStyle(m).fill])",
            )
            assert all(t == tag and rgb(f) == fills[mark_name] for t, f in drawn)
        # The page fits the screen; the review's controls are a finger's size on a phone.
        assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")
        graph = page.eval_on_selector("#review-graph", "(g) => g.getBoundingClientRect().toJSON()")
        assert graph["width"] <= SIZES[size]["width"]
        if size == "phone":
            page.select_option("#review-player", "1")
            page.click("#review-practise")
            page.wait_for_selector("#review-practice:not([hidden])")
            # The board comes into view for the try, the exercise said under it.
            page.wait_for_function("document.getElementById('board').getBoundingClientRect().top >= 0")
            assert page.evaluate("document.getElementById('board').getBoundingClientRect().top < innerHeight / 2")
            assert page.inner_text("#hint").startswith("Exercise 1 of ")
            controls = page.eval_on_selector_all(
                "#review button, #review select, #review-costly tbody tr",
                "(cs) => cs.filter((c) => c.offsetParent)"
                ".map((c) => [c.id || c.tagName, c.getBoundingClientRect().width, c.getBoundingClientRect().height])",
            )
            small = [c for c in controls if c[0] != "TR" and min(c[1], c[2]) < TAP_PX]
            small += [c for c in controls if c[0] == "TR" and c[2] < TAP_PX]
            assert not small, small
            page.click("#review-practice-stop")
