"""numba's cache loads without the compiler's registries.

Before every cache load numba refreshes its target context, which imports and installs
every registry of implementations (numpy's functions, typed containers, random numbers)
and refreshes the typing context: what typing and lowering a function need, and what a
load does not. Warm commands take 0.80-0.92 of their time with it skipped
(``bench/start_speed.py``, ``cache_load_comparison`` in results/start.json). A load
needs the runtime that compiled code calls (NRT) and the symbols it may refer to; here
it sets up just those, and a compile still refreshes both contexts itself first
(numba's compiler does, for every function it compiles).

The symbols: numba's C helpers and the built-in exceptions are registered when the
target context is made, the math functions by its ``init``, the runtime's by
``rtsys.initialize`` (below), a parallel kernel's thread pool by the load itself (its
``reload_init``); only ``hash()``'s secret is registered by importing a registry
module, ``numba.cpython.hashing``, which ``install`` imports. A symbol left unregistered
would abort the process when the code is loaded, so ``tests/test_cache_load.py`` loads
every game's kernels in a fresh process from a full cache and runs them.

A miss means numba compiles next: only then is ``tessera.kernels.inliner`` installed, since
importing numba's inliner costs a warm command about 0.05 s and a load never inlines.

A loaded kernel's environments (one per function compiled into it) name the module whose
globals they hold, and numba imports it. For numba's own array implementations,
``numba.np.arrayobj``, which every kernel making an array names, that import (with
numba's string types it pulls in) was the largest part of a warm command's first load,
for globals that nopython code never reads (only object mode does): an environment of a
numba module not yet imported gets empty ones. ``tests/test_cache_load.py`` checks that
a load-only process answers alike without it.
"""

import sys

from tessera.kernels import inliner, patches, prebuilt

_installed = False


def install():
    """Make numba's cache loads skip the context refresh, and its misses install the
    inliner (idempotent; nothing where ``tessera.kernels.patches`` turns numba's patches off)."""
    global _installed
    if _installed or not patches.numba_patches():
        return
    import numba.cpython.hashing  # noqa: F401  (registers hash()'s secret symbols)
    from numba.core import caching, environment

    caching.Cache.load_overload = _load_overload
    caching.NullCache.load_overload = _no_cache_load  # a kernel without cache=True
    environment._rebuild_env = _environment_rebuilder(environment)
    _installed = True


def _load_overload(self, sig, target_context):
    """``numba.core.caching.Cache.load_overload`` with the runtime set up instead of the
    contexts refreshed; a miss looks in the kernels shipped compiled
    (``tessera.kernels.prebuilt``), and installs the inliner before its compile."""
    from numba.core.runtime import nrt

    nrt.rtsys.initialize(target_context)
    with self._guard_against_spurious_io_errors():
        loaded = self._load_overload(sig, target_context)
    if loaded is None and self._enabled:
        loaded = prebuilt.load(self, sig, target_context)
    if loaded is None:
        inliner.install()
    return loaded


def _no_cache_load(self, sig, target_context):
    """A kernel without a cache always misses."""
    inliner.install()


def _environment_rebuilder(environment):
    """``numba.core.environment._rebuild_env`` (what unpickling a loaded environment
    calls), giving an environment of a numba module not yet imported empty globals."""
    rebuild = environment._rebuild_env

    def rebuild_environment(modname, consts, env_name):
        if modname in sys.modules or not modname.startswith("numba."):
            return rebuild(modname, consts, env_name)
        env = environment.lookup_environment(env_name)
        if env is None:
            env = environment.Environment({})
            env.consts[:] = consts
            env.env_name = env_name
            environment.Environment._memo[env_name] = env
        return env

    return rebuild_environment
