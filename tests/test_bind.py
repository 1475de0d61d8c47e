"""Per-game instances of the generic kernels (kernels.bind): what they bind, what they import,
their numba cache entries across processes, and searches that compile before their clock."""

import importlib
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from tessera.games import get_game
from tessera.kernels import bind, games
from tessera.kernels.games import FUNCTIONS
from tests.limits import COLD_START_SECONDS

GAMES = ("azul", "pavilion", "azure", "toy")
ROOT = Path(__file__).parents[1]


def python(code, cache_dir=None, **env):
    """Run ``code`` in a fresh interpreter (numba reads NUMBA_CACHE_DIR when it starts); its stdout."""
    environ = dict(os.environ, **env)
    if cache_dir is not None:
        environ["NUMBA_CACHE_DIR"] = str(cache_dir)
        environ["TESSERA_PREBUILT"] = "0"  # compiles into it, not loading the shipped kernels
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env=environ,
        cwd=ROOT,
        timeout=COLD_START_SECONDS,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("name", GAMES)
def test_interface_modules_bind_the_game_kernels_under_the_interface_names(name):
    rules = bind.interface(name)
    package = __import__(f"tessera.kernels.{name}", fromlist=["MAX_MOVES"])
    assert rules.MAX_MOVES == package.MAX_MOVES
    for function in FUNCTIONS:
        kernel = getattr(rules, function)
        assert hasattr(kernel, "py_func"), f"{name}.{function} is not jitted"
        own = getattr(package, function, None)
        if own is not None:
            assert kernel is own, f"{name}.{function} is not the game's own kernel"


def test_an_instance_is_a_module_of_its_game_with_its_own_qualnames():
    azul_mcts, toy_mcts = bind.instance("azul", "mcts", "greedy"), bind.instance("toy", "mcts", "greedy")
    assert azul_mcts.__name__ == "tessera.kernels.azul.bound.mcts_greedy"
    assert sys.modules["tessera.kernels.azul.bound.mcts_greedy"] is azul_mcts
    assert azul_mcts.games is bind.interface("azul") and toy_mcts.games is bind.interface("toy")
    assert azul_mcts.run_tree is not toy_mcts.run_tree
    assert azul_mcts.run_tree.py_func.__qualname__ == "azul.greedy.run_tree"
    assert bind.instance("azul", "perft").perft.py_func.__qualname__ == "azul.perft"
    # The same game's sibling templates: IS-MCTS rolls out with Azul's MCTS kernels of its rollout.
    assert bind.instance("azul", "ismcts", "greedy").rollout is azul_mcts.rollout
    assert bind.instance(games.AZUL, "mcts", "greedy") is azul_mcts
    assert bind.instance("azul", "mcts", "random").run_tree is not azul_mcts.run_tree


@pytest.mark.cold
def test_a_variant_compiles_only_its_own_rollout(tmp_path):
    """The rollout is chosen at compile time: with a fresh cache a greedy search compiles no
    random playout (a runtime choice typed, so compiled, both rollouts); a random one does."""
    out = python(
        """
        from tessera.kernels import bind
        from tessera.kernels.rng import make_rng
        from tessera.kernels.search import mcts_layout
        from tessera.search.mcts import MctsOptions
        from tessera.search.value_model import NO_MODEL
        import tessera.kernels.toy as toy
        state = toy.new_game(5, True)                 # before the deal: chance acts first
        playout = bind.instance("toy", "playout").random_playout
        for rollout in ("greedy", "random"):
            search = bind.instance("toy", "mcts", rollout)
            nodes, stats, size = mcts_layout.new_tree(1000)
            prm = MctsOptions(select="uct", value="win", exploration=1.4).kernel_params("toy")
            search.run_tree(nodes, stats, size, state, 50, float("inf"), prm, make_rng(1), 1,
                            NO_MODEL)
            print(len(playout.signatures))
    """,
        tmp_path,
    )
    assert out.split() == ["0", "1"]


def test_the_tree_kernels_of_mcts_are_one_for_every_game_and_rollout():
    """Compaction, the subtree kept for reuse and principal variation know no game (kernels.search.tree):
    every game's search loads the same kernels, so a new game's first search compiles
    none of them again."""
    from tessera.search import mcts

    listed = {
        (name, rollout): [k for k, _ in mcts.search_kernels(get_game(name).new(1), rollout)]
        for name in ("azul", "pavilion")
        for rollout in ("greedy", "random")
    }
    run_trees = {kernels[0] for kernels in listed.values()}
    assert len(run_trees) == 4  # the simulations: one per game and rollout
    # the scores and payoffs of a proven move's game: the game's own, whatever the rollout
    results = {name: tuple(kernels[-3:-1]) for (name, _), kernels in listed.items()}
    assert len(set(results.values())) == 2
    assert all(
        kernel.py_func.__module__.startswith(f"tessera.kernels.{name}") for name in results for kernel in results[name]
    )
    shared = {tuple(kernels[1:-3] + kernels[-1:]) for kernels in listed.values()}
    assert len(shared) == 1
    assert {k.py_func.__module__ for k in shared.pop()} == {"tessera.kernels.search.tree"}


def test_a_game_may_set_how_often_its_greedy_rollouts_play_at_random():
    """An instance reads its game's ``ROLLOUT_EPSILON`` (a compile-time constant); a game
    without one gets the search's default. Azul sets its own, the others do not."""
    for rollout in ("greedy", "round"):
        assert bind.instance("azul", "mcts", rollout).GREEDY_EPSILON == bind.interface("azul").ROLLOUT_EPSILON == 0.2
        for name in ("pavilion", "azure", "toy"):
            assert not hasattr(bind.interface(name), "ROLLOUT_EPSILON")
            assert bind.instance(name, "mcts", rollout).GREEDY_EPSILON == 0.1
    assert bind.instance("azure", "ismcts", "greedy")._mcts.GREEDY_EPSILON == 0.1


