"""The ``tessera`` console script: the command line, then an exit without the teardown.

When a command is done, the interpreter would free every object one by one: numba's
loaded kernels, its types and every module, 0.26 s of a warm 1.7-s ``tessera best``
(0.016 s now: ``exit_s`` in results/warm-overheads.json), for memory the system takes
back anyway. So once the command has returned, the interpreter's own first steps of an exit
run as they would (threads are joined, then the exit handlers: child processes joined,
files closed), the output is flushed, and the process ends there. Those steps are
CPython's private functions: where ``tessera.kernels.patches`` turns the interpreter's
patches off, the process exits the ordinary way instead.

On a system the kernels do not run on (Windows), importing them refuses with one line,
which is all the command prints.
"""

import atexit
import os
import sys
import threading


def run():
    try:
        from tessera.cli import main
        from tessera.kernels import patches
    except ImportError as refusal:
        # ``UnsupportedPlatformError``, known by its mark: importing its class would import
        # the kernels, which refuse again.
        if not getattr(refusal, "unsupported_platform", False):
            raise
        print(f"error: {refusal}", file=sys.stderr)
        sys.exit(1)
    try:
        main()
        status = 0
    except SystemExit as done:
        status = _exit_status(done.code)
    if not patches.interpreter_patches():
        sys.exit(status)
    threading._shutdown()  # what the interpreter's exit runs first, then
    atexit._run_exitfuncs()  # these
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a reader gone (`| head`) or a stream closed
            pass
    os._exit(status)


def _exit_status(code):
    """The process status of ``sys.exit(code)``, as the interpreter turns it into one."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1
