"""Every tessera command on Azure positions, run in-process with click's CliRunner."""

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from tessera.cli import main
from tessera.errors import OptionError
from tessera.games import game_of_position, get_game
from tessera.kernels import bind, games
from tessera.kernels.azure.layout import (
    GIFTED_BASE,
    P_HAND_SIZE,
    PHASE_PLACE,
    S_COSMOS,
    S_GIFTED,
    W_PHASE,
    player_word,
)
from tessera.kernels.azure.realm import BASE_LAYOUTS, COSMOS_FILE, base_layout, deal_layout, layout_of
from tessera.kernels.boarddata import board_json
from tessera.kernels.rng import below, make_rng
from tests.best_schema import best_report
from tests.limits import CHILD_SECONDS

try:  # pytest puts tests/ on sys.path (rootdir-relative "prepend" import mode)
    from test_azure_notation import BIRD_DRAW, EXAMPLE, NO_PLACE, NO_PLACE_ERROR, OVER, PHASE_TEXTS, SETUP, TAKE
except ImportError:  # pragma: no cover - when tests/ is a package
    from tests.test_azure_notation import BIRD_DRAW, EXAMPLE, NO_PLACE, NO_PLACE_ERROR, OVER, PHASE_TEXTS, SETUP, TAKE

AZURE = get_game("azure")
ROOT = Path(__file__).resolve().parents[1]


def run(*args, stdin=None):
    return CliRunner().invoke(main, [str(arg) for arg in args], input=stdin)


def ok(*args, stdin=None):
    result = run(*args, stdin=stdin)
    assert result.exit_code == 0, result.output
    return result


def text(state):
    return AZURE.format_position(state)


def kernel_moves(state):
    moves = np.empty(games.MAX_MOVES, np.int64)
    return list(moves[: games.legal_moves(state, moves)])


def play_random(state, plies, seed=0):
    """``plies`` random moves and draws from ``state``, stopping at a placement."""
    rng = make_rng(seed)
    moves = np.empty(games.MAX_MOVES, np.int64)
    probabilities = np.empty(games.MAX_MOVES, np.float64)
    for _ in range(plies):
        if games.to_move(state) == games.CHANCE:
            count = games.chance_outcomes(state, moves, probabilities)
        else:
            count = games.legal_moves(state, moves)
        games.apply_move(state, moves[below(rng, count)])
    while state[W_PHASE] != PHASE_PLACE:
        games.resolve_chance(state, rng) if games.to_move(state) == games.CHANCE else games.apply_move(
            state, kernel_moves(state)[0]
        )
    return state


# ---- new -----------------------------------------------------------------------------


def test_new_is_seeded_and_deals_the_layout_then_the_hands():
    out = ok("new", "azure", "--seed", 3).stdout
    assert out == ok("new", "azure", "--seed", 3).stdout
    state = game_of_position(out)[1]
    assert np.array_equal(state, AZURE.new(3))
    assert layout_of(state) == deal_layout(random.Random(3))
    obj = AZURE.position_to_json(state)
    assert obj["phase"] == "place" and obj["turn"] == 1 and obj["view"] is None
    assert [len(p["hand"]) for p in obj["players"]] == [2, 3]
    assert len({ok("new", "azure", "--seed", s).stdout.splitlines()[1] for s in range(6)}) > 1


@pytest.mark.parametrize("gifted", ["none", "mighty", "perceptive", "bountiful", "favored"])
def test_new_with_each_gifted_card_and_cosmos(gifted):
    obj = json.loads(ok("new", "azure", "--seed", 5, "--gifted", gifted, "--cosmos", "--json").stdout)
    assert obj["gifted"] == gifted and obj["cosmos"] is True and obj["track"] == 0
    assert sum(place["large"] for place in obj["layout"].values()) == 2
    assert all(p["supply"] == 18 for p in obj["players"])
    state = AZURE.position_from_json(obj)
    assert np.array_equal(state, AZURE.new(5, gifted=gifted, cosmos=True))
    assert state[S_COSMOS] == 1 and state[S_GIFTED] == ["none", "mighty", "perceptive", "bountiful", "favored"].index(
        gifted
    )


