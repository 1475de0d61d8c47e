"""tessera.kernels.jit.njit: a kernel called with constant arguments compiles once per argument
type, not once per constant, and still computes with the constants. The patched path:
skipped where tessera.kernels.patches turns numba's patches off (TESSERA_NUMBA_PATCHES=0)."""

import numpy as np
import pytest

from tessera.kernels import patches
from tessera.kernels.jit import njit

pytestmark = pytest.mark.skipif(not patches.numba_patches(), reason="numba's patches are off")


@njit
def _scaled(values, factor, twice):
    total = 0
    for v in values:
        total += v * factor
    return 2 * total if twice else total


@njit
def _callers(values):
    # Constant arguments: numba types them as literals (Literal[int](3), Literal[bool](True)).
    return _scaled(values, 3, True) + _scaled(values, 5, False) + _scaled(values, values[0], False)


def test_constant_arguments_share_one_compile_per_argument_type():
    values = np.array([1, 2, 4], np.int64)
    assert _callers(values) == 2 * 21 + 35 + 7
    assert [str(sig) for sig in _scaled.signatures] == ["(Array(int64, 1, 'C', False, aligned=True), int64, bool)"]


def test_kernels_compile_no_cfunc_wrapper():
    assert _scaled.targetoptions["no_cfunc_wrapper"] is True
