"""The tessera command line, run in-process with click's CliRunner."""

import json
import subprocess
import sys

import numpy as np
import pytest
from click.testing import CliRunner

import tessera.kernels.azul as azul
from tessera.bench import BENCH_POSITIONS, bench_states
from tessera.cli import main
from tessera.games import game_of_position, get_game
from tessera.kernels import bind, games
from tessera.kernels.rng import below, make_rng
from tests.limits import COLD_START_SECONDS

AZUL = get_game("azul")


def run(*args, stdin=None):
    return CliRunner().invoke(main, [str(arg) for arg in args], input=stdin)


def ok(*args, stdin=None):
    result = run(*args, stdin=stdin)
    assert result.exit_code == 0, result.output
    return result


def start(seed=1, players=2, variant="colour"):
    return AZUL.new(seed, players=players, variant=variant)


def play_until(state, wanted, seed=0, limit=2000):
    """Random moves (and draws) from ``state`` until ``wanted(state)``; returns the state."""
    rng = make_rng(seed)
    moves = np.empty(games.MAX_MOVES, np.int64)
    probabilities = np.empty(games.MAX_MOVES, np.float64)
    for _ in range(limit):
        if wanted(state):
            return state
        who = games.to_move(state)
        assert who != games.TERMINAL, "game ended before the wanted position"
        if who == games.CHANCE:
            count = games.chance_outcomes(state, moves, probabilities)
        else:
            count = games.legal_moves(state, moves)
        games.apply_move(state, moves[below(rng, count)])
    raise AssertionError("wanted position not reached")


def is_chance(state):
    return games.to_move(state) == games.CHANCE


def is_over(state):
    return games.to_move(state) == games.TERMINAL


def is_tiling(state):
    return AZUL.position_to_json(state)["phase"] == "tiling"


def kernel_moves(state):
    moves = np.empty(games.MAX_MOVES, np.int64)
    return list(moves[: azul.legal_moves(state, moves)])


def text(state):
    return AZUL.format_position(state)


def parsed(output):
    return game_of_position(output)[1]


# ---- new -----------------------------------------------------------------------------


def test_new_is_seeded():
    first = ok("new", "azul", "--seed", 7).stdout
    assert ok("new", "azul", "--seed", 7).stdout == first
    assert ok("new", "azul", "--seed", 8).stdout != first
    assert np.array_equal(parsed(first), start(7))


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", ["colour", "gray"])
def test_new_options(players, variant):
    out = ok("new", "azul", "--players", players, "--variant", variant, "--seed", 3).stdout
    state = parsed(out)
    assert np.array_equal(state, start(3, players, variant))


def test_new_json():
    obj = json.loads(ok("new", "azul", "--seed", 5, "--players", 3, "--json").stdout)
    assert obj["game"] == "azul" and obj["players"] == 3
    assert np.array_equal(AZUL.position_from_json(obj), start(5, 3))


def test_new_without_seed_gives_a_start():
    state = parsed(ok("new", "azul").stdout)
    assert games.to_move(state) == 0 and len(kernel_moves(state)) > 0


def test_new_lists_games_in_help():
    assert "azul" in ok("new", "--help").stdout


# ---- show ----------------------------------------------------------------------------


def test_show_draws_the_position_plainly(tmp_path):
    path = tmp_path / "start.txt"
    path.write_text(text(start(2)))
    out = ok("show", path).stdout
    assert "\x1b[" not in out  # no colour codes off a terminal
    assert "Azul · 2 players · colour wall · round 1" in out
    assert "draft: player 1 to move" in out
    assert "Player 1" in out and "Player 2" in out
    assert "-1 -1 -2 -2 -2 -3 -3" in out
    assert "b y r k w" in out  # the empty colour wall's first row
    factories = text(start(2)).splitlines()[1].split()[1:]
    assert " ".join(factories[0]) in out  # factory 1's tiles, one letter each