def test_new_with_a_named_layout():
    state = game_of_position(ok("new", "azure", "--layout", 1234, "--seed", 9).stdout)[1]
    assert layout_of(state) == base_layout(1234)
    named = "A1@0 W2@90 V1@180 B2@270"
    out = ok("new", "azure", "--layout", named, "--seed", 9).stdout
    assert out.splitlines()[1] == f"layout {named}"
    cosmos = "A1@0* W1@90 B1@180 V1@270*"
    out = ok("new", "azure", "--cosmos", "--layout", cosmos).stdout
    assert out.splitlines()[1] == f"layout {cosmos}"
    assert ok("new", "azure", "--layout", BASE_LAYOUTS - 1).stdout


def test_new_help_lists_the_options():
    out = ok("new", "azure", "--help").stdout
    assert "--gifted [none|mighty|perceptive|bountiful|favored]" in out
    assert "--cosmos" in out and "--layout" in out
    assert "azure" in ok("new", "--help").stdout


# ---- show ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "phase, heading",
    [
        ("place", "place: player 2 places a stone"),
        ("setup", "setup: chance deals player 1's starting hand (1 more from the hidden deck)"),
        ("boon", "boon: player 1 chooses Bountiful's extra boon for d1"),
        ("take", "take: player 1 takes a face-up card"),
        ("return", "return: player 1 returns a card"),
        ("bird-draw", "bird-draw: chance deals player 1 2 card(s) for the Bird"),
        ("bird-return", "bird-return: player 2 returns two cards for losing the Bird"),
        ("over", "game over: player 1 wins"),
    ],
)
def test_show_every_phase(phase, heading):
    out = ok("show", PHASE_TEXTS[phase]).stdout
    assert heading in out and "\x1b[" not in out
    assert "Player 1" in out and "Player 2" in out and "Face-up decks" in out


def test_show_draws_the_realm_grid():
    out = ok("show", EXAMPLE).stdout
    lines = out.splitlines()
    header = next(line for line in lines if "│   a    │" in line)
    assert [c for c in "abcdefgh" if f" {c} " in header] == list("abcdef")
    # row 5 of the example: a5 and b5 hold player 2's stones, c5 the Black mountain with
    # player 2's stone (player 2 holds the Tortoise)
    row5 = lines[lines.index(next(line for line in lines if line.startswith("│ 5│"))) + 1]
    assert row5.count("●2") == 3 and "▲ P2" in row5
    assert "Dragon" in out and "Tiger" in out and "Bird" in out and "Tortoise" in out
    assert "~" in out and "Gifted: mighty (+2 cards)" in out
    assert "hand AAWWVB (6 cards; known to the opponent: AWWV)" in out


def test_show_labels_every_cosmos_position_as_a_stand_in():
    for position in (
        ok("new", "azure", "--cosmos", "--seed", 1).stdout,
        TAKE,
        OVER,
        text(AZURE.view(AZURE.parse_position(TAKE), 1)),
    ):
        out = ok("show", position).stdout
        assert "Cosmos boards: STAND-IN" in out and "Cosmos track" in out
    assert "STAND-IN" not in ok("show", EXAMPLE).stdout
    out = ok("show", TAKE).stdout
    assert "Yellow Dragon 2 steps toward player 1" in out


