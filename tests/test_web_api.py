"""The JSON API of `tessera serve` (solver/web) through Starlette's test client, without
the analysis engine: positions and moves, chance dealt by the game's seed as `tessera
selfplay` deals it, the fields clicks map to, the Azure realm and views, self-play runs,
and bad input answered with HTTP 400 and the engine's one-line error."""

import random
import socket

import pytest
from starlette.testclient import TestClient

from tessera.agents import parse_agent, play_game
from tessera.games import get_game
from tessera.position import Position
from tessera.web.app import create_app
from tessera.web.moves import fields
from tests.cli_process import tessera

GAMES = ("azul", "pavilion", "azure")


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    """The board's API as a page on this machine reaches it; it reads run folders under
    the tests' temporary directories."""
    app = create_app(analysis=False, runs=[tmp_path_factory.getbasetemp()])
    with TestClient(app, base_url="http://127.0.0.1:8765") as test_client:
        yield test_client


def post(client, path, body, status=200):
    response = client.post(path, json=body)
    assert response.status_code == status, response.text
    return response.json()


@pytest.mark.parametrize("game", GAMES)
def test_a_new_game_is_tessera_news_with_its_legal_moves(client, game):
    doc = post(client, "/api/new", {"game": game, "seed": 3})
    start = Position.new(game, seed=3)
    assert doc["text"] == start.text() and doc["json"] == start.to_json()
    assert [move["text"] for move in doc["moves"]] == start.legal_moves
    assert doc["to_move"] == 1 and not doc["is_over"] and doc["status"]


@pytest.mark.parametrize("game", GAMES)
def test_a_game_played_through_the_api_deals_chance_as_self_play_does(client, game):
    """The seed's generator goes back and forth with each position: the same seed and
    player moves give the game `play_game` plays (and `tessera analyze` with startSeed)."""
    record = play_game(get_game(game), {}, [parse_agent("random", seed=s) for s in (1, 2)], seed=9)
    doc = post(client, "/api/new", {"game": game, "seed": 9})
    dealt = 0
    for _, code in record.moves:
        state = Position.parse(doc["text"]).state
        move = get_game(game).format_move(state, code)
        doc = post(client, "/api/play", {"position": doc["text"], "move": move, "rng": doc["rng"]})
        dealt += doc["dealt"]
    assert doc["is_over"] and doc["scores"] == list(record.scores)
    assert dealt > 0 or game == "azure"


def test_chance_by_hand_lists_the_outcomes_with_their_probabilities(client):
    start = Position.new("azul", seed=4)
    last_draft = start
    while not last_draft.play(last_draft.legal_moves[0]).is_chance:
        last_draft = last_draft.play(last_draft.legal_moves[0])
    doc = post(client, "/api/play", {"position": last_draft.text(), "move": last_draft.legal_moves[0], "deal": False})
    assert doc["is_chance"] and not doc["dealt"]
    assert abs(sum(move["probability"] for move in doc["moves"]) - 1) < 1e-9
    drawn = post(client, "/api/play", {"position": doc["text"], "move": "draw red", "deal": False})
    assert drawn["json"]["factories"][0] == "R"
    dealt = post(client, "/api/deal", {"position": doc["text"], "rng": doc["rng"]})
    assert dealt["dealt"] and dealt["to_move"] is not None


def test_a_position_reads_from_text_or_json(client):
    start = Position.new("pavilion", seed=2, players=3)
    assert post(client, "/api/position", {"position": start.text()})["text"] == start.text()
    assert post(client, "/api/position", {"position": start.to_json()})["text"] == start.text()


# ---- the fields clicks map to ---------------------------------------------------------------


