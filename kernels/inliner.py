"""One copy of each variable when numba inlines a function (``inline="always"``).

Before it changes a callee's IR, numba's inliner (``InlineWorker.inline_ir``) deep-copies
it block by block, each block with a memo of its own. Every block refers to the function's
scope, which holds every variable of the function: so the scope and all its variables are
copied once per block, blocks times variables per inlined call (numba issue 8989 and
those after it). The search inlines large helpers (``simulate`` into ``run_tree``), and
that copying took about 4 s of the 22 s compiling a first Summer Pavilion search (0.9 s
with this). ``install`` gives the blocks of one function one memo for the length of an
``inline_ir`` call: each variable is copied once, and the copied blocks share one scope,
as the blocks they are copied from do.
"""

import contextlib
import copy
import functools
import threading
import types

from numba.core import ir

from tessera.kernels import patches

# On this thread, a stack of memos by scope: one per ``shared_block_memos`` open (per
# ``inline_ir`` call in progress).
_calls = threading.local()


class _CopyModule(types.ModuleType):
    """The ``copy`` module as the inliner sees it: ``deepcopy`` of an IR block, during an
    ``inline_ir`` call, shares the memo of the blocks of its scope."""

    def __getattr__(self, name):
        return getattr(copy, name)

    @staticmethod
    def deepcopy(value, memo=None):
        memos = getattr(_calls, "memos", None)
        if memo is None and memos and isinstance(value, ir.Block):
            memo = memos[-1].setdefault(id(value.scope), {})
        return copy.deepcopy(value, memo)


@contextlib.contextmanager
def shared_block_memos():
    """While open, the inliner's ``copy.deepcopy`` of an IR block shares one memo with the
    other blocks of its scope (keyed by id: the scopes copied stay alive meanwhile)."""
    memos = _calls.__dict__.setdefault("memos", [])
    memos.append({})
    try:
        yield
    finally:
        memos.pop()


def _one_memo_per_scope(inline_ir):
    @functools.wraps(inline_ir)
    def wrapper(*args, **kwargs):
        with shared_block_memos():
            return inline_ir(*args, **kwargs)

    wrapper.one_memo_per_scope = True
    return wrapper


def install():
    """Copy inlined IR with one memo per function (idempotent; nothing where
    ``tessera.kernels.patches`` turns numba's patches off). Imports numba's inliner, which
    a process loads anyway at its first compile."""
    if not patches.numba_patches():
        return
    from numba.core import inline_closurecall

    worker = inline_closurecall.InlineWorker
    if not getattr(worker.inline_ir, "one_memo_per_scope", False):
        worker.inline_ir = _one_memo_per_scope(worker.inline_ir)
        inline_closurecall.copy = _CopyModule("copy")