def test_show_names_the_users_cosmos_board_file(tmp_path):
    boards, _ = board_json(COSMOS_FILE, "Azure Cosmos board data")
    boards["standin"] = False
    path = tmp_path / "printed.json"
    path.write_text(json.dumps(boards))
    env = dict(os.environ, TESSERA_AZURE_COSMOS=str(path), PYTHONPATH=str(ROOT), COLUMNS="400")
    result = subprocess.run(
        [sys.executable, "-m", "tessera", "show", TAKE],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=CHILD_SECONDS,
    )
    assert result.returncode == 0, result.stderr
    assert f"Cosmos boards: {path}" in result.stdout and "STAND-IN" not in result.stdout
    env["TESSERA_AZURE_COSMOS"] = str(tmp_path / "missing.json")
    result = subprocess.run(
        [sys.executable, "-m", "tessera", "show", TAKE],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=CHILD_SECONDS,
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [result.stderr.strip()]
    assert "Azure Cosmos board data not found" in result.stderr


def test_game_view_keeps_a_view_of_the_same_player_and_refuses_the_other():
    view = AZURE.view(AZURE.parse_position(EXAMPLE), 1)
    assert np.array_equal(AZURE.view(view, 1), view)
    with pytest.raises(OptionError, match="this is player 2's view"):
        AZURE.view(view, 0)
    with pytest.raises(OptionError, match="players 1 and 2, not 3"):
        AZURE.view(AZURE.parse_position(EXAMPLE), 2)


def test_show_and_view_of_a_players_view():
    result = ok("view", EXAMPLE, "--player", 2)
    view = AZURE.parse_position(result.stdout)
    assert np.array_equal(view, AZURE.view(AZURE.parse_position(EXAMPLE), 1))
    assert "hand AWWV?? known AWWV" in result.stdout and "deck ?????" in result.stdout
    out = ok("show", result.stdout).stdout
    assert "player 2's view" in out and "hand AWWV??" in out


# ---- moves, play, perft --------------------------------------------------------------


def with_gifted_moves(gifted):
    """A position after a few random plies where the mover can place the gifted stone."""
    for seed in range(100):
        state = play_random(AZURE.new(seed, gifted=gifted), 4, seed=seed)
        if any(m >= GIFTED_BASE for m in kernel_moves(state)):
            return state
    raise AssertionError("no position with a gifted move")


def test_moves_lists_the_kernel_moves():
    state = with_gifted_moves("mighty")
    lines = ok("moves", text(state)).stdout.splitlines()
    expected = kernel_moves(state)
    assert lines[0].endswith(f"to move: {len(expected)} moves")
    assert [AZURE.parse_move(state, line) for line in lines[1:]] == expected
    assert any(line.startswith("gifted ") for line in lines[1:])
    assert all(line.split()[0] in ("place", "gifted") for line in lines[1:])


def test_moves_at_a_draw_gives_probabilities():
    listing = json.loads(ok("moves", SETUP, "--json").stdout)
    assert listing["to_move"] == "chance"
    assert set(listing["moves"]) == {"draw azure", "draw white", "draw vermillion", "draw black"}
    assert sum(listing["probabilities"]) == pytest.approx(1.0)
    assert listing["probabilities"][0] == pytest.approx(3 / 11)
    listing = json.loads(ok("moves", BIRD_DRAW, "--json").stdout)
    assert listing["to_move"] == "chance" and len(listing["moves"]) == 3
    assert ok("moves", OVER).stdout.startswith("game over: no moves")


def test_moves_of_a_view_are_the_observers():
    view = text(AZURE.view(AZURE.parse_position(EXAMPLE), 1))
    assert ok("moves", view).stdout == ok("moves", EXAMPLE).stdout


def test_play_a_placement_and_pipe_on():
    state = AZURE.new(8)
    move = kernel_moves(state)[0]
    placement = AZURE.format_move(state, move)
    result = ok("play", text(state), placement, "--json")
    report = json.loads(result.stdout)
    expected = state.copy()
    games.apply_move(expected, move)
    assert report["moves"] == [placement]
    assert np.array_equal(AZURE.position_from_json(report["position"]), expected)
    result = ok("play", text(state), placement)
    assert "score changes: player 1" in result.stderr
    assert ok("moves", "-", stdin=result.stdout).stdout.startswith("player 2 to move")


def test_play_through_a_whole_turn_with_choices():
    state = AZURE.parse_position(TAKE)
    texts = [AZURE.format_move(state, kernel_moves(state)[0])]
    games.apply_move(state, kernel_moves(state)[0])
    result = ok("play", TAKE, *texts)
    assert np.array_equal(AZURE.parse_position(result.stdout), state)


def test_perft_matches_the_kernel_and_divides():
    state = AZURE.new(10, gifted="perceptive")
    out = ok("perft", text(state), "--depth", 2, "--divide").stdout
    rows = [line.rsplit(": ", 1) for line in out.splitlines() if ": " in line]
    assert [AZURE.parse_move(state, move) for move, _ in rows] == kernel_moves(state)
    assert sum(int(n) for _, n in rows) == bind.instance(state[0], "perft").perft(state, 2)
    assert f"nodes {bind.instance(state[0], 'perft').perft(state, 2)}" in out
    assert f"nodes {bind.instance(state[0], 'perft').perft(state, 3)}" in ok("perft", text(state), "-d", 3).stdout


# ---- best and selfplay ---------------------------------------------------------------


def test_best_on_a_complete_position_and_on_a_view():
    report = best_report(ok("best", EXAMPLE, "-n", 200, "--seed", 1, "--json").stdout)
    assert report["game"] == "azure" and report["algo"] == "mcts" and report["player"] == 2
    legal = {AZURE.format_move(AZURE.parse_position(EXAMPLE), m) for m in kernel_moves(AZURE.parse_position(EXAMPLE))}
    assert {m["move"] for m in report["moves"]} <= legal
    view = text(AZURE.view(AZURE.parse_position(EXAMPLE), 1))
    report = best_report(ok("best", view, "-n", 100, "--seed", 1, "--json").stdout)
    assert report["algo"] == "ismcts" and {m["move"] for m in report["moves"]} <= legal


def test_best_text_on_a_view_reads_as_mcts():
    view = text(AZURE.view(AZURE.parse_position(EXAMPLE), 1))
    out = ok("best", view, "-n", 100, "--seed", 1, "--threads", 1).stdout
    assert "algo ismcts · threads 1 · seed 1" in out and "100 visits in" in out
    assert "estimate" not in out and "depth" not in out and "nodes " not in out
    header = next(line for line in out.splitlines() if line.lstrip().startswith("#"))
    assert header.split()[:3] == ["#", "move", "visits"]


def test_selfplay_with_game_options(tmp_path):
    out = tmp_path / "run"
    result = ok(
        "selfplay",
        "azure",
        "--games",
        4,
        "--agents",
        "random,greedy",
        "--option",
        "gifted=favored",
        "--option",
        "cosmos=yes",
        "--seed",
        2,
        "--workers",
        1,
        "--no-plots",
        "--out",
        out,
    )
    assert "4 of 4 games" in result.stdout
    options = json.loads((out / "run.json").read_text())["options"]
    assert options["gifted"] == "favored" and options["cosmos"] is True


# ---- user errors ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, names",
    [
        (["show", EXAMPLE.replace("deck AAWWB", "deck AAWWBB")], "bad position: cards: each colour"),
        (["moves", EXAMPLE.replace("supply 9 stones c3", "supply 8 stones c3")], "bad position: player 1 supply"),
        (["show", EXAMPLE.replace("beasts tiger,bird", "beasts tiger")], "bad position: beasts"),
        (["moves", EXAMPLE.replace("W1@0", "W1@45")], "bad position: layout"),
        (["show", EXAMPLE.replace("view -", "view 2")], "bad position: deck: a view does not name"),
        (["moves", '{"game": "azure"}'], "bad position: gifted: missing"),
        (["play", EXAMPLE, "place a2"], "move 1 of 1: bad move 'place a2': not legal for player 2"),
        (["play", EXAMPLE, "place z9"], "bad move 'place z9': 'z9' is not a cell"),
        (["play", EXAMPLE, "fly"], "bad move 'fly': expected 'place c4'"),
        (["new", "azure", "--gifted", "lucky"], "unknown gifted card 'lucky'"),
        (["new", "azure", "--layout", "24576"], "layout number 24576 is not in 0..24575"),
        (["new", "azure", "--layout", "7", "--cosmos"], "a layout number names a base layout"),
        (["new", "azure", "--layout", "A1@0 A2@90 V1@180 B2@270"], "--layout: a layout uses each domain colour once"),
        (["new", "azure", "--layout", "A1@0 W2@90"], "--layout takes a number 0..24575"),
        (
            ["new", "azure", "--cosmos", "--layout", "A1@0 W2@90 V1@180 B2@270"],
            "--layout: with Cosmos the two large domains lie corner to corner",
        ),
        (["new", "azure", "--seed", "-1"], "seed must be a whole number"),
    ],
)
def test_user_errors_are_one_line(args, names):
    result = run(*args)
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and names in lines[0]


