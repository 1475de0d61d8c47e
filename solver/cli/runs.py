"""selfplay and stats: a self-play run (a batch of games between agents, recorded) and its
statistics."""

import json
import secrets

import click

from tessera.cli.progress import games_bar, progress_wanted
from tessera.errors import TesseraError, require_extra
from tessera.games import get_game

FLAG_VALUES = {"yes": True, "true": True, "on": True, "1": True, "no": False, "false": False, "off": False, "0": False}
INTERRUPTED = 130  # exit code of `selfplay` stopped by Ctrl-C (128 + SIGINT)


def _game_options(game, given):
    """``NAME=VALUE`` texts as the game's options, each converted as `tessera new` would."""
    options = {}
    for text in given:
        name, sep, value = text.partition("=")
        if not sep or not name:
            raise TesseraError(f"--option takes NAME=VALUE, not '{text}'")
        game.check_options([name])
        kind = game.options[name][0]
        if kind is bool:
            if value.lower() not in FLAG_VALUES:
                raise TesseraError(f"option {name} is yes or no, not '{value}'")
            options[name] = FLAG_VALUES[value.lower()]
        elif kind is int:
            try:
                options[name] = int(value)
            except ValueError:
                raise TesseraError(f"option {name} takes a whole number, not '{value}'") from None
        else:
            options[name] = value
    return options


@click.command()
@click.argument("game_name", metavar="GAME")
@click.option("--games", "-n", "count", type=int, required=True, help="games in the batch")
@click.option(
    "--agents",
    "-a",
    "agent_list",
    required=True,
    help="comma-separated agent specs, e.g. random,greedy,mcts:iters=1000 "
    "(a bare key=value continues the spec before it)",
)
@click.option("--players", type=int, help="players per game [default: the number of agents; one agent: the game's]")
@click.option("--variant", help="the game's variant, for a game that has variants")
@click.option(
    "--option",
    "game_options",
    multiple=True,
    metavar="NAME=VALUE",
    help="any option of `tessera new GAME`, e.g. gifted=mighty or cosmos=yes (repeatable)",
)
@click.option("--seed", type=int, help="batch seed [default: a random one, kept in run.json]")
@click.option(
    "--workers",
    "-j",
    type=int,
    help="1: this process, on every core; K: K worker processes sharing the cores;"
    " with --cluster local, its Dask workers [default: one per core; 1 with "
    "only random and greedy agents]",
)
@click.option(
    "--cluster", metavar="ADDRESS|local", help="run the chunks on the Dask scheduler at ADDRESS, or on a LocalCluster"
)
@click.option(
    "--chunk-size",
    type=int,
    help="games per chunk: one task, written as one file [default: 2000 with only "
    "random and greedy agents, else 250; on --resume, the run's]",
)
@click.option("--out", "-o", "out_dir", required=True, help="directory for the records")
@click.option("--resume", is_flag=True, help="finish the run in --out, playing only what is missing")
@click.option(
    "--record-search/--no-record-search",
    default=None,
    help="record each MCTS move's root statistics (most visited moves, visits, "
    "value) in the records [default: off; on --resume, the run's]",
)
@click.option(
    "--record-top",
    type=int,
    metavar="K",
    help="with --record-search: the most visited root moves recorded per move [default: 16; on --resume, the run's]",
)
@click.option(
    "--progress/--no-progress", default=None, help="a progress bar on stderr [default: when stderr is a terminal]"
)
@click.option("--plots/--no-plots", default=True, show_default=True, help="write the PNG plots into --out at the end")
def selfplay(
    game_name,
    count,
    agent_list,
    players,
    variant,
    game_options,
    seed,
    workers,
    cluster,
    chunk_size,
    out_dir,
    resume,
    record_search,
    record_top,
    progress,
    plots,
):
    """Play a batch of GAME between agents, seats rotating, records to --out as Parquet.

    Random and greedy games run batched in numba; search agents (mcts, alphabeta)
    one game at a time in the worker processes. Ctrl-C keeps every finished chunk
    (exit code 130); --resume completes the batch. At the end the statistics of
    `tessera stats` are printed. docs/selfplay.md describes records and numbers.
    """
    _require_selfplay("tessera selfplay", plots)
    if cluster is not None:
        require_extra("distributed", "cluster", "tessera selfplay --cluster")
    from tessera.selfplay.chunk import all_batched
    from tessera.selfplay.plan import make_plan, split_agents
    from tessera.selfplay.rundir import stored_plan
    from tessera.selfplay.runner import choose_executor, run_selfplay

    game = get_game(game_name)
    agents = split_agents(agent_list)
    options = _game_options(game, game_options)
    if players is not None and options.get("players", players) != players:
        raise TesseraError(f"--players {players} and --option players={options['players']} disagree")
    if players is not None:
        options["players"] = players
    elif "players" in game.options and "players" not in options and len(agents) > 1:
        options["players"] = len(agents)  # one seat per agent unless told otherwise
    if variant is not None:
        options["variant"] = variant
    if workers is not None and workers < 1:
        raise TesseraError(f"--workers must be at least 1, not {workers}")
    if workers is not None and cluster not in (None, "local"):
        raise TesseraError("--workers is for this machine or --cluster local; a Dask scheduler brings its own workers")
    stored = stored_plan(out_dir) if resume else None
    if seed is None:
        seed = stored.seed if stored else secrets.randbelow(2**31)
    if chunk_size is None and stored:
        chunk_size = stored.chunk_size
    plan = make_plan(
        game, options, agents, count, seed, chunk_size, _search_recording(record_search, record_top, stored)
    )
    executor = choose_executor(workers, cluster, all_batched(plan.agents))
    with games_bar(progress_wanted(progress), plan.games) as show:
        result = run_selfplay(plan, out_dir, executor, resume=resume, progress=show)
    _print_selfplay_stats(out_dir, plan, result.outcomes, as_json=False, plots=plots)
    rate = result.played_now / result.seconds if result.seconds > 0 else 0.0
    click.echo(
        f"{result.played_now:,} games played in {result.seconds:.1f} s "
        f"({rate:,.0f} games/s); {result.games_done:,} of {plan.games:,} in {out_dir}",
        err=True,
    )
    if result.interrupted:
        click.echo("interrupted: every finished chunk is kept; add --resume to finish", err=True)
        click.get_current_context().exit(INTERRUPTED)


