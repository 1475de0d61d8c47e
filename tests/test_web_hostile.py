"""`tessera serve` against hostile input and hostile pages, on a real server (child
process, 127.0.0.1 only): malformed, deep and oversized JSON on every POST route, huge
and non-finite numbers, wrong types in every field, invalid UTF-8 and lone surrogates,
foreign Host and Origin headers, wrong content types, run folders outside the allowed
directories (``..``, links), clients that go away mid-body, unknown routes and methods.

Every refusal is a 4xx with a one-line JSON ``{"error"}``, never a 5xx; the server's log
holds no traceback; the server serves the next page. A search's kept trees go when its
page's stream closes, or once the board is idle. ``-m slow`` runs a longer fuzz."""

import json
import random
import shutil
import socket
import time

import httpx
import pytest

from tessera.position import Position
from tests.cli_process import tessera
from tests.web_server import running_server

POST_ROUTES = [
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
AZUL = Position.new("azul", seed=1)
WAIT_SECONDS = 120
HOSTILE_VALUES = [
    None,
    True,
    False,
    0,
    -1,
    1,
    2**31,
    2**63,
    2**64,
    -(2**63),
    10**39,
    0.5,
    -0.0,
    1e308,
    5e-324,
    "",
    "x",
    "x" * 20_000,
    "\u0000",
    "..",
    "../../etc/passwd",
    "\U0001f600",
    "F1 blue 1",
    [],
    [1],
    {},
    {"a": [{}]},
    [[[[[]]]]],
    {"seed": 1},
]


# ---- the server and its log ------------------------------------------------------------------


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """A directory the server reads runs under (``allowed``, with a run of its own and a
    link to a run outside) and a run outside it (``outside/run``)."""
    base = tmp_path_factory.mktemp("hostile")
    outside = base / "outside" / "run"
    done = tessera(
        "selfplay",
        "azul",
        "--games",
        "1",
        "--agents",
        "random,random",
        "--seed",
        "2",
        "--workers",
        "1",
        "--out",
        outside,
    )
    assert done.returncode == 0, done.stderr
    allowed = base / "allowed"
    allowed.mkdir()
    shutil.copytree(outside, allowed / "own")
    (allowed / "link").symlink_to(outside, target_is_directory=True)
    linking = allowed / "linked-chunk"  # its own folder, one chunk a link outside
    shutil.copytree(outside, linking)
    for chunk in (linking / "chunks").glob("chunk-*.parquet"):
        chunk.unlink()
        chunk.symlink_to(outside / "chunks" / chunk.name)
    return base


@pytest.fixture(scope="module")
def board(runs):
    """(the URL, the server process) of a board reading runs under ``runs/allowed``."""
    with running_server("--runs", runs / "allowed") as (url, process):
        yield url, process
    assert_clean_log(process)


def assert_clean_log(process):
    log = "".join(process.output)
    assert "Traceback" not in log and "Exception in ASGI" not in log, log


@pytest.fixture
def client(board):
    """A client as the page is one: its own Host, JSON bodies. Each test ends with the
    server still serving and nothing in its log."""
    url, process = board
    with httpx.Client(base_url=url, timeout=WAIT_SECONDS, headers={"Content-Type": "application/json"}) as client:
        yield client
        assert client.post("/api/new", json={"game": "azure", "seed": 1}).json()["game"] == "azure"
    assert_clean_log(process)


def refused(response, statuses=(400,)):
    """The JSON error of a refused request, after checking it is one."""
    assert response.status_code in statuses, (response.status_code, response.text[:300])
    assert response.headers["content-type"] == "application/json"
    error = response.json()["error"]
    assert isinstance(error, str) and error and "\n" not in error
    return error


def not_a_failure(response):
    """Any answer but a server error: 2xx, or a 4xx with its JSON error."""
    if response.status_code < 300:
        response.json()
        return
    refused(response, range(400, 500))


def tab_of(stream):
    """(the lines of an open event stream, the tab id it names first)."""
    lines = stream.iter_lines()
    return lines, next(json.loads(line[5:]) for line in lines if line.startswith("data:"))["tab"]


# ---- bodies ----------------------------------------------------------------------------------

MALFORMED = [
    b"",
    b"{",
    b"}",
    b"[]",
    b"null",
    b"7",
    b'"text"',
    b"{}x",
    b"{'game': 'azul'}",
    b"[" * 100_000,
    b'{"a":' * 50_000,
    b'{"game": ' + b"[" * 40 + b"]" * 40 + b"}",
    b'{"seed": NaN}',
    b'{"seed": Infinity}',
    b'{"seconds": -Infinity}',
    b'{"seed": 1e999}',
    b'{"seed": ' + b"9" * 5000 + b"}",
    b'{"game": "\xff\xfe"}',
    b"\xef\xbb\xbf{}\xc0",
    b'{"game": "\\ud800"}',
    b'{"\\udfff": 1}',
    b'{"move": "F1 \\udc80"}',
    b'{"folder": "\\ud800"}',
    b"\x00" * 100,
]


@pytest.mark.parametrize("route", POST_ROUTES)
def test_malformed_deep_and_non_finite_json_is_refused_on_every_post_route(client, route):
    for body in MALFORMED:
        error = refused(client.post(route, content=body))
        assert error.startswith(("the request", "analysis")) or "must be" in error, (body[:40], error)


def test_a_deep_body_within_the_parsers_reach_is_refused_by_depth(client):
    nested = {"position": AZUL.text(), "rng": None}
    for _ in range(40):
        nested = {"a": nested}
    assert "nests" in refused(client.post("/api/position", json={"position": nested}))


def test_an_oversized_body_is_413(client):
    from tessera.web.http import MAX_BODY

    big = json.dumps({"position": "x" * (MAX_BODY + 1)})
    refused(client.post("/api/position", content=big), (413,))


def valid_bodies(tab=None):
    """A good body of each POST route (the run routes' folder added by the caller)."""
    return {
        "/api/new": {"game": "azul", "seed": 3, "options": {"players": 3}},
        "/api/position": {"position": AZUL.text(), "rng": "5"},
        "/api/play": {"position": AZUL.text(), "move": AZUL.legal_moves[0], "rng": "5", "deal": True},
        "/api/deal": {"position": AZUL.text(), "rng": "5"},
        "/api/view": {"position": AZUL.text(), "player": 2},
        "/api/run": {"folder": None},
        "/api/run/game": {"folder": None, "index": 0},
        "/api/analysis/start": {"tab": tab, "position": AZUL.text(), "seconds": 0.2, "visits": 200, "algo": "mcts"},
        "/api/analysis/stop": {"tab": tab},
        "/api/engine-move": {"tab": tab, "position": AZUL.text(), "seconds": 0.2},
    }


@pytest.mark.long  # every field of every route, a second or more
def test_wrong_types_in_every_field_of_every_route(client, runs):
    """Each field of a good body replaced by each hostile value: refused, or (when the
    value happens to be a good one) answered; never a server error."""
    own = str(runs / "allowed" / "own")
    for route, body in valid_bodies(tab="0" * 16).items():
        if "folder" in body:
            body["folder"] = own
        for field in body:
            for value in HOSTILE_VALUES:
                not_a_failure(client.post(route, json={**body, field: value}))


def test_numbers_are_checked_finite_whole_and_in_range(client, runs):
    own = str(runs / "allowed" / "own")
    for seed in (2**63, -1, 1.0, True, 10**30):
        assert "seed must be" in refused(client.post("/api/new", json={"game": "azul", "seed": seed}))
    for index in (2**63, -1, 1.5, "0", None, 10**30):
        assert "index must be" in refused(client.post("/api/run/game", json={"folder": own, "index": index}))
    for player in (0, 9, 2**63, 1.0, True):
        assert "player must be" in refused(client.post("/api/view", json={"position": AZUL.text(), "player": player}))
    for deal in (1, "yes", None, []):
        assert "deal must be" in refused(
            client.post("/api/play", json={"position": AZUL.text(), "move": AZUL.legal_moves[0], "deal": deal})
        )
    for rng in (-1, 2**64, "1e5", 1.5, [], "9" * 5000):
        assert "rng must be" in refused(client.post("/api/position", json={"position": AZUL.text(), "rng": rng}))


def test_game_options_that_collide_or_mistype_are_refused(client):
    for options, message in (
        ({"seed": 1}, "no option 'seed'"),
        ({"players": "3"}, "players must be"),
        ({"players": True}, "players must be"),
        ({"variant": "pink"}, "variant must be"),
        ({"variant": ["gray"]}, "variant must be"),
        ([], "options must be"),
        ({"__class__": 1}, "no option"),
    ):
        assert message in refused(client.post("/api/new", json={"game": "azul", "options": options}))
    assert client.post("/api/new", json={"game": "azul", "options": {"variant": "gray"}}).status_code == 200


@pytest.mark.long  # hundreds of requests
def test_seeded_random_bodies_never_fail_the_server(client, runs):
    fuzz(client, runs, random.Random(20260), 1000)


@pytest.mark.slow
def test_many_seeded_random_bodies_never_fail_the_server(client, runs):
    fuzz(client, runs, random.Random(7), 20_000)


def fuzz(client, runs, rng, count):
    """``count`` requests: a good body of a route with fields replaced, dropped or added,
    and values drawn from ``rng`` (nested, huge, odd text)."""
    routes = valid_bodies(tab="f" * 16)
    for body in routes.values():
        if "folder" in body:
            body["folder"] = str(runs / "allowed" / "own")
    names = sorted({name for body in routes.values() for name in body} | {"options", "x"})
    for _ in range(count):
        route = rng.choice(POST_ROUTES)
        body = dict(routes[route])
        for _ in range(rng.randint(1, 3)):
            action = rng.random()
            if action < 0.2 and body:
                del body[rng.choice(sorted(body))]
            else:
                body[rng.choice(names)] = random_value(rng, 3)
        not_a_failure(client.post(route, json=body))


def random_value(rng, depth):
    kind = rng.randrange(9 if depth else 6)
    if kind == 0:
        return rng.choice(HOSTILE_VALUES)
    if kind == 1:
        return rng.choice([-1, 1]) * rng.getrandbits(rng.choice([4, 32, 63, 64, 100]))
    if kind == 2:
        return rng.choice([-1, 1]) * rng.random() * 10 ** rng.randint(-300, 300)
    if kind == 3:
        return "".join(
            chr(rng.choice([rng.randint(32, 126), rng.randint(0x80, 0xD7FF), rng.randint(0xE000, 0x10FFFF)]))
            for _ in range(rng.randint(0, 30))
        )
    if kind == 4:
        return rng.choice([AZUL.text(), AZUL.text()[:40], AZUL.legal_moves[0], "azure", "pavilion"])
    if kind == 5:
        return rng.choice([True, False, None])
    if kind in (6, 7):
        return [random_value(rng, depth - 1) for _ in range(rng.randint(0, 3))]
    return {
        rng.choice(["game", "seed", "players", "a", ""]): random_value(rng, depth - 1) for _ in range(rng.randint(0, 3))
    }


# ---- who may drive the board -----------------------------------------------------------------


def test_foreign_host_and_origin_are_refused(client, board):
    url, _ = board
    port = url.rsplit(":", 1)[1]
    new = json.dumps({"game": "azul"})
    # The attack as it came: a text/plain POST of a foreign page through a rebound name.
    attack = client.post(
        "/api/new",
        content=new,
        headers={"Content-Type": "text/plain", "Origin": "http://attacker.example", "Host": "attacker.example"},
    )
    assert "own address" in refused(attack, (403,))
    for host in (
        "attacker.example",
        f"attacker.example:{port}",
        "127.0.0.1",
        "127.0.0.1:1",
        f"localhost.attacker.example:{port}",
    ):
        for method, path in (
            ("GET", "/"),
            ("GET", "/api/games"),
            ("POST", "/api/new"),
            ("GET", "/api/analysis/stream"),
        ):
            response = client.request(method, path, content=new, headers={"Host": host})
            assert "own address" in refused(response, (403,)), (host, path)
    for origin in (
        "http://attacker.example",
        "null",
        f"http://localhost:{port}.attacker.example",
        f"https://127.0.0.1:{port}",
        f"http://127.0.0.1:{int(port) + 1}",
    ):
        assert "another origin" in refused(client.post("/api/new", content=new, headers={"Origin": origin}), (403,))
        assert "another origin" in refused(client.get("/api/analysis/stream", headers={"Origin": origin}), (403,))
    cross_site = client.post("/api/new", content=new, headers={"Sec-Fetch-Site": "cross-site"})
    assert "another site" in refused(cross_site, (403,))
    # ... and the page's own requests, under each name of this machine, are served.
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"):
        own = client.post(
            "/api/new", content=new, headers={"Host": host, "Origin": f"http://{host}", "Sec-Fetch-Site": "same-origin"}
        )
        assert own.status_code == 200, own.text
    link = client.get("/", headers={"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"})
    assert link.status_code == 200  # a link to the board from another page


def test_a_post_must_be_json(client):
    new = json.dumps({"game": "azul"})
    for content_type in (
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data",
        "application/jsonx",
        "",
        "text/json",
    ):
        assert "Content-Type" in refused(
            client.post("/api/new", content=new, headers={"Content-Type": content_type}), (415,)
        )
    assert (
        client.post("/api/new", content=new, headers={"Content-Type": "Application/JSON; charset=utf-8"}).status_code
        == 200
    )


def test_run_folders_outside_the_given_directories_are_refused(client, runs):
    allowed = runs / "allowed"
    assert client.post("/api/run", json={"folder": str(allowed / "own")}).json()["count"] == 1
    outside = [
        runs / "outside" / "run",
        allowed / ".." / "outside" / "run",
        allowed / "link",
        allowed / "link" / ".." / "run",
        "/",
        "/etc",
        "~",
        "../" * 30,
        ".",
    ]
    for folder in outside:
        for route in ("/api/run", "/api/run/game"):
            error = refused(client.post(route, json={"folder": str(folder), "index": 0}))
            assert "outside the run directories" in error, (folder, error)
    for folder in (
        allowed / ("a" * 5000),
        allowed / ("a" * 200) / ("b" * 200) / "c",
        allowed / "no\x00pe",
        allowed,
        allowed / "own" / "run.json",
    ):
        refused(client.post("/api/run", json={"folder": str(folder)}))
        refused(client.post("/api/run/game", json={"folder": str(folder), "index": 0}))


def test_a_run_folder_whose_chunk_links_outside_is_refused(client, runs):
    folder = runs / "allowed" / "linked-chunk"
    assert any(path.is_symlink() for path in (folder / "chunks").iterdir())
    for route in ("/api/run", "/api/run/game"):
        error = refused(client.post(route, json={"folder": str(folder), "index": 0}))
        assert "links chunk-" in error and "outside the run directories" in error, error


def test_unknown_routes_and_methods_answer_json(client):
    for method, path, status in (
        ("GET", "/nope", 404),
        ("GET", "/static/nope.js", 404),
        ("GET", "/api/new", 405),
        ("POST", "/api/games", 405),
        ("PUT", "/api/play", 405),
        ("DELETE", "/", 405),
        ("GET", "/api/" + "x" * 5000, 404),
        ("GET", "/%ff%fe", 404),
        ("GET", "/static/%2e%2e/%2e%2e/web/app.py", 404),
        ("GET", "/static/..%2f..%2fcli.py", 404),
    ):
        refused(client.request(method, path, json={}), (status,))


def test_clients_that_go_away_mid_body_leave_no_trace(client, board):
    url, process = board
    host, port = url.removeprefix("http://").split(":")
    for route in POST_ROUTES:
        for head in (b"Content-Length: 1000", b"Transfer-Encoding: chunked"):
            with socket.create_connection((host, int(port)), timeout=10) as raw:
                raw.sendall(
                    f"POST {route} HTTP/1.1\r\nHost: {host}:{port}\r\n".encode()
                    + head
                    + b"\r\nContent-Type: application/json\r\n\r\n"
                    + (b'{"game": "az' if b"Length" in head else b'5\r\n{"gam\r\n')
                )
    assert client.get("/api/games").status_code == 200
    time.sleep(0.5)  # the server sees the last connections close
    assert_clean_log(process)


def test_analysis_fields_are_checked_before_any_search(client, board):
    with client.stream("GET", "/api/analysis/stream") as stream:
        _, tab = tab_of(stream)
        for fields in (
            {"seconds": 1e308},
            {"seconds": 121},
            {"seconds": 0},
            {"seconds": True},
            {"seconds": "soon"},
            {"seconds": [1]},
            {"visits": 2**63},
            {"visits": 0},
            {"visits": 1.5},
            {"algo": ["mcts"]},
            {"algo": {"a": 1}},
            {"position": 5},
            {"tab": 5},
            {"tab": "x" * 10_000},
        ):
            refused(client.post("/api/analysis/start", json={"tab": tab, "position": AZUL.text(), **fields}))
        for seconds in (1e308, 121, -1, "1"):
            refused(client.post("/api/engine-move", json={"tab": tab, "position": AZUL.text(), "seconds": seconds}))
        refused(client.post("/api/engine-move", content=b'{"tab": "%s", "seconds": Infinity}' % tab.encode()))
        status = client.get(f"/api/analysis/status?tab={tab}").json()
        assert status == {"open": True, "searching": False}


# ---- memory ------------------------------------------------------------------------------------


def kept_trees(client):
    return client.get("/api/status").json()["memory"]["kept_trees"]


def wait_until(condition, what):
    deadline = time.monotonic() + WAIT_SECONDS
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


def search_to_the_end(client, lines, tab):
    started = client.post(
        "/api/analysis/start", json={"tab": tab, "position": AZUL.text(), "visits": 2000, "seconds": 60}
    )
    assert started.status_code == 200, started.text
    query = started.json()["id"]
    for line in lines:
        if line.startswith("data:"):
            answer = json.loads(line[5:])
            if answer.get("id") == query and not answer["isDuringSearch"]:
                assert answer["root"]["visits"] >= 2000, answer
                return


def test_a_closed_pages_kept_tree_is_dropped_and_memory_is_reported(client, board):
    status = client.get("/api/status").json()
    memory = status["memory"]
    from tessera.web.analysis import DEFAULT_MEMORY_MB, search_memory_mb

    assert memory["cap"] == DEFAULT_MEMORY_MB << 20
    assert memory["per_search"] == search_memory_mb(DEFAULT_MEMORY_MB, status["searches"]) << 20
    assert memory["per_search"] * status["searches"] * 5 <= memory["cap"]
    with client.stream("GET", "/api/analysis/stream") as stream:
        lines, tab = tab_of(stream)
        search_to_the_end(client, lines, tab)
        wait_until(lambda: kept_trees(client) >= 1, "the finished search's tree is kept")
        assert client.get("/api/status").json()["memory"]["held"] > 0
    wait_until(lambda: kept_trees(client) == 0, "the closed page's tree is dropped")


@pytest.mark.long  # a server of its own
def test_an_idle_boards_kept_trees_are_dropped():
    with (
        running_server("--idle", "0.5", "--memory", "1000", "--searches", "1") as (url, process),
        httpx.Client(base_url=url, timeout=WAIT_SECONDS) as client,
    ):
        assert client.get("/api/status").json()["memory"]["cap"] == 1000 << 20
        with client.stream("GET", "/api/analysis/stream") as stream:
            lines, tab = tab_of(stream)
            search_to_the_end(client, lines, tab)
            wait_until(lambda: kept_trees(client) == 0, "the idle board's tree is dropped")
    assert_clean_log(process)


# ---- the command -------------------------------------------------------------------------------


@pytest.mark.long  # a server of its own
def test_a_token_guards_the_board_and_the_page_gets_it_once():
    with running_server("--token", "s3cret") as (url, process):
        assert "?token=s3cret" in "".join(process.output)
        port = url.rsplit(":", 1)[1]
        with httpx.Client(base_url=url, timeout=WAIT_SECONDS) as client:
            for path in ("/", "/api/games", "/static/app.js", "/api/status"):
                assert "token" in refused(client.get(path), (403,))
            assert "token" in refused(client.get("/", headers={"X-Tessera-Token": "wrong"}), (403,))
            assert "token" in refused(client.get("/?token=wrong"), (403,))
            entry = client.get("/?token=s3cret")
            assert entry.status_code == 303 and entry.headers["location"] == "/"
            assert client.cookies.get(f"tessera-token-{port}") == "s3cret"
            assert client.get("/").status_code == 200  # the cookie carries it now
            assert client.post("/api/new", json={"game": "azul"}).status_code == 200
        with httpx.Client(base_url=url, timeout=WAIT_SECONDS) as script:
            assert script.get("/api/games", headers={"X-Tessera-Token": "s3cret"}).status_code == 200


@pytest.mark.long  # six servers started
def test_listening_beyond_loopback_warns_and_bad_options_are_one_line_errors(tmp_path):
    # 192.0.2.1 (TEST-NET-1) is no address of this machine: the warning, then the refusal.
    beyond = tessera("serve", "--host", "192.0.2.1", "--port", "1")
    assert beyond.returncode == 2
    warning, error = beyond.stderr.strip().splitlines()
    assert warning.startswith("warning: ") and "anyone who can reach port 1 can drive" in warning
    assert error.startswith("error: cannot listen on 192.0.2.1:1")
    for args, message in (
        (("--runs", tmp_path / "none"), "no such directory"),
        (("--memory", "1"), "too little"),
        (("--token", ""), "must not be empty"),
        # The token is sent in a cookie and the page's address: a character neither carries
        # as it is would break the page's first answer, so it is refused at the start.
        (("--token", "s\u00e9sam\u00e9"), "printable ASCII"),
        (("--token", "two words"), "printable ASCII"),
    ):
        result = tessera("serve", "--port", "1", *args)
        assert result.returncode == 2 and message in result.stderr, result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