def test_a_template_itself_is_not_compiled_and_names_the_instance_to_use():
    perft = importlib.import_module(bind.TEMPLATES["perft"])  # the template itself, as bind sees it
    state = get_game("azul").new(1)
    with pytest.raises(TypeError, match=r"bind.instance\(game, 'perft'\).perft"):
        perft.perft(state, 1)
    moves = np.empty(games.MAX_MOVES, np.int64)
    assert bind.instance(state[0], "perft").perft(state, 1) == games.legal_moves(state, moves)


def test_unknown_games_and_templates_are_refused():
    with pytest.raises(ValueError):
        bind.instance("chess", "mcts", "greedy")
    with pytest.raises(ValueError, match="known: random, greedy, round"):
        bind.instance("azul", "mcts")
    with pytest.raises(ValueError):
        bind.instance("azul", "perft", "greedy")
    with pytest.raises(ValueError):
        bind.instance("azul", "minimax")
    with pytest.raises(ValueError):
        bind.interface(7)


def test_the_python_dispatch_calls_the_game_of_word_0():
    for name in ("azul", "pavilion", "azure"):
        state = get_game(name).new(3)
        rules = bind.interface(name)
        mine, theirs = np.empty(rules.MAX_MOVES, np.int64), np.empty(rules.MAX_MOVES, np.int64)
        n = games.legal_moves(state, mine)
        assert n == rules.legal_moves(state, theirs) and np.array_equal(mine[:n], theirs[:n])
        assert games.max_moves(state) == rules.MAX_MOVES <= games.MAX_MOVES


def test_an_azul_search_imports_no_other_game():
    """Before: kernels.games imported (and every search compiled) all four games."""
    out = python("""
        import json, sys
        from tessera.kernels import games  # noqa: F401  (the dispatch imports no game by itself)
        from tessera.games import get_game
        from tessera.search.mcts import Mcts, MctsOptions
        Mcts(MctsOptions(iterations=50, seed=1)).search(get_game("azul").new(1))
        print(json.dumps(sorted({m.split(".")[2] for m in sys.modules if m.startswith("tessera.kernels.")})))
    """)
    loaded = set(json.loads(out))
    assert "azul" in loaded and not loaded & {"pavilion", "azure", "toy"}


CACHE_PROBE = """
    from tessera.kernels import bind
    from tessera.games import get_game
    import tessera.kernels.toy as toy
    from tessera.kernels.toy.layout import DEAL_BASE
    name = "{game}"
    if name == "toy":
        state = toy.new_game(5, True)
        toy.apply_move(state, DEAL_BASE + 1)
        toy.apply_move(state, DEAL_BASE + 4)
    else:
        state = get_game(name).new(1)
    perft = bind.instance(state[0], "perft").perft
    print(perft(state, 2), perft.stats.cache_hits.total(), perft.stats.cache_misses.total())
"""


@pytest.mark.cold
def test_each_game_keeps_its_own_cache_entries_and_a_second_process_loads_them(tmp_path):
    """numba keys cache entries by file, qualname, signature and bytecode: without the game in
    the qualname, Azul's perft would load the toy's compiled code from the same template."""
    toy_first = python(CACHE_PROBE.format(game="toy"), tmp_path).split()
    azul_first = python(CACHE_PROBE.format(game="azul"), tmp_path).split()
    toy_again = python(CACHE_PROBE.format(game="toy"), tmp_path).split()
    azul_again = python(CACHE_PROBE.format(game="azul"), tmp_path).split()
    assert toy_first[1:] == ["0", "1"] and azul_first[1:] == ["0", "1"]  # compiled
    assert toy_again[1:] == ["1", "0"] and azul_again[1:] == ["1", "0"]  # loaded
    assert toy_again[0] == toy_first[0] and azul_again[0] == azul_first[0]
    state = get_game("azul").new(1)
    assert int(azul_first[0]) == bind.instance(state[0], "perft").perft(state, 2)
    names = {path.name.split("-")[0] for path in tmp_path.rglob("perft.*.nbi")}
    assert {"perft.toy.perft", "perft.azul.perft"} <= names


@pytest.mark.cold
def test_a_timed_search_compiles_before_its_clock_and_tree_reuse_compiles_nothing(tmp_path):
    """The first search compiles before its clock starts, and the first reuse of a tree
    finds ``keep_subtree`` compiled (by ``play``), not compiling it under the agent's time
    limit."""
    out = python(
        """
        import numpy as np
        import tessera.kernels.toy as toy
        from tessera.kernels.toy.layout import BET, DEAL_BASE
        from tessera.compiletime import compile_clock
        from tessera.search.mcts import Mcts, MctsOptions
        state = toy.new_game(7, True)
        toy.apply_move(state, DEAL_BASE + 3)
        toy.apply_move(state, DEAL_BASE + 5)
        searcher = Mcts(MctsOptions(time_limit=0.2, seed=1, select="uct", rollout="random"))
        first = searcher.search(state)
        searcher.play(BET)
        child = state.copy()
        toy.apply_move(child, BET)
        with compile_clock() as compiling:
            second = searcher.search(child)
        print(first.compile_seconds, first.seconds, compiling.seconds, second.reused_visits)
    """,
        tmp_path,
    )
    compiled, searched, compiled_later, reused = (float(x) for x in out.split())
    assert compiled > 0 and searched < 0.2 + 0.15 < compiled
    assert compiled_later == 0 and reused > 0
