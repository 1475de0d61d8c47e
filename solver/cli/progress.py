"""Progress bars on stderr, drawn by rich: a search's share of its budget, a batch's games.

rich is imported only when a bar is wanted, so a command without one does not load it.
"""

import sys
from contextlib import contextmanager


def progress_wanted(flag):
    """--progress/--no-progress, or by default whether stderr is a terminal."""
    return sys.stderr.isatty() if flag is None else flag


@contextmanager
def progress_bar(enabled, limited):
    """``show(description, fraction)`` driving a bar on stderr, or None when not wanted.

    Without a budget (``limited`` False) the bar only pulses.
    """
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(), console=Console(stderr=True), transient=True
    ) as bar:
        task = bar.add_task("searching", total=1.0 if limited else None)

        def show(description, fraction):
            bar.update(task, description=description, completed=fraction)

        yield show


def fraction(done, budget, seconds, time_limit):
    """How far a search is through its budget: the larger of its two shares, at most 1."""
    shares = [done / budget if budget else 0.0, seconds / time_limit if time_limit else 0.0]
    return min(1.0, max(shares))


@contextmanager
def games_bar(enabled, total):
    """``show(done, total, played_now, seconds)`` driving a bar of a self-play batch on
    stderr, with its rate and time left, or None."""
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    with Progress(
        TextColumn("self-play"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TextColumn("{task.fields[eta]}"),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task("self-play", total=total, rate="", eta="")

        def show(done, total, played_now, seconds):
            rate = played_now / seconds if seconds > 0 else 0.0
            eta = f"ETA {clock((total - done) / rate)}" if rate > 0 else ""
            bar.update(task, completed=done, rate=f"{rate:,.0f} games/s", eta=eta)

        yield show


def clock(seconds):
    """Seconds as h:mm:ss."""
    minutes, seconds = divmod(int(seconds + 0.5), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}"
