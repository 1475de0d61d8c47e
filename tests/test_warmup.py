"""tessera warmup: it fills numba's cache so that later commands compile nothing, and the
first search of a cold cache says what it compiled apart from its own time."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tessera.games import get_game
from tessera.warmup import steps
from tests.limits import COLD_START_SECONDS

ROOT = Path(__file__).parents[1]


def tessera(*args, stdin=None, cache=None):
    env = dict(os.environ)
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = str(cache)
        env["TESSERA_PREBUILT"] = "0"  # compiles into it, as without kernels shipped compiled
    return subprocess.run(
        [sys.executable, "-m", "tessera", *map(str, args)],
        input=stdin,
        text=True,
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=COLD_START_SECONDS,
    )


def test_steps_cover_every_search_and_views_only_where_something_is_hidden():
    names = {game: [name for name, _ in steps(get_game(game))] for game in ("azul", "azure")}
    mcts = [f"MCTS, {rollout} rollouts" for rollout in ("random", "greedy", "round", "mixed")]
    ismcts = ["IS-" + name for name in mcts]
    after = ["alpha-beta and solve", "self-play batches", "bench playouts", "RL encodings and batched environment"]
    assert names["azul"] == ["rules", "perft", *mcts, *after]
    assert names["azure"] == ["rules", "perft", *mcts, *ismcts, *after]


@pytest.mark.long  # tessera warmup loads every kernel
def test_after_warmup_best_and_solve_compile_nothing():
    """The default cache: warmup compiles whatever the other tests have not, then a search
    loads every kernel it calls (compile_seconds 0, no compile line on stderr)."""
    done = tessera("warmup", "azul", "--no-progress")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("azul: ")
    position = get_game("azul").format_position(get_game("azul").new(4))
    for args in (
        ["best", "-", "--iterations", "300", "--threads", "2", "--seed", "1"],
        ["best", "-", "--algo", "alphabeta", "--depth", "2"],
    ):
        done = tessera(*args, "--json", stdin=position)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["root"]["compile_seconds"] == 0
        assert "compiled" not in done.stderr
    again = tessera("warmup", "azul", "--no-progress")
    assert again.stdout.startswith("azul: already in the cache")


@pytest.mark.cold
def test_the_first_best_reports_its_compile_apart_from_the_search(tmp_path):
    """Before: the compile was counted as search time (20000 visits in 33.88 s · 590 nodes/s)."""
    # Summer Pavilion with random rollouts: the shortest compile of a game's search, and as
    # much to report.
    position = get_game("pavilion").format_position(get_game("pavilion").new(1))
    done = tessera(
        "best",
        "-",
        "--iterations",
        "2000",
        "--seed",
        "1",
        "--rollout",
        "random",
        "--json",
        stdin=position,
        cache=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    root = json.loads(done.stdout)["root"]
    assert root["compile_seconds"] > 1.0 > root["seconds"]
    assert root["nodes_per_second"] == root["visits"] / root["seconds"]
    assert [line for line in done.stderr.splitlines() if line.startswith("compiled the search kernels in ")]


def test_unknown_games_are_refused_before_anything_compiles():
    done = tessera("warmup", "azul", "chess")
    assert done.returncode == 2
    assert done.stderr.strip() == "error: unknown game 'chess' (known: azul, azure, pavilion)"
    assert done.stdout == ""
