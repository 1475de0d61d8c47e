"""numba's ``njit`` as every kernel uses it: one compile per argument type, no C wrapper,
compiles guarded.

- One compile per argument *type*. A kernel called from another with a constant
  argument (``take(state, 0)``, ``place(state, move, True)``) would be compiled again
  for that constant: numba types a constant as a literal (``Literal[int](0)``) and a
  jitted call compiles a specialisation for it, a full compile each (0.1 to 0.8 s:
  IS-MCTS's ``choose``, Azure's ``place`` and ``can_place``, Pavilion's ``take`` were
  compiled twice; with fewer helpers inlined, Azure's ``field`` would be six times).
  The kernels' calls are typed on the constants' plain types (``int64``, ``bool``)
  instead, so each kernel compiles once; a constant argument still folds where LLVM
  inlines the callee.
- No C-callable wrapper. By default numba compiles, beside each function, a wrapper
  that lets the function be passed to other jitted code as a first-class function
  object. Tessera never does that (a function passed as an argument would defeat
  ``cache=True``), and the wrapper cost about 8 % of compiling a first Summer
  Pavilion ``best``.
- Guarded compiles. Each compile or cache load runs inside ``compile_guard`` when one is
  set: a command that another process helps compile (``tessera.parallel_compile``)
  waits there for a kernel the other is compiling, then loads it from the cache. The
  first compile or load installs ``tessera.kernels.cache_load`` (cache loads without the
  compiler's registries), which installs ``tessera.kernels.inliner`` (numba's inliner copying
  each variable once) before the first compile.

``bench/start_speed.py`` measures all three. Kernels import ``njit`` from here instead of
from numba; calls between kernels and from Python are the same.

All three replace numba's internals, and the collector's pause below numba's import is a
patch of the interpreter's: each applies only where ``tessera.kernels.patches`` says so;
otherwise ``njit`` is numba's own.
"""

import contextlib
import gc

from tessera.kernels import patches


@contextlib.contextmanager
def _collector_paused():
    """numba's import makes objects by the ten thousand that live as long as the process.
    The collector went through them again and again as they came, with next to nothing to
    free; collecting took 0.073 s of a warm 1.7-s `tessera best`. With numba imported
    while it is paused, and everything alive then moved out of its reach (``gc.freeze``),
    it takes 0.022 s (``collector_s`` in results/warm-overheads.json)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if collecting:
            gc.enable()


with _collector_paused() if patches.interpreter_patches() else contextlib.nullcontext():
    from numba import njit as numba_njit
    from numba.core import types

from tessera.kernels import cache_load  # noqa: E402  (after numba, imported above)

# While another process compiles part of a command's kernels (``tessera.parallel_compile``):
# ``compile_guard(dispatcher, signature)``, a context manager around each compile or cache
# load, so the two never compile one kernel at once; None otherwise.
compile_guard = None


def njit(function=None, **options):
    """``numba.njit(function, **options)`` compiling once per argument type, with no cfunc
    wrapper; used as ``@njit(cache=True)`` or ``@njit(cache=True, inline="always")``.
    ``numba.njit(function, **options)`` itself where numba's patches are off."""

    def decorate(function):
        if not patches.numba_patches():
            return numba_njit(**options)(function)
        return _guarded(_plain_call_types(numba_njit(no_cfunc_wrapper=True, **options)(function)))

    return decorate if function is None else decorate(function)


def _plain_call_types(dispatcher):
    """``dispatcher``, typing calls from jitted code on the arguments' non-literal types.

    numba asks a dispatcher for the template of a call from jitted code
    (``get_call_template``), which compiles a specialisation for the exact argument
    types; given the plain types it compiles (or finds) that one, and the call's
    literal arguments convert to it."""
    get_call_template = dispatcher.get_call_template

    def plain_call_template(args, kws):
        return get_call_template(
            tuple(types.unliteral(arg) for arg in args), {name: types.unliteral(arg) for name, arg in kws.items()}
        )

    dispatcher.get_call_template = plain_call_template
    return dispatcher


def _guarded(dispatcher):
    """``dispatcher``, each compile or cache load inside ``compile_guard`` when one is set.
    Every path to one (a call from Python, the typing of a call from jitted code,
    ``dispatcher.compile``) goes through the dispatcher's ``compile``."""
    compile_signature = dispatcher.compile

    def compile(signature):
        cache_load.install()  # here, not at import: ``import kernels`` stays without numba
        if compile_guard is None:
            return compile_signature(signature)
        with compile_guard(dispatcher, signature):
            return compile_signature(signature)

    dispatcher.compile = compile
    return dispatcher
