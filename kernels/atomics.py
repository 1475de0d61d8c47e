"""Atomic operations on one array element, for threads that share a search tree.

numba has no CPU atomics; these are LLVM's own instructions, emitted in place by
``intrinsic``s, so they cost what the hardware charges (a locked add, a compare-exchange
loop for floats) and keep numba's cache. Each takes the array and the element's index,
an integer or a tuple of them (``(node, VISITS)``); the element is an int64 or a float64.

- ``fetch_add(a, index, v)``: adds ``v`` to an int64 and returns the value before.
- ``add_float(a, index, v)``: adds ``v`` to a float64.
- ``compare_exchange(a, index, expected, new)``: stores ``new`` if the int64 holds
  ``expected``; returns the value it held (``expected`` when it stored).
- ``load_acquire(a, index)`` / ``store_release(a, index, v)``: a load no later load moves
  before, a store no earlier store moves after, so a block written before a release
  store is whole for a thread whose acquire load sees that store.
"""

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


def _pointer(context, builder, array_type, array, index_type, index):
    """The address of ``array[index]`` (no bounds check, no negative wraparound)."""
    if isinstance(index_type, types.BaseTuple):
        indices = [
            context.cast(builder, i, t, types.intp) for i, t in zip(cgutils.unpack_tuple(builder, index), index_type)
        ]
    else:
        indices = [context.cast(builder, index, index_type, types.intp)]
    array = context.make_array(array_type)(context, builder, array)
    return cgutils.get_item_pointer(context, builder, array_type, array, indices, wraparound=False)


def _element(array, index, dtypes=(types.int64, types.float64)):
    """Whether ``array[index]`` (numba types) is one 8-byte element of ``dtypes``."""
    if not (isinstance(array, types.Array) and array.dtype in dtypes):
        return False
    if isinstance(index, types.Integer):
        return array.ndim == 1
    return (
        isinstance(index, types.BaseTuple)
        and len(index) == array.ndim
        and all(isinstance(t, types.Integer) for t in index)
    )


def _atomic_add(operation, dtype, context, builder, types_, args):
    """``array[index] += value`` by LLVM's ``atomicrmw operation``; the value before."""
    array, index, value = types_
    pointer = _pointer(context, builder, array, args[0], index, args[1])
    addend = context.cast(builder, args[2], value, dtype)
    return builder.atomic_rmw(operation, pointer, addend, "monotonic")


@intrinsic
def fetch_add(typingctx, array, index, value):
    if not _element(array, index, (types.int64,)):
        return None

    def codegen(context, builder, signature, args):
        return _atomic_add("add", types.int64, context, builder, signature.args, args)

    return types.int64(array, index, value), codegen


@intrinsic
def add_float(typingctx, array, index, value):
    if not _element(array, index, (types.float64,)):
        return None

    def codegen(context, builder, signature, args):
        _atomic_add("fadd", types.float64, context, builder, signature.args, args)
        return context.get_dummy_value()

    return types.none(array, index, value), codegen


@intrinsic
def compare_exchange(typingctx, array, index, expected, new):
    if not _element(array, index, (types.int64,)):
        return None

    def codegen(context, builder, signature, args):
        pointer = _pointer(context, builder, array, args[0], index, args[1])
        old = context.cast(builder, args[2], expected, types.int64)
        replacement = context.cast(builder, args[3], new, types.int64)
        pair = builder.cmpxchg(pointer, old, replacement, "acq_rel", "acquire")
        return builder.extract_value(pair, 0)

    return types.int64(array, index, expected, new), codegen


@intrinsic
def load_acquire(typingctx, array, index):
    if not _element(array, index):
        return None

    def codegen(context, builder, signature, args):
        pointer = _pointer(context, builder, array, args[0], index, args[1])
        return builder.load_atomic(pointer, "acquire", 8)

    return array.dtype(array, index), codegen


@intrinsic
def store_release(typingctx, array, index, value):
    if not _element(array, index):
        return None

    def codegen(context, builder, signature, args):
        pointer = _pointer(context, builder, array, args[0], index, args[1])
        builder.store_atomic(context.cast(builder, args[2], value, array.dtype), pointer, "release", 8)
        return context.get_dummy_value()

    return types.none(array, index, value), codegen
