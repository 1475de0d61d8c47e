"""Cache loads without the compiler's registries (kernels/cache_load.py): a process that only
loads kernels from numba's cache runs every kind of them (a search of each game, IS-MCTS on
a view, alpha-beta with its hash table, parallel playouts) and answers as one that compiled
them; it never installs the compiler's registries of implementations, nor imports numba's
array implementations for the globals of the kernels' environments. The patched path:
skipped where tessera.kernels.patches turns numba's patches off (TESSERA_NUMBA_PATCHES=0)."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tessera.kernels import patches
from tests.limits import COLD_START_SECONDS

pytestmark = pytest.mark.skipif(not patches.numba_patches(), reason="numba's patches are off")

ROOT = Path(__file__).parents[1]

PROBE = textwrap.dedent("""
    import json
    import numpy as np
    from tessera.kernels import bind
    from tessera.compiletime import compile_clock
    from tessera.position import Position

    def lines(report):
        return [(m["move"], m["visits"]) for m in report["moves"][:5]]

    with compile_clock() as compiling:
        answers = {game: lines(Position.new(game, seed=3).best(visits=300, seed=1))
                   for game in ("azul", "pavilion", "azure")}
        answers["azure view"] = lines(Position.new("azure", seed=5).view(1).best(visits=300, seed=1))
        answers["alphabeta"] = lines(Position.new("azul", seed=3).best(algo="alphabeta", depth=2))
        start = Position.new("azul", seed=3).state
        scores, made = np.zeros((64, 2), np.int64), np.zeros(64, np.int64)
        bind.instance(start[0], "playout").playouts_parallel(start, 7, 64, scores, made)
        answers["playouts"] = [int(made.sum()), int(scores.sum())]
    from numba.core.registry import cpu_target
    import sys
    print(json.dumps({"answers": answers, "compile_seconds": compiling.seconds,
                      "registries_installed": len(cpu_target.target_context._registries),
                      "inliner_imported": "numba.core.inline_closurecall" in sys.modules,
                      "arrays_module_imported": "numba.np.arrayobj" in sys.modules}))
""")


def probe():
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=dict(os.environ, TESSERA_COMPILE_HELPER="0"),
        timeout=COLD_START_SECONDS,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.long  # every kernel loaded and run
def test_a_process_that_only_loads_kernels_runs_them_all_and_answers_alike():
    first = probe()  # compiles what the run's cache lacks
    second = probe()
    assert second["compile_seconds"] == 0
    assert second["registries_installed"] == 0  # loads alone refresh no context
    assert not second["inliner_imported"]  # nor install the inliner
    assert not second["arrays_module_imported"]  # nor import what environments name
    if first["compile_seconds"] > 0:
        assert first["registries_installed"] > 0  # a compile refreshes them itself
    assert second["answers"] == first["answers"]
    assert all(second["answers"].values())
