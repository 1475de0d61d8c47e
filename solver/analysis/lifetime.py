"""Search processes end with the engine, even when it is killed (SIGKILL included).

The engine's children are the fork server and, forked from it, the search processes.
The fork server ends by itself once every holder of its "alive" pipe has closed it
(``multiprocessing.forkserver`` watches for that); the search processes would hold it
open too, so ``die_with_parent`` closes their copy, and the fork server ends with the
engine. Each search process asks the kernel (Linux ``PR_SET_PDEATHSIG``) for a
SIGKILL when its parent, the fork server, ends: a running search holds the GIL for as
long as it likes (alpha-beta, the solver), so nothing in the process itself could be
counted on to notice. Elsewhere a watchdog thread ends the process when its parent
changes; it runs while a search releases the GIL (MCTS) or between searches.
"""

import ctypes
import ctypes.util
import os
import signal
import sys
import threading

PR_SET_PDEATHSIG = 1
WATCH_SECONDS = 0.5


def die_with_parent():
    """Call first thing in a search process: it ends when its parent process ends."""
    parent = os.getppid()
    _drop_fork_server_lifeline()
    if not _kernel_kills_orphan():
        threading.Thread(target=_watch, args=(parent,), name="parent-watch", daemon=True).start()
    if os.getppid() != parent:  # the parent ended before the request above
        os._exit(1)


def _drop_fork_server_lifeline():
    """Close this process's copy of the fork server's alive pipe (a search process forks
    nothing), so that the fork server sees the engine end."""
    try:
        from multiprocessing import forkserver

        server = forkserver._forkserver
        fd = server._forkserver_alive_fd
    except AttributeError:  # another Python's multiprocessing
        return
    if fd is not None:
        try:
            os.close(fd)
        except OSError:
            pass
        server._forkserver_alive_fd = None


def _kernel_kills_orphan():
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch(parent):
    while os.getppid() == parent:
        threading.Event().wait(WATCH_SECONDS)
    os._exit(1)