def _search_recording(record_search, record_top, stored):
    """The plan's ``record_search`` (root moves kept per searched move, 0: off) from the
    flags, the ``stored`` run's where a flag is not given."""
    from tessera.selfplay.searchstats import DEFAULT_TOP

    if record_top is not None and not record_search:
        raise TesseraError("--record-top goes with --record-search")
    if record_top is not None and record_top < 1:
        raise TesseraError(f"--record-top must be at least 1, not {record_top}")
    kept = stored.record_search if stored else 0
    if record_search is None:
        return kept
    if not record_search:
        return 0
    return record_top or kept or DEFAULT_TOP


@click.command()
@click.argument("out_dir", metavar="DIR")
@click.option("--json", "as_json", is_flag=True, help="print the statistics as JSON")
@click.option("--plots/--no-plots", default=True, show_default=True, help="write the PNG plots into DIR")
def stats(out_dir, as_json, plots):
    """The statistics of the self-play records in DIR (a --out of `tessera selfplay`).

    Wins, draws and losses per agent with Wilson 95% intervals, Bradley–Terry Elo
    ± 95%, score margins, seat advantage and game lengths; plots go to DIR.
    """
    _require_selfplay("tessera stats", plots)
    from tessera.selfplay.rundir import checked_outcomes, load_plan

    plan = load_plan(out_dir)
    _print_selfplay_stats(out_dir, plan, checked_outcomes(out_dir, plan), as_json, plots)


def _require_selfplay(command, plots):
    """``MissingExtra`` before anything is done when the ``selfplay`` extra is not installed:
    pyarrow for the records, and matplotlib unless --no-plots."""
    require_extra("pyarrow", "selfplay", command)
    if plots:
        require_extra("matplotlib", "selfplay", command)


def _print_selfplay_stats(out_dir, plan, outcomes, as_json, plots):
    """The report (or JSON) on stdout; the plots, or one line on stderr saying why not."""
    from tessera.selfplay.files import WriteError
    from tessera.selfplay.plots import write_plots
    from tessera.selfplay.report import format_report
    from tessera.selfplay.stats import summarize

    summary = summarize(outcomes, plan.labels())
    if plots and outcomes.games:
        try:
            write_plots(out_dir, outcomes, plan.labels(), summary)
        except WriteError as err:
            click.echo(f"warning: the plots were not written: {err}", err=True)
    if as_json:
        click.echo(json.dumps(summary))
        return
    options = " ".join(f"{name} {value}" for name, value in plan.options.items())
    title = (
        f"{plan.game} {options} · {outcomes.games:,} of {plan.games:,} games · "
        f"seed {plan.seed} · agents {', '.join(plan.labels())}"
    )
    click.echo("\n".join(format_report(summary, title)))
