"""The cores this process may use."""

import os


def available_cores():
    """The cores this process may run on (its CPU affinity, else the machine's count): the
    default thread count of ``tessera best`` and of self-play's pools."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1
