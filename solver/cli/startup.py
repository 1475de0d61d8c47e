"""What makes a command start fast: scipy kept from numba's import, the shared kernels
loaded while a pipe's writer is still starting, the line saying a first run compiled,
and ``tessera warmup``, which compiles ahead of time."""

import select
import sys

import click

from tessera.cli.progress import progress_bar, progress_wanted
from tessera.errors import TesseraError
from tessera.warmup import load_shared_kernels


def stdin_after_shared_kernels():
    """All of stdin. While the input has not come, the kernels every search shares are
    loaded from numba's cache or compiled (``tessera.warmup.load_shared_kernels``); the first
    of them sets up what every later load or compile needs.

    In a pipe (``tessera new azul | tessera best -``) the writer, itself starting numba,
    sends the position only when it is done: this work runs meanwhile on the other core,
    and the position waits in the pipe."""
    if sys.stdin is None:
        raise TesseraError("stdin is closed (expected a position)")
    load_shared_kernels(until=_stdin_has_input)
    try:
        return sys.stdin.buffer.read()
    except (OSError, ValueError) as err:  # e.g. a closed or unreadable stream
        raise TesseraError(f"stdin could not be read ({err})") from None


def _stdin_has_input():
    """Whether stdin has input waiting (or its end): a read would not block."""
    try:
        return bool(select.select([sys.stdin], [], [], 0)[0])
    except (OSError, ValueError):  # not a selectable stream: do not wait on it
        return True


def compile_note(result):
    """A line of its own on stderr when the search's kernels were compiled (the first run):
    the compile is not in the search's time and rate."""
    if result.compile_seconds > 0:
        click.echo(
            f"compiled the search kernels in {result.compile_seconds:.1f} s before searching "
            "(numba caches them: `tessera warmup` does it ahead of time)",
            err=True,
        )


@click.command()
@click.argument("names", metavar="[GAME]...", nargs=-1)
@click.option(
    "--progress/--no-progress", default=None, help="a progress bar on stderr [default: when stderr is a terminal]"
)
def warmup(names, progress):
    """Compile the kernels of each GAME (default: every game) into numba's cache.

    Commands compile the kernels they use on first use and cache them; warmup does it
    ahead of time, for a container image or a cluster worker, so that every later
    command starts from the cache (set NUMBA_CACHE_DIR to choose where it goes).
    """
    from tessera.warmup import warm

    with progress_bar(progress_wanted(progress), limited=True) as show:
        warmed = warm(
            names, None if show is None else (lambda description, done, total: show(description, done / total))
        )
    for game in warmed:
        how = f"compiled in {game.compile_seconds:.1f} s" if game.compile_seconds > 0 else "already in the cache"
        click.echo(f"{game.game}: {how} ({game.seconds:.1f} s in all)")