def test_a_hand_edited_setup_is_checked_too():
    bad = SETUP.replace("draws 1", "draws 2")
    result = run("moves", bad)
    assert result.exit_code == 2 and "bad position: draws: the starting hands hold 1 and 0" in result.stderr
    state = AZURE.parse_position(SETUP)
    assert state[player_word(0, P_HAND_SIZE)] == 1


def test_a_player_to_place_who_cannot_is_one_line_not_a_search():
    """Before this check: `moves` listed 0 moves, `perft` counted 0 nodes, `best` searched
    for a minute with nothing to rank (all exit 0) and `solve` crashed with a traceback."""
    for args in (["moves"], ["best", "--time", "1"], ["solve"], ["perft", "-d", "2"], ["show"]):
        result = run(args[0], NO_PLACE, *args[1:])
        assert result.exit_code == 2 and result.stdout == "", args
        assert result.stderr.splitlines() == [f"error: bad position: {NO_PLACE_ERROR}"], args


def test_gifted_moves_read_back():
    state = with_gifted_moves("bountiful")
    gifted = [m for m in kernel_moves(state) if m >= GIFTED_BASE]
    assert gifted
    result = ok("play", text(state), AZURE.format_move(state, gifted[0]), "--json")
    assert json.loads(result.stdout)["moves"] == [AZURE.format_move(state, gifted[0])]