@pytest.mark.parametrize(
    "game, text, expected",
    [
        ("azul", "F3 blue 4", {"kind": "draft", "source": "F3", "colour": "B", "destination": "4"}),
        ("azul", "C red floor", {"kind": "draft", "source": "C", "colour": "R", "destination": "floor"}),
        ("azul", "col 2", {"kind": "col", "column": 2}),
        ("azul", "draw black", {"kind": "draw", "colour": "K"}),
        ("pavilion", "F2 wild", {"kind": "draft", "source": "F2", "colour": "wild"}),
        ("pavilion", "C blue", {"kind": "draft", "source": "C", "colour": "B"}),
        ("pavilion", "place red 3 wild 1", {"kind": "place", "star": "R", "space": 3, "colour": "R", "wild": 1}),
        ("pavilion", "place centre 4 blue", {"kind": "place", "star": "C", "space": 4, "colour": "B", "wild": 0}),
        ("pavilion", "take YBB", {"kind": "take", "tiles": "YBB"}),
        ("pavilion", "keep -", {"kind": "keep", "tiles": "-"}),
        ("pavilion", "pass", {"kind": "pass"}),
        ("azure", "place c4", {"kind": "place", "cell": "c4"}),
        ("azure", "gifted b2", {"kind": "gifted", "cell": "b2"}),
        ("azure", "boon wisdom", {"kind": "boon", "boon": "wisdom"}),
        ("azure", "return azure+black", {"kind": "return", "colours": "AB"}),
        ("azure", "draw vermillion", {"kind": "draw", "colour": "V"}),
    ],
)
def test_a_moves_fields(game, text, expected):
    assert fields(game, text) == {"text": text, **expected}


@pytest.mark.parametrize("game", GAMES)
def test_every_move_of_random_games_has_its_fields(game):
    """Whatever a game offers (every phase of random games), the fields read it."""
    rng = random.Random(5)
    kinds = set()
    for seed in range(3):
        position = Position.new(game, seed=seed)
        while not position.is_over:
            if position.is_chance:
                position = position.draw_chance(rng.randrange(1 << 30))
                continue
            for text in position.legal_moves:
                kinds.add(fields(game, text)["kind"])
            position = position.play(rng.choice(position.legal_moves))
    assert {"azul": {"draft"}, "pavilion": {"draft", "place", "pass"}, "azure": {"place"}}[game] <= kinds


# ---- Azure: the realm and the views ------------------------------------------------------------


def test_the_azure_realm_is_read_from_the_board_data(client):
    doc = post(client, "/api/new", {"game": "azure", "seed": 5})
    cells = doc["realm"]["cells"]
    assert doc["realm"]["size"] == 6 and len(cells) == 36 and doc["realm"]["track"] is None
    mountains = [cell for cell in cells if cell["kind"] == "mountain"]
    assert sorted(cell["beast"] for cell in mountains) == ["bird", "dragon", "tiger", "tortoise"]
    move = doc["moves"][0]
    after = post(client, "/api/play", {"position": doc["text"], "move": move["text"], "rng": doc["rng"]})
    stone = next(cell for cell in after["realm"]["cells"] if cell["cell"] == move["cell"])["stone"]
    assert stone == {"player": 1, "gifted": False}
    cosmos = post(client, "/api/new", {"game": "azure", "seed": 5, "options": {"cosmos": True}})
    assert cosmos["realm"]["size"] == 8 and cosmos["realm"]["track"]["end"] > 0
    assert cosmos["realm"]["track"]["standin"]  # the packaged boards


def test_an_azure_view_hides_what_its_player_cannot_see(client):
    doc = post(client, "/api/new", {"game": "azure", "seed": 5})
    hand_1 = doc["json"]["players"][0]["hand"]
    seen_by_2 = doc["views"]["2"]["players"][0]["hand"]
    assert "?" not in hand_1 and seen_by_2 == "?" * len(hand_1)  # drawn from the hidden deck
    assert set(doc["views"]["1"]["deck"]) == {"?"}
    view = post(client, "/api/view", {"position": doc["text"], "player": 2})
    assert view["is_view"] and view["moves"] == []  # player 1's moves are hidden


# ---- self-play runs --------------------------------------------------------------------------


@pytest.mark.long  # a self-play run
def test_a_self_play_run_is_listed_and_replayed(client, tmp_path):
    run = tmp_path / "run"
    done = tessera(
        "selfplay",
        "pavilion",
        "--games",
        "2",
        "--agents",
        "random,greedy",
        "--seed",
        "3",
        "--workers",
        "1",
        "--out",
        run,
    )
    assert done.returncode == 0, done.stderr
    listing = post(client, "/api/run", {"folder": str(run)})
    assert listing["game"] == "pavilion" and listing["count"] == 2
    first = listing["games"][0]
    game = post(client, "/api/run/game", {"folder": str(run), "index": first["index"]})
    assert len(game["plies"]) == first["length"]
    last = Position.parse(game["plies"][-1]["text"])
    assert last.is_over and last.scores == first["scores"]
    # Play on from a replayed position with its generator: the API takes it back.
    middle = game["plies"][3]
    doc = post(client, "/api/position", {"position": middle["text"], "rng": middle["rng"]})
    assert doc["text"] == middle["text"]
    missing = post(client, "/api/run", {"folder": str(tmp_path / "none")}, status=400)
    assert "no self-play run" in missing["error"]
    for index, message in ((7, "has no game 7"), ("0", "index must be a whole number")):
        refused = post(client, "/api/run/game", {"folder": str(run), "index": index}, status=400)
        assert message in refused["error"]