@pytest.mark.parametrize(
    "wanted, heading",
    [
        (is_chance, "refill: chance draws a tile for factory"),
        (is_tiling, "tiling: player"),
        (is_over, "game over: player"),
    ],
)
def test_show_every_phase(wanted, heading):
    state = play_until(start(4, 3, "gray"), wanted, seed=4)
    out = ok("show", text(state)).stdout
    assert heading in out


# ---- moves ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_moves_lists_the_kernel_moves(players):
    state = start(players, players)
    out = ok("moves", text(state)).stdout.splitlines()
    expected = kernel_moves(state)
    assert out[0] == f"player 1 to move: {len(expected)} moves"
    assert len(out) == 1 + len(expected)
    assert [AZUL.parse_move(state, line) for line in out[1:]] == expected


def test_moves_json_mid_game():
    state = start(9)
    games.apply_move(state, kernel_moves(state)[3])
    listing = json.loads(ok("moves", text(state), "--json").stdout)
    assert listing["to_move"] == "player" and listing["player"] == 2
    assert [AZUL.parse_move(state, m) for m in listing["moves"]] == kernel_moves(state)


def test_moves_at_a_refill_gives_draw_probabilities():
    state = play_until(start(3), is_chance, seed=3)
    codes = np.empty(games.MAX_MOVES, np.int64)
    probabilities = np.empty(games.MAX_MOVES, np.float64)
    count = games.chance_outcomes(state, codes, probabilities)
    listing = json.loads(ok("moves", text(state), "--json").stdout)
    assert listing["to_move"] == "chance" and listing["player"] is None
    assert listing["moves"] == [AZUL.format_move(state, m) for m in codes[:count]]
    assert listing["probabilities"] == pytest.approx(list(probabilities[:count]))
    assert sum(listing["probabilities"]) == pytest.approx(1.0)
    lines = ok("moves", text(state)).stdout.splitlines()
    assert lines[0] == f"chance to draw: {count} outcomes"
    assert lines[1].startswith("draw ") and "p=0." in lines[1]


def test_moves_when_the_game_is_over():
    state = play_until(start(5), is_over, seed=5)
    assert ok("moves", text(state)).stdout == "game over: no moves\n"


def test_moves_reads_stdin_and_json():
    state = start(6)
    assert ok("moves", "-", stdin=text(state)).stdout == ok("moves", text(state)).stdout
    as_json = json.dumps(AZUL.position_to_json(state))
    assert ok("moves", as_json).stdout == ok("moves", text(state)).stdout


def test_moves_accepts_a_one_line_position():
    state = start(6)
    assert ok("moves", text(state).replace("\n", "; ")).stdout == ok("moves", text(state)).stdout


# ---- play ----------------------------------------------------------------------------


def test_play_applies_moves_like_the_kernel():
    state = start(11)
    first = kernel_moves(state)[0]
    expected = state.copy()
    games.apply_move(expected, first)
    second = kernel_moves(expected)[-1]
    move_texts = [AZUL.format_move(state, first), AZUL.format_move(expected, second)]
    games.apply_move(expected, second)
    result = ok("play", text(state), *move_texts)
    assert np.array_equal(parsed(result.stdout), expected)
    assert "score changes: player 1 +0 (now 0), player 2 +0 (now 0)" in result.stderr


def test_play_reports_score_changes():
    """The last draft of a round tiles the walls; play reports what the kernel scores."""
    state = play_until(start(12), _first_move_scores, seed=12)
    move = kernel_moves(state)[0]
    after = state.copy()
    games.apply_move(after, move)
    before_scores, after_scores = _scores(state), _scores(after)
    result = ok("play", text(state), AZUL.format_move(state, move), "--json")
    report = json.loads(result.stdout)
    assert report["moves"] == [AZUL.format_move(state, move)]
    assert np.array_equal(AZUL.position_from_json(report["position"]), after)
    assert report["scores"] == after_scores
    assert report["score_changes"] == [a - b for a, b in zip(after_scores, before_scores)]
    assert any(report["score_changes"])


