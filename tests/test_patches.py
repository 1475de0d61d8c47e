"""tessera.kernels.patches: the patches of numba's and CPython's internals apply only with the
tested versions and ``TESSERA_NUMBA_PATCHES`` not 0; switched off, none is applied, and a
search compiled and loaded by plain numba answers as the patched one does."""

import json
import os
import subprocess
import sys
import textwrap

import llvmlite
import numba
import pytest
from packaging.requirements import Requirement

from tessera.kernels import patches
from tests.cli_process import tessera
from tests.limits import COLD_START_SECONDS
from tests.repo import repo_text

AMBIENT_PATCHES = patches.numba_patches()  # this run's own setting (CI runs both)
UNPATCHED_CACHE = "TESSERA_TEST_UNPATCHED_CACHE"


@pytest.mark.parametrize("value, on", [(None, True), ("1", True), ("", True), ("0", False), (" 0 ", False)])
def test_only_the_value_0_switches_the_patches_off(value, on):
    environ = {} if value is None else {patches.SWITCH: value}
    assert patches.switched_on(environ) is on


@pytest.mark.parametrize(
    "program, version, tested",
    [
        ("numba", "0.68.1", True),
        ("numba", "0.68.0rc1", True),
        ("numba", "0.69.0", False),
        ("numba", "0.6.8", False),
        ("llvmlite", "0.50.0", True),
        ("llvmlite", "0.51.0", False),
        ("python", (3, 11, 7), True),
        ("python", (3, 14, 0), False),
    ],
)
def test_a_version_is_tested_when_its_series_is_in_the_table(program, version, tested):
    assert patches.tested(program, version) is tested


def test_the_installed_numba_and_llvmlite_are_tested_ones():
    assert patches.tested("numba", numba.__version__)
    assert patches.tested("llvmlite", llvmlite.__version__)


@pytest.mark.repo
def test_the_dependency_bounds_admit_the_tested_series_only():
    pyproject = repo_text("pyproject.toml")
    for program in ("numba", "llvmlite"):
        line = next(
            line.strip().strip('",') for line in pyproject.splitlines() if line.strip().startswith(f'"{program}>')
        )
        bounds = Requirement(line).specifier
        for tested in patches.TESTED[program]:
            assert bounds.contains(f"{tested}.0") and bounds.contains(f"{tested}.9")
        major, minor = (int(part) for part in patches.TESTED[program][-1].split("."))
        assert not bounds.contains(f"{major}.{minor + 1}.0")


# What a process has patched once it compiled a kernel (no cache: the inliner's install)
# and compiled or loaded one from the cache.
PROBE = textwrap.dedent("""
    import copy, gc, json
    from numba.core import caching, environment, inline_closurecall
    from tessera.kernels import patches
    from tessera.kernels.jit import njit
    from tessera.kernels.search.clock import now

    now()
    njit(lambda x: x + 1)(1)
    inline_ir = inline_closurecall.InlineWorker.inline_ir
    print(json.dumps({
        "decided": [patches.interpreter_patches(), patches.numba_patches()],
        "numba's own": {
            "cache load": caching.Cache.load_overload.__module__ == "numba.core.caching",
            "uncached load": caching.NullCache.load_overload.__module__ == "numba.core.caching",
            "environment rebuild": environment._rebuild_env.__module__ == "numba.core.environment",
            "inliner": not hasattr(inline_ir, "__wrapped__"),
            "inliner's copy": inline_closurecall.copy is copy,
            "dispatcher": not {"compile", "get_call_template"} & set(vars(now)),
            "cfunc wrapper": "no_cfunc_wrapper" not in now.targetoptions,
            "collector": gc.get_freeze_count() == 0,
        }}))
""")


def probe(switch, cache):
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        timeout=COLD_START_SECONDS,
        env=dict(os.environ, TESSERA_NUMBA_PATCHES=switch, NUMBA_CACHE_DIR=str(cache)),
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_switched_off_no_patch_is_applied(tmp_path):
    off = probe("0", tmp_path)
    assert off["decided"] == [False, False]
    assert all(off["numba's own"].values()), off


@pytest.mark.skipif(
    not patches.tested("python", sys.version_info[:3]),
    reason="the patches are not tested on this Python, so they stay off",
)
def test_switched_on_every_patch_is_applied(tmp_path):
    on = probe("1", tmp_path)
    assert on["decided"] == [True, True]
    assert not any(on["numba's own"].values()), on


def moves_and_visits(switch, cache):
    # Random rollouts: the fewest kernels a search compiles (the patches know no game nor rollout).
    result = tessera(
        "best",
        "-",
        "--rollout",
        "random",
        "--iterations",
        400,
        "--threads",
        1,
        "--seed",
        11,
        "--json",
        stdin=tessera("new", "azul", "--seed", 4).stdout,
        TESSERA_NUMBA_PATCHES=switch,
        NUMBA_CACHE_DIR=str(cache),
        TESSERA_COMPILE_HELPER="0",
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    moves = [(move["move"], move["visits"]) for move in report["moves"]]
    return moves, report["root"]["compile_seconds"]


@pytest.mark.cold
def test_a_search_without_the_patches_compiles_loads_and_answers_alike(tmp_path):
    # Each setting uses this run's cache where it is the run's own (CI runs the suite with
    # the patches on, then part of it with them off), else a cache of its own, so a
    # process without the patches compiles and loads its kernels itself. .ci/run names the
    # cache of its run without the patches (UNPATCHED_CACHE) to the run with them, so what
    # this compiles there is loaded, not compiled again, in that run. With the patches a
    # search loads the kernels shipped compiled (tessera.kernels.prebuilt), without them it
    # compiles its own: the answers are the same.
    ambient = os.environ.get("NUMBA_CACHE_DIR")
    on_cache = ambient if AMBIENT_PATCHES and ambient else tmp_path / "on"
    off_cache = ambient if not AMBIENT_PATCHES and ambient else os.environ.get(UNPATCHED_CACHE) or tmp_path / "off"
    patched, _ = moves_and_visits("1", on_cache)
    plain, _ = moves_and_visits("0", off_cache)
    plain_again, compiled = moves_and_visits("0", off_cache)
    assert compiled == 0  # loaded from the cache without the patches
    assert plain == plain_again == patched
    assert sum(visits for _, visits in patched) == 400