# ---- bad input ---------------------------------------------------------------------------------


def test_a_bad_position_gets_the_engines_one_line_error(client):
    shown = tessera("show", "azul players 9")
    expected = shown.stderr.strip().removeprefix("error: ")
    assert shown.returncode == 2
    assert post(client, "/api/position", {"position": "azul players 9"}, status=400) == {"error": expected}


@pytest.mark.parametrize(
    "path, body, message",
    [
        ("/api/new", {"game": "chess"}, "unknown game 'chess'"),
        ("/api/new", {"game": "azul", "options": {"colours": 6}}, "azul has no option 'colours'"),
        ("/api/new", {"game": "azul", "options": {"players": 7}}, "players must be 2, 3 or 4"),
        ("/api/new", {"game": "azul", "seed": -1}, "seed must be"),
        ("/api/new", {"game": "azul", "seed": "x"}, "seed must be"),
        ("/api/new", {"game": ["azul"]}, "game must be"),
        ("/api/position", {"position": 7}, "position must be"),
        ("/api/position", {"position": "{"}, "bad position"),
        ("/api/play", {"position": "azul", "move": "F1 blue 1"}, "bad position"),
        ("/api/play", {"position": Position.new("azul", seed=1).text(), "move": "F9 red 1"}, "bad move 'F9 red 1'"),
        ("/api/play", {"position": Position.new("azul", seed=1).text(), "move": None}, "move must be"),
        (
            "/api/play",
            {"position": Position.new("azul", seed=1).text(), "move": "F1 blue 1", "rng": "x"},
            "rng must be",
        ),
        (
            "/api/play",
            {"position": Position.new("azul", seed=1).text(), "move": "F1 blue 1", "rng": 1.5},
            "rng must be",
        ),
        ("/api/new", {"game": "azure", "options": {"layout": 7}}, "layout must be"),
        ("/api/view", {"position": Position.new("azure", seed=1).text(), "player": 3}, "player must be 1 to 2"),
        ("/api/run/game", {"folder": 5}, "folder must be"),
        ("/api/analysis/start", {"tab": "x"}, "analysis is off"),
    ],
)
def test_bad_input_is_answered_with_400_and_one_line(client, path, body, message):
    error = post(client, path, body, status=400)["error"]
    assert message in error and "\n" not in error


def test_chance_is_not_dealt_on_a_players_view(client):
    """A view hides the cards chance draws from: dealing needs the complete position, as
    ``Position.draw_chance`` does."""
    view = Position.from_state(get_game("azure").undealt(0)).view(1)
    assert view.is_chance
    error = post(client, "/api/deal", {"position": view.text()}, status=400)["error"]
    assert error == "deal needs a complete position; this is a player's view"


def test_bodies_that_are_not_json_objects_are_refused(client):
    json_type = {"Content-Type": "application/json"}
    for content in (b"not json", b"[1, 2]", b"\xff\xfe", b'"text"'):
        response = client.post("/api/position", content=content, headers=json_type)
        assert response.status_code == 400 and response.json()["error"].startswith("the request")
    assert client.post("/api/new", content=b"x" * (2 << 20), headers=json_type).status_code == 413
    assert client.get("/api/games").status_code == 200  # and the server goes on


def test_the_page_and_its_assets_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and '<svg id="board"' in page.text
    for asset in ("app.js", "svg.js", "azul.js", "pavilion.js", "azure.js", "style.css"):
        assert f"/static/{asset}" in page.text
        assert client.get(f"/static/{asset}").status_code == 200


def test_serve_on_a_port_in_use_is_a_one_line_error():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = tessera("serve", "--port", port)
    assert result.returncode == 2
    assert result.stderr.startswith(f"error: cannot listen on 127.0.0.1:{port}: ")
    assert len(result.stderr.strip().splitlines()) == 1
