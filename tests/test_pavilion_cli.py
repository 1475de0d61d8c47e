"""Every tessera command on Summer Pavilion positions, run in-process with click's CliRunner."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from tessera.bench import BENCH_POSITIONS, bench_states
from tessera.cli import main
from tessera.games import game_of_position, get_game
from tessera.kernels import bind, games, pavilion
from tessera.kernels.rng import below, make_rng
from tests.best_schema import best_report

PAVILION = get_game("pavilion")


def run(*args, stdin=None):
    return CliRunner().invoke(main, [str(arg) for arg in args], input=stdin)


def ok(*args, stdin=None):
    result = run(*args, stdin=stdin)
    assert result.exit_code == 0, result.output
    return result


def start(seed=1, players=2):
    return PAVILION.new(seed, players=players)


def text(state):
    return PAVILION.format_position(state)


def phase(state):
    return PAVILION.position_to_json(state)["phase"]


def kernel_moves(state):
    moves = np.empty(games.MAX_MOVES, np.int64)
    return list(moves[: pavilion.legal_moves(state, moves)])


def play_until(state, wanted, seed=0, limit=5000):
    """Random moves and draws from ``state`` until ``wanted(state)``."""
    rng = make_rng(seed)
    moves = np.empty(games.MAX_MOVES, np.int64)
    probabilities = np.empty(games.MAX_MOVES, np.float64)
    for _ in range(limit):
        if wanted(state):
            return state
        assert games.to_move(state) != games.TERMINAL, "game ended before the wanted position"
        if games.to_move(state) == games.CHANCE:
            count = games.chance_outcomes(state, moves, probabilities)
        else:
            count = games.legal_moves(state, moves)
        games.apply_move(state, moves[below(rng, count)])
    raise AssertionError("wanted position not reached")


def in_phase(name):
    return lambda state: phase(state) == name


# ---- new and show --------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_new_is_seeded_with_options(players):
    out = ok("new", "pavilion", "--players", players, "--seed", 3).stdout
    assert out == ok("new", "pavilion", "--players", players, "--seed", 3).stdout
    state = game_of_position(out)[1]
    assert np.array_equal(state, start(3, players))
    assert phase(state) == "draft" and len(PAVILION.position_to_json(state)["supply"]) == 10


def test_new_json_and_help():
    obj = json.loads(ok("new", "pavilion", "--seed", 5, "--json").stdout)
    assert obj["game"] == "pavilion" and obj["wild"] == "purple"
    assert np.array_equal(PAVILION.position_from_json(obj), start(5))
    assert "pavilion" in ok("new", "--help").stdout


@pytest.mark.parametrize(
    "wanted, heading",
    [
        ("draft", "draft: player 1 to move"),
        ("place", "place: player"),
        ("bonus", "bonus: player"),
        ("keep", "keep: player"),
        ("resupply", "resupply: chance draws a tile for the supply"),
        ("refill", "refill: chance draws a tile for factory 1"),
        ("over", "game over: "),
    ],
)
def test_show_every_phase(wanted, heading):
    state = play_until(start(4, 3), in_phase(wanted), seed=4)
    out = ok("show", text(state)).stdout
    assert heading in out and "\x1b[" not in out
    assert "Azul: Summer Pavilion · 3 players" in out and "Player 3" in out


# ---- moves and play ------------------------------------------------------------------


def test_moves_lists_the_kernel_moves():
    state = play_until(start(6), in_phase("place"), seed=6)
    lines = ok("moves", text(state)).stdout.splitlines()
    expected = kernel_moves(state)
    assert lines[0].endswith(f"to move: {len(expected)} moves")
    assert [PAVILION.parse_move(state, line) for line in lines[1:]] == expected
    assert lines[-1] == "pass"


def test_moves_at_a_resupply_gives_probabilities():
    state = play_until(start(7), in_phase("resupply"), seed=7)
    listing = json.loads(ok("moves", json.dumps(PAVILION.position_to_json(state)), "--json").stdout)
    assert listing["to_move"] == "chance" and listing["moves"][0].startswith("draw ")
    assert sum(listing["probabilities"]) == pytest.approx(1.0)


def test_play_the_placing_turn_and_its_bonus():
    state = play_until(start(8), in_phase("bonus"), seed=8)
    take = PAVILION.format_move(state, kernel_moves(state)[0])
    result = ok("play", text(state), take, "--json")
    report = json.loads(result.stdout)
    expected = state.copy()
    games.apply_move(expected, kernel_moves(state)[0])
    assert report["moves"] == [take]
    assert np.array_equal(PAVILION.position_from_json(report["position"]), expected)


def test_play_reports_score_changes_and_pipes_on():
    state = play_until(start(9), in_phase("place"), seed=9)
    placement = PAVILION.format_move(state, kernel_moves(state)[0])
    result = ok("play", text(state), placement)
    assert "score changes: player" in result.stderr and "+" in result.stderr
    assert ok("moves", "-", stdin=result.stdout).stdout.split()[0] in ("player", "chance")


# ---- perft, bench --------------------------------------------------------------------


def test_perft_matches_the_kernel_and_divides():
    state = play_until(start(10), in_phase("place"), seed=10)
    out = ok("perft", text(state), "--depth", 3, "--divide").stdout
    rows = [line.rsplit(": ", 1) for line in out.splitlines() if ": " in line]
    assert [PAVILION.parse_move(state, move) for move, _ in rows] == kernel_moves(state)
    assert sum(int(n) for _, n in rows) == bind.instance(state[0], "perft").perft(state, 3)
    assert f"nodes {bind.instance(state[0], 'perft').perft(state, 3)}" in out


def test_bench_includes_pavilion_positions():
    labels = [p.label for p in BENCH_POSITIONS if p.game == "pavilion"]
    assert len(labels) >= 5
    states = [state for position, (_, state) in zip(BENCH_POSITIONS, bench_states()) if position.game == "pavilion"]
    phases = {phase(state) for state in states}
    assert {"draft", "place", "keep"} <= phases
    out = ok("bench", "--depth", 2).stdout
    assert all(label in out for label in labels)


# ---- best and solve ------------------------------------------------------------------


@pytest.mark.long  # three searches, one to the end of the game
def test_best_mcts_alphabeta_and_solve():
    state = play_until(start(11), in_phase("place"), seed=11)
    report = best_report(ok("best", text(state), "-n", 300, "--seed", 1, "--json").stdout)
    assert report["game"] == "pavilion" and report["moves"]
    assert {m["move"] for m in report["moves"]} <= {PAVILION.format_move(state, m) for m in kernel_moves(state)}
    report = best_report(ok("best", text(state), "--algo", "alphabeta", "--depth", 2, "--json").stdout)
    assert report["algo"] == "alphabeta" and report["moves"]
    result = run("solve", text(state), "--time", 3, "--json")
    assert result.exit_code in (0, 3)  # 3: not proven in time
    assert best_report(result.stdout)["game"] == "pavilion"


# ---- selfplay ------------------------------------------------------------------------


def test_selfplay_and_stats(tmp_path):
    out = tmp_path / "run"
    result = ok(
        "selfplay",
        "pavilion",
        "--games",
        6,
        "--agents",
        "random,greedy",
        "--players",
        3,
        "--seed",
        2,
        "--workers",
        1,
        "--no-plots",
        "--out",
        out,
    )
    assert "pavilion players 3 · 6 of 6 games" in result.stdout
    assert json.loads((out / "run.json").read_text())["options"] == {"players": 3}
    assert ok("stats", out, "--no-plots").stdout == result.stdout


# ---- user errors ---------------------------------------------------------------------

START = text(start(30))


@pytest.mark.parametrize(
    "args, names",
    [
        (["moves", START.replace("wild purple", "wild red")], "bad position: wild"),
        (["show", START.replace("centre -", "centre P")], "bad position: tiles"),
        (["moves", START.replace("round 1", "round 9")], "bad position: round"),
        (["play", START, "F9 red"], "move 1 of 1: bad move 'F9 red'"),
        (["play", START, "place red 1"], "bad move 'place red 1'"),
        (["new", "pavilion", "--players", "5"], "players"),
        (["new", "pavilion", "--seed", "-1"], "seed"),
    ],
)
def test_user_errors_are_one_line(args, names):
    result = run(*args)
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and names in lines[0]