def test_views_refuse_what_needs_hidden_cards():
    view_of_player_1 = text(AZURE.view(AZURE.parse_position(EXAMPLE), 0))  # player 2 to move
    view_of_player_2 = text(AZURE.view(AZURE.parse_position(EXAMPLE), 1))
    for args, message in [
        (["moves", view_of_player_1], "in player 1's view player 2 acts"),
        (["play", view_of_player_2, "place a1"], "play needs a complete position"),
        (["perft", view_of_player_2, "-d", "1"], "perft needs a complete position"),
        (["solve", view_of_player_2], "solve needs a complete position"),
        (["best", view_of_player_1, "-n", 10], "in player 1's view player 2 acts"),
        (["best", view_of_player_2, "--algo", "solve"], "best --algo solve needs a complete position"),
        (["best", view_of_player_2, "--algo", "alphabeta"], "best --algo alphabeta needs a complete position"),
        (["view", view_of_player_2, "-p", "1"], "already a player's view"),
    ]:
        result = run(*args)
        assert result.exit_code == 2, args
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and message in lines[0], (args, lines)


def test_a_json_game_name_that_is_not_text_is_one_line():
    result = run("show", '{"game": [["a"]]}')
    assert result.exit_code == 2 and "unknown game" in result.stderr


def late_position():
    """A seeded game 18 moves in: the solver proves it in a few thousand nodes."""
    state = AZURE.new(11)
    rng, moves = make_rng(5), np.empty(games.MAX_MOVES, np.int64)
    for _ in range(18):
        games.apply_move(state, moves[below(rng, games.legal_moves(state, moves))])
        games.resolve_chance(state, rng)
    return state


def test_solve_a_late_position_to_the_end_of_the_game():
    state = late_position()
    report = best_report(ok("solve", text(state), "--json").stdout)
    assert report["proven"] and report["settings"]["mode"] == "game"
    exact = report["root"]["exact"]
    assert exact["horizon"] == "game" and exact["margin"] == 2 * exact["win_rate"] - 1
    assert exact["result"] == {1.0: "win", 0.0: "loss"}.get(exact["win_rate"])
    best = {m["move"] for m in report["moves"] if m["exact"] == exact}
    assert set(report["best_moves"]) == best and report["pv"][0] in best
    out = ok("solve", text(state)).stdout
    if exact["result"]:
        assert f"exact value: a {exact['result']} with best play, whatever is drawn" in out
    else:
        assert f"exact value: a win probability of {100 * exact['win_rate']:.1f}%" in out


def test_alphabeta_says_whether_its_win_probability_is_exact_or_an_estimate():
    late = text(late_position())
    cut = best_report(ok("best", late, "--algo", "alphabeta", "--depth", 1, "--json").stdout)
    assert not cut["proven"] and cut["root"]["exact"] is None
    out = ok("best", late, "--algo", "alphabeta", "--depth", 1).stdout
    assert f"value: win {100 * cut['root']['win_rate']:.1f}%, margin " in out
    assert "(an estimate: not proven at depth 1)" in out
    full = best_report(ok("best", late, "--algo", "alphabeta", "--json").stdout)
    assert full["proven"] and full["root"]["exact"]["win_rate"] == full["root"]["win_rate"]
    assert "(exact)" in ok("best", late, "--algo", "alphabeta").stdout
    timed_out = run("solve", late, "--time", 1e-6)
    assert timed_out.exit_code == 3
    found = cut["moves"][0]
    assert (
        f"best move found: {found['move']}, win probability "
        f"{100 * found['win_rate']:.1f}% (an estimate)" in timed_out.stdout
    )
