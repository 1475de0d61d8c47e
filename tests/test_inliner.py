"""tessera.kernels.inliner: numba's inliner copies a callee's blocks with one memo, and the
functions it inlines still compute what they did. The patched path: skipped where
tessera.kernels.patches turns numba's patches off (TESSERA_NUMBA_PATCHES=0)."""

import copy
import subprocess
import sys

import numpy as np
import pytest
from numba.core import inline_closurecall
from numba.core.compiler import run_frontend

from tessera.kernels import inliner, patches
from tessera.kernels.jit import njit
from tests.limits import COLD_START_SECONDS

pytestmark = pytest.mark.skipif(not patches.numba_patches(), reason="numba's patches are off")

inliner.install()  # as a kernel's first compile does


def _branchy(values, limit):
    total = 0
    for v in values:
        if v > limit:
            total += v * 2
        elif v == limit:
            total -= 1
        else:
            while v < limit:
                v += 3
            total += v
    return total


_inlined = njit(inline="always")(_branchy)


@njit
def _two_sites(values):
    # Inlined twice: each site renames the callee's variables in the one caller scope.
    return _inlined(values, 4) * 100 + _inlined(values[::-1], 2)


def test_a_function_inlined_at_two_sites_computes_as_python():
    values = np.array([1, 4, 7, 2, 9, 0], np.int64)
    assert _two_sites(values) == _branchy(values, 4) * 100 + _branchy(values[::-1], 2)


def test_blocks_copied_in_one_call_share_one_scope():
    source = run_frontend(_branchy)
    blocks = list(source.blocks.values())
    assert len(blocks) > 3
    with inliner.shared_block_memos():
        copies = [inline_closurecall.copy.deepcopy(block) for block in blocks]
    scopes = {id(block.scope) for block in copies}
    assert len(scopes) == 1 and copies[0].scope is not source.blocks[0].scope
    variables = [var for block in copies for stmt in block.body for var in stmt.list_vars()]
    assert variables and all(var.scope is copies[0].scope for var in variables)
    assert {var.name for var in variables} <= set(copies[0].scope.localvars._con)
    assert inline_closurecall.copy.deepcopy(blocks[0]).scope is not copies[0].scope  # call over


def test_outside_an_inline_call_a_block_copies_as_copy_deepcopy_does():
    block = next(iter(run_frontend(_branchy).blocks.values()))
    first, second = (inline_closurecall.copy.deepcopy(block) for _ in range(2))
    assert first.scope is not second.scope
    assert str(first) == str(second) == str(copy.deepcopy(block))


def test_install_is_idempotent_and_done_by_a_kernel_compile():
    wrapped = inline_closurecall.InlineWorker.inline_ir
    inliner.install()
    assert inline_closurecall.InlineWorker.inline_ir is wrapped and wrapped.one_memo_per_scope
    # Importing the kernels loads no inliner (a command starts numba while it reads its input).
    code = """
import sys
from tessera.kernels.jit import njit
print('numba.core.inline_closurecall' in sys.modules)
njit(lambda x: x + 1)(1)
from numba.core.inline_closurecall import InlineWorker
print(getattr(InlineWorker.inline_ir, 'one_memo_per_scope', False))
"""
    lines = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=COLD_START_SECONDS
    ).stdout.split()
    assert lines == ["False", "True"]