def _first_move_scores(state):
    if games.to_move(state) < 0:
        return False
    after = state.copy()
    games.apply_move(after, kernel_moves(state)[0])
    return _scores(after) != _scores(state)


def _scores(state):
    out = np.zeros(games.players(state), np.int64)
    games.scores(state, out)
    return out.tolist()


def test_play_a_draw_at_a_refill():
    state = play_until(start(13), is_chance, seed=13)
    colour = json.loads(ok("moves", text(state), "--json").stdout)["moves"][0]
    expected = state.copy()
    games.apply_move(expected, AZUL.parse_move(state, colour))
    assert np.array_equal(parsed(ok("play", text(state), colour).stdout), expected)


def test_play_output_pipes_into_another_command():
    state = start(14)
    first = ok("play", text(state), AZUL.format_move(state, kernel_moves(state)[0])).stdout
    assert ok("moves", "-", stdin=first).stdout.startswith("player 2 to move:")


# ---- perft ---------------------------------------------------------------------------


def _nodes(out):
    return int(next(line for line in out.splitlines() if line.startswith("nodes ")).split()[1])


@pytest.mark.parametrize("players, variant", [(2, "colour"), (3, "gray"), (4, "colour")])
def test_perft_depth_one_is_the_move_count(players, variant):
    state = start(20, players, variant)
    out = ok("perft", text(state), "--depth", 1).stdout
    assert _nodes(out) == len(kernel_moves(state))
    assert "time " in out and "nodes/s " in out


def test_perft_matches_the_kernel():
    state = start(21)
    assert _nodes(ok("perft", text(state), "-d", 3).stdout) == bind.instance(state[0], "perft").perft(state, 3)
    assert _nodes(ok("perft", text(state), "-d", 0).stdout) == 1


def test_perft_divide_sums_to_perft():
    state = start(22, 3)
    out = ok("perft", text(state), "--depth", 2, "--divide").stdout
    rows = [line.rsplit(": ", 1) for line in out.splitlines() if ": " in line]
    assert [AZUL.parse_move(state, move) for move, _ in rows] == kernel_moves(state)
    assert sum(int(n) for _, n in rows) == _nodes(out) == bind.instance(state[0], "perft").perft(state, 2)


def test_perft_stops_at_chance():
    state = play_until(start(23), is_chance, seed=23)
    assert _nodes(ok("perft", text(state), "-d", 3, "--divide").stdout) == 1
    assert "refill or the end of the game" in " ".join(ok("perft", "--help").stdout.split())


# ---- bench ---------------------------------------------------------------------------


def test_bench_signature_is_the_total_perft():
    out = ok("bench", "--depth", 2).stdout
    expected = sum(bind.instance(state[0], "perft").perft(state, 2) for _, state in bench_states())
    assert f"signature {expected}" in out
    assert f"nodes {expected}" in out
    for position in BENCH_POSITIONS:
        assert position.label in out
    assert ok("bench", "-d", 2).stdout.splitlines()[-1] == f"signature {expected}"


def test_bench_positions_are_fixed():
    first = [state for _, state in bench_states()]
    again = [state for _, state in bench_states()]
    assert all(np.array_equal(a, b) for a, b in zip(first, again))
    assert len({state.tobytes() for state in first}) == len(first)
    azul_states = [state for position, state in zip(BENCH_POSITIONS, first) if position.game == "azul"]
    phases = {AZUL.position_to_json(state)["phase"] for state in azul_states}
    assert phases == {"draft", "tiling"}
    assert any(AZUL.position_to_json(state)["round"] > 1 for state in azul_states)


# ---- user errors ---------------------------------------------------------------------

START = text(start(30))


