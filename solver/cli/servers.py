"""The commands that keep running and answer: analyze (JSON queries on stdin) and serve
(the web page)."""

import sys

import click

from tessera.errors import TesseraError, require_extra
from tessera.games import get_game, registered_games


@click.command()
@click.option(
    "--threads", type=int, default=1, show_default=True, help="search processes: how many queries run at once"
)
@click.option(
    "--warm",
    "warm_names",
    multiple=True,
    metavar="GAME",
    help="load this game's kernels before the first query (repeat it; 'all': every "
    "game); other games load when a query first needs them",
)
@click.option(
    "--max-line-bytes",
    type=click.IntRange(min=1),
    default=1_000_000,
    show_default=True,
    help="a longer input line is answered with an error, not read",
)
def analyze(threads, warm_names, max_line_bytes):
    """Serve JSON queries from stdin, one per line, with JSON answers on stdout.

    Runs until stdin closes (every query is answered) or SIGTERM. docs/analyze.md
    describes the queries and answers.
    """
    if threads < 1:
        raise TesseraError(f"--threads must be at least 1, not {threads}")
    warm = (
        sorted(registered_games())
        if "all" in warm_names
        else list(dict.fromkeys(get_game(name).name for name in warm_names))
    )
    from tessera.analysis.engine import run

    click.get_current_context().exit(run(threads, sys.stdin, sys.stdout, warm, max_line_bytes))


@click.command()
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="the address to listen on (another than loopback opens the board to the network, behind a token)",
)
@click.option("--open", "open_page", is_flag=True, help="open the page in a web browser")
@click.option(
    "--searches",
    type=click.IntRange(1, 8),
    default=2,
    show_default=True,
    help="analysis processes: how many pages can search at once",
)
@click.option(
    "--runs",
    "runs",
    multiple=True,
    metavar="DIR",
    help="a directory whose self-play run folders the page may open (repeat it; default: the current directory)",
)
@click.option(
    "--token",
    envvar="TESSERA_TOKEN",
    default=None,
    help="a secret every request must carry (the page gets it from ?token= in its "
    "address); made up when --host is not loopback [env: TESSERA_TOKEN]",
)
@click.option(
    "--memory",
    "memory_mb",
    type=click.IntRange(1),
    default=None,
    metavar="MB",
    help="memory for the trees of all searches together  [default: 2048]",
)
@click.option(
    "--idle",
    type=click.FloatRange(0, min_open=True),
    default=None,
    metavar="SECONDS",
    help="drop the searches' kept trees after this long without a search  [default: 60]",
)
@click.option(
    "--review-seconds",
    type=click.FloatRange(0, 120, min_open=True),
    default=None,
    metavar="SECONDS",
    help="a game review's search of each position at most  [default: 2]",
)
@click.option(
    "--max-connections",
    type=click.IntRange(1, 100_000),
    default=None,
    help="open connections at most (fewer when the process may not open that many files)  [default: 1000]",
)
@click.option(
    "--header-timeout",
    type=click.FloatRange(0, 3600, min_open=True),
    default=None,
    metavar="SECONDS",
    help="a request's headers must arrive within this time of its first byte  [default: 10]",
)
@click.option(
    "--body-timeout",
    type=click.FloatRange(0, 3600, min_open=True),
    default=None,
    metavar="SECONDS",
    help="a request's body must arrive within this time of its headers  [default: 30]",
)
@click.option(
    "--write-timeout",
    type=click.FloatRange(0, 3600, min_open=True),
    default=None,
    metavar="SECONDS",
    help="a client whose answer fills the send buffers must read some of it within this time  [default: 30]",
)
def serve(
    port,
    host,
    open_page,
    searches,
    runs,
    token,
    memory_mb,
    idle,
    review_seconds,
    max_connections,
    header_timeout,
    body_timeout,
    write_timeout,
):
    """A local web page to set up, play and analyse positions of every game (docs/web.md)."""
    for library in ("starlette", "uvicorn", "psutil"):  # the 'web' extra, named here first
        require_extra(library, "web", "tessera serve")
    from tessera.web.serve import serve as run_server

    run_server(
        host,
        port,
        open_page,
        searches,
        runs,
        token,
        memory_mb,
        idle,
        review_seconds=review_seconds,
        max_connections=max_connections,
        header_seconds=header_timeout,
        body_seconds=body_timeout,
        write_seconds=write_timeout,
    )
