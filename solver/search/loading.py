"""Loading a search's kernels before its clock starts, once a process."""

from tessera import parallel_compile
from tessera.kernels import bind


def kernel_loader(search_kernels, helper_kernels):
    """``load_kernels(state, *options)``: compile, or load from numba's cache, every kernel
    of ``search_kernels(state, *options)``, a second process compiling
    ``helper_kernels(state, *options)`` meanwhile on a cold cache; once for each game and
    options in a process (``parallel_compile.once_per_process``)."""

    def load_kernels(state, *options):
        """Compile, or load from numba's cache, every kernel of the search's
        ``search_kernels``, a second process compiling some of them meanwhile."""
        with parallel_compile.helped(helper_kernels, state.tolist(), *options):
            for function, args in search_kernels(state, *options):
                bind.ready(function, *args)

    return parallel_compile.once_per_process(load_kernels)