@pytest.mark.parametrize(
    "args, stdin, names",
    [
        (["moves", START.replace("bag", "bog")], None, "unknown key 'bog'"),
        (["show", START.replace("centre 1", "centre 1B")], None, "bad position: tiles"),
        (["moves", "azul players 2"], None, "bad position"),
        (["moves", '{"game": "azul"'], None, "json"),
        (["moves", '{"game": "chess"}'], None, "unknown game 'chess'"),
        (["play", START, "F9 blue 1"], None, "move 1 of 1: bad move 'F9 blue 1'"),
        (["play", START, "F1 blue floor", "X"], None, "bad move"),
        (["new", "azul", "--players", "5"], None, "players"),
        (["new", "azul", "--variant", "grey"], None, "variant 'grey'"),
        (["new", "azul", "--seed", "-3"], None, "seed"),
        (["new", "chess"], None, "unknown game 'chess'"),
        (["show", "no-such-file.txt"], None, "no-such-file.txt"),
        (["show", "."], None, "directory"),
        (["moves", "-"], "", "stdin is empty"),
        (["perft", START, "--depth", "-1"], None, "--depth"),
        (["bench", "--depth", "-1"], None, "--depth"),
    ],
)
def test_user_errors_are_one_line(args, stdin, names):
    result = run(*args, stdin=stdin)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert names in lines[0]


def test_an_illegal_later_move_is_named():
    state = start(31)
    move = AZUL.format_move(state, kernel_moves(state)[0])
    result = run("play", text(state), move, move)  # the source is empty the second time
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: move 2 of 2: bad move '{move}'")


def test_a_position_piped_from_another_command():
    """stdin is read once numba has started: the whole of it arrives."""
    command = f'"{sys.executable}" -m tessera new azul --seed 1 | "{sys.executable}" -m tessera moves -'
    piped = subprocess.run(
        ["bash", "-c", "set -o pipefail; " + command], capture_output=True, text=True, timeout=COLD_START_SECONDS
    )
    assert piped.returncode == 0, piped.stderr
    direct = run("moves", text(get_game("azul").new(1)))
    assert piped.stdout == direct.stdout


def test_a_closed_stdin_is_a_one_line_error():
    closed = subprocess.run(
        ["bash", "-c", 'exec 0<&-; exec "$0" -m tessera show -', sys.executable],
        capture_output=True,
        text=True,
        timeout=COLD_START_SECONDS,
    )
    assert closed.returncode == 2
    assert closed.stderr == "error: stdin is closed (expected a position)\n"


def test_unreadable_file(tmp_path):
    path = tmp_path / "binary.pos"
    path.write_bytes(b"\xff\xfe\x00azul")
    result = run("show", path)
    assert result.exit_code == 2 and "not UTF-8" in result.stderr


def test_empty_file(tmp_path):
    path = tmp_path / "empty.pos"
    path.write_text("\n")
    result = run("moves", path)
    assert result.exit_code == 2
    assert result.stderr == f"error: {path} is empty (expected a position)\n"


@pytest.mark.parametrize(
    "args",
    [
        ["frobnicate"],
        ["perft", START],
        ["new", "azul", "--players", "x"],
    ],
)
def test_usage_errors_keep_clicks_exit_code(args):
    result = run(*args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output and "Usage:" in result.output


@pytest.mark.parametrize(
    "option, message",
    [
        ("variant", "--option takes NAME=VALUE, not 'variant'"),
        ("colour=red", "azul has no option 'colour' (its options: players, variant)"),
        ("players=two", "option players takes a whole number, not 'two'"),
        ("variant=purple", "variant"),
    ],
)
def test_selfplay_game_option_errors(tmp_path, option, message):
    result = run(
        "selfplay", "azul", "--games", "2", "--agents", "random,random", "--option", option, "--out", tmp_path / "run"
    )
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]


def test_selfplay_game_option_sets_the_variant(tmp_path):
    ok(
        "selfplay",
        "azul",
        "--games",
        "4",
        "--agents",
        "random,random",
        "--option",
        "variant=gray",
        "--seed",
        "3",
        "--workers",
        "1",
        "--no-plots",
        "--no-progress",
        "--out",
        tmp_path / "run",
    )
    plan = json.loads((tmp_path / "run" / "run.json").read_text())
    assert plan["options"]["variant"] == "gray"
