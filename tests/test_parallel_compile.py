"""tessera.parallel_compile: on a cold cache a helper process compiles part of a search's
kernels. What it compiles is what the search uses, it skips what the search has begun,
and it changes no answer."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.limits import COLD_START_SECONDS

ROOT = Path(__file__).parents[1]
# A toy position where a player acts (its kernels compile in seconds; the plans are the
# templates', the same for every game).
TOY = """
    import tessera.kernels.toy as toy
    from tessera.kernels.toy.layout import DEAL_BASE
    state = toy.new_game(5, True)
    toy.apply_move(state, DEAL_BASE + 1)
    toy.apply_move(state, DEAL_BASE + 4)
"""


def python(code, cache, helper=True, **env):
    """Run ``TOY`` and then ``code`` in a fresh interpreter with numba's cache in ``cache``; its stdout."""
    environ = dict(os.environ, NUMBA_CACHE_DIR=str(cache), TESSERA_PREBUILT="0", **env)
    if not helper:
        environ["TESSERA_COMPILE_HELPER"] = "0"
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(TOY) + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env=environ,
        cwd=ROOT,
        timeout=COLD_START_SECONDS,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


# The search that a helped cold search must answer alike (below).
SEARCH = """
    import glob, json, tempfile
    from tessera.search.mcts import Mcts, MctsOptions
    result = Mcts(MctsOptions(iterations=300, seed=3)).search(state)
    print(json.dumps([[int(line.move), int(line.visits)] for line in result.moves]))
    print(len(glob.glob(tempfile.gettempdir() + "/tessera-compile-*")))
"""


@pytest.fixture(scope="module")
def lone_cold_search(tmp_path_factory):
    """One process on a cold cache without a helper: ``SEARCH`` (a lone search's answer), then
    an IS-MCTS search, then for each kernel of their helpers' plans whether the searches
    compiled it with the plan's argument types. Its lines: the two of ``SEARCH``, then one a
    kernel. (One cold compile serves both tests that need one.)"""
    return python(
        textwrap.dedent(SEARCH)
        + textwrap.dedent("""
        from numba import typeof
        from tessera.search import ismcts, mcts
        from tessera.search.ismcts import Ismcts
        Ismcts(MctsOptions(iterations=50, seed=1)).search(state)
        plans = (mcts.helper_kernels(state.tolist(), "greedy", False), ismcts.helper_kernels(state.tolist(), "greedy"))
        for plan in plans:
            for kernel, args in plan:
                print(kernel.py_func.__qualname__, tuple(map(typeof, args)) in kernel.overloads)
    """),
        tmp_path_factory.mktemp("lone"),
        helper=False,
    ).splitlines()


@pytest.mark.cold
def test_every_kernel_a_helper_compiles_is_one_the_search_compiles_with_those_types(lone_cold_search):
    """Helper off, cold cache (a cached kernel brings its callees compiled in, so only a
    compile shows what it calls): an MCTS and an IS-MCTS search compile each kernel of
    their helper's plan with the plan's argument types, so the helper never compiles for
    nothing."""
    lines = lone_cold_search[2:]
    assert len(lines) == 11  # 6 kernels in MCTS's plan (no reuse), 5 in IS-MCTS's
    assert all(line.endswith(" True") for line in lines), lines


@pytest.mark.cold
def test_the_helper_skips_a_kernel_the_command_has_begun_and_caches_the_others(tmp_path):
    """The command holds the last kernel's lock (the result's lines, which no other kernel
    calls): the helper leaves it alone, compiles the rest, and a second process loads
    those from the cache without compiling."""
    plan = """
        import fcntl, json, os, tempfile
        from numba import typeof
        from tessera import parallel_compile
        from tessera.search import mcts
        plan = mcts.helper_kernels(state.tolist(), "random", False)
    """
    out = python(
        plan
        + """
        locks = tempfile.mkdtemp()
        held = os.open(parallel_compile.KernelLocks(locks).path(plan[-1][0]), os.O_CREAT | os.O_RDWR)
        fcntl.flock(held, fcntl.LOCK_EX)
        arguments = json.dumps([state.tolist(), "random", False])
        parallel_compile.run_helper(locks, "tessera.search.mcts:helper_kernels", arguments)
        print(json.dumps([tuple(map(typeof, args)) in kernel.overloads for kernel, args in plan]))
    """,
        tmp_path,
    )
    assert json.loads(out) == [True, True, True, True, True, False]
    out = python(
        plan
        + """
        from tessera.kernels import bind
        from tessera.compiletime import compile_clock
        with compile_clock() as clock:
            for kernel, args in plan[:-1]:
                bind.ready(kernel, *args)
        print(json.dumps(sorted(clock.own)))
    """,
        tmp_path,
    )
    assert json.loads(out) == []


@pytest.mark.cold
def test_a_helped_cold_search_gives_the_answer_of_a_lone_one_and_leaves_nothing_behind(tmp_path, lone_cold_search):
    """Cold, with the helper and without it (fresh caches each), then warm: the same moves
    and visits; the helper's lock directory is gone afterwards."""
    temp = tmp_path / "temp"
    temp.mkdir()
    helped = python(SEARCH, tmp_path / "helped", TMPDIR=str(temp)).splitlines()
    alone = lone_cold_search[:2]
    warm = python(SEARCH, tmp_path / "helped", TMPDIR=str(temp)).splitlines()
    assert helped[0] == alone[0] == warm[0]
    assert helped[1] == warm[1] == "0"


def test_a_search_loads_its_kernels_once_a_process_per_game_and_options(monkeypatch):
    """Searches after the first skip loading (a helper's folder, typing every argument):
    a search's ``load_kernels`` runs once for each game and rollout, however often called."""
    from tessera import parallel_compile
    from tessera.games import get_game
    from tessera.search import mcts
    from tessera.search.mcts import Mcts, MctsOptions

    entered = []
    helped = parallel_compile.helped

    def counting(plan, *args):
        entered.append(args[1:])
        return helped(plan, *args)

    monkeypatch.setattr(parallel_compile, "helped", counting)
    monkeypatch.setattr(mcts, "load_kernels", parallel_compile.once_per_process(mcts.load_kernels.__wrapped__))
    state = get_game("azul").new(1)
    for rollout in ("greedy", "greedy", "random", "greedy"):
        Mcts(MctsOptions(iterations=50, seed=0, rollout=rollout)).search(state)
    assert entered == [("greedy", False), ("random", False)]
