"""Where Tessera reaches into numba's or CPython's internals, and the one switch for all of it.

Each patch below replaces or calls something private, to save start-up or compile time:
none changes what a command computes. Private code can change in any release, so the
patches apply only with the versions the test suite ran them on (``TESTED``), and
``TESSERA_NUMBA_PATCHES=0`` in the environment turns every one of them off. Without
them everything works as with plain ``numba.njit(cache=True)`` and a normal interpreter
exit, only slower; CI runs part of the suite that way (``.ci/run``).

Interpreter patches, on when the switch is on and Python's version is tested (numba may
not be imported yet when they apply, and they depend on none of its code):

- ``gc`` paused while numba is imported, then everything alive moved out of the
  collector's reach (``gc.freeze``) -- ``tessera.kernels.jit``. Saves about 0.05 s of a
  warm ``tessera best``.
- scipy hidden while a command runs (``sys.modules["scipy"] = None``) --
  ``tessera.cli.startup``. numba imports scipy only to check its version and for linear
  algebra, which the kernels do not use: about 0.6 s of a warm start.
- The console's exit without the interpreter's teardown: ``threading._shutdown`` and
  ``atexit._run_exitfuncs`` run, then ``os._exit`` -- ``tessera.console``. About 0.25 s
  of every command that loaded kernels.

numba patches, on when the interpreter patches are and numba's and llvmlite's versions are
tested too:

- One compile per argument type: each kernel's ``Dispatcher.get_call_template`` types a
  call from jitted code on the arguments' non-literal types -- ``tessera.kernels.jit``.
  Saves a second compile (0.1 to 0.8 s) of each kernel called with a constant.
- No C-callable wrapper (numba's internal flag ``no_cfunc_wrapper``) --
  ``tessera.kernels.jit``. About 8 % of a first compile.
- Guarded compiles: each kernel's ``Dispatcher.compile`` wrapped, for the locks of
  ``tessera.parallel_compile``; without it no compile helper starts.
- Cache loads without the compiler's registries: ``numba.core.caching.Cache.load_overload``
  and ``NullCache.load_overload`` replaced, and ``numba.core.environment._rebuild_env``
  wrapped -- ``tessera.kernels.cache_load``. Warm commands run in 0.80 to 0.92 of their
  time.
- The inliner copying each variable once: ``numba.core.inline_closurecall.InlineWorker.inline_ir``
  wrapped and the module's ``copy`` replaced -- ``tessera.kernels.inliner``. About 3 s of
  compiling a first Summer Pavilion search.

A site asks ``interpreter_patches()`` or ``numba_patches()`` before it patches; each is
decided once per process. The figures come from ``bench/start_speed.py`` and
results/warm-overheads.json.

Not patches, and used with or without them: numba's extension API for code generation
(``numba.extending.intrinsic`` with ``numba.core.cgutils``: the search clock, the atomics;
``numba.cpython.unsafe.numbers.trailing_zeros`` in Azure's moves) and its event API
(``numba.core.event``: compile timing, the compile helper). These replace nothing; the
version bounds on numba and llvmlite in pyproject.toml hold them to the tested releases.
"""

import functools
import os
import sys

SWITCH = "TESSERA_NUMBA_PATCHES"

# The release series the test suite runs the patches on: a version matches when its first
# two numbers do. Adding one means running the whole suite on it.
TESTED = {
    "python": ("3.11",),
    "numba": ("0.68",),
    "llvmlite": ("0.50",),
}


def switched_on(environ=os.environ):
    """Whether the environment leaves the patches on (anything but ``TESSERA_NUMBA_PATCHES=0``)."""
    return environ.get(SWITCH, "").strip() != "0"


def series(version):
    """The first two numbers of a version: ``"0.68"`` of ``"0.68.1"``, ``"3.11"`` of
    ``(3, 11, 7)``."""
    parts = version.split(".") if isinstance(version, str) else [str(part) for part in version]
    return ".".join(parts[:2])


def tested(program, version):
    """Whether ``version`` of ``program`` (a key of ``TESTED``) is of a tested series."""
    return series(version) in TESTED[program]


@functools.cache
def interpreter_patches():
    """Whether the patches of the interpreter (and of the collector around numba's import) apply."""
    return switched_on() and tested("python", sys.version_info[:3])


@functools.cache
def numba_patches():
    """Whether the patches of numba's internals apply (imports numba, as each site has)."""
    import llvmlite
    import numba

    return interpreter_patches() and tested("numba", numba.__version__) and tested("llvmlite", llvmlite.__version__)
