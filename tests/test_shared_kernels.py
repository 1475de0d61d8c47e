"""tessera.kernels.shared: the kernels compiled while a command waits for its input are the ones
a search then calls, and the waiting stops when the input comes."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tessera.kernels import shared
from tests.limits import COLD_START_SECONDS

ROOT = Path(__file__).parents[1]


@pytest.mark.cold
def test_an_azul_search_calls_every_shared_kernel_with_its_signature(tmp_path):
    """With an empty cache (a cached kernel brings its callees compiled in, so only a
    compile shows what it calls) and no helper process (which would compile some of them),
    a search compiles each shared signature: none is prepared for nothing or with the wrong
    types."""
    code = textwrap.dedent("""
        from tessera.kernels import shared
        from tessera.position import Position
        Position.new("azul", seed=1).best(visits=50, rollout="random")
        for kernel, signature in shared.SIGNATURES:
            print(kernel.py_func.__qualname__, signature in kernel.overloads,
                  sorted(map(str, kernel.overloads)))
    """)
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), TESSERA_COMPILE_HELPER="0", TESSERA_PREBUILT="0"),
        timeout=COLD_START_SECONDS,
    )
    assert done.returncode == 0, done.stderr
    unused = [line for line in done.stdout.splitlines() if line.split()[1] != "True"]
    assert not unused, unused
    assert len(done.stdout.splitlines()) == len(shared.SIGNATURES)


def test_preparing_stops_once_the_input_has_come():
    """``until`` is asked before each kernel: here it turns true on its third question."""
    code = textwrap.dedent("""
        from tessera.kernels import shared
        questions = []
        shared.prepare(lambda: questions.append(1) or len(questions) > 2)
        print(sum(signature in kernel.overloads for kernel, signature in shared.SIGNATURES),
              len(questions))
    """)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=COLD_START_SECONDS
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["2", "3"]
