"""The ``tessera`` command line: new, show, view, moves, play, perft, bench, warmup, best,
solve, analyze, serve, selfplay, stats and train.

Every user error ends the same way: one line ``error: ...`` on stderr and exit
code 2 (``TesseraGroup``); click's own usage errors keep click's message and its
exit code, also 2. Kernels and notation are imported inside the commands, so help
pages and option errors do not pay for loading numba.

This module holds the group and registers the commands, which live by job:
``positions`` (new, show, view, moves, play), ``movegen`` (perft, bench), ``search``
(best, solve), ``servers`` (analyze, serve), ``runs`` (selfplay, stats), ``learning``
(train) and ``startup``
(warmup, and what makes every command start fast). No module is named like a command,
so each stays reachable as ``tessera.cli.<module>``. ``reading`` reads POS;
``printing`` and ``progress`` are what the commands show, for other front ends too.
"""

import click

import tessera
from tessera.cli.learning import train
from tessera.cli.movegen import bench, perft
from tessera.cli.positions import moves, new, play, show, view
from tessera.cli.reading import POSITION_HELP
from tessera.cli.runs import selfplay, stats
from tessera.cli.search import best, solve
from tessera.cli.servers import analyze, serve
from tessera.cli.startup import warmup
from tessera.errors import BoardDataError, TesseraError
from tessera.warmup import scipy_hidden

USER_ERROR = 2


class TesseraGroup(click.Group):
    """The one place where user errors become ``error: ...`` lines."""

    def invoke(self, ctx):
        try:
            with scipy_hidden():
                return super().invoke(ctx)
        except (TesseraError, BoardDataError) as err:
            click.echo("error: " + " ".join(str(err).split()), err=True)
            ctx.exit(USER_ERROR)


@click.group(cls=TesseraGroup, context_settings={"help_option_names": ["-h", "--help"]}, epilog=POSITION_HELP)
@click.version_option(tessera.__version__, "--version", "-V", prog_name="tessera", message="%(prog)s %(version)s")
def main():
    """Tessera: positions, moves, perft, search and self-play for Azul, Azul: Summer
    Pavilion and Azure."""


COMMANDS = (new, show, view, moves, play, perft, bench, warmup, best, solve, analyze, serve, selfplay, stats, train)
for command in COMMANDS:
    main.add_command(command)
