"""perft and bench: counting the move paths below positions, for the speed and the
correctness of move generation."""

import time

import click

from tessera.bench import BENCH_DEPTH, bench_states
from tessera.cli.printing import rate
from tessera.cli.reading import POSITION_HELP, check_complete, load_position
from tessera.errors import TesseraError


def _check_depth(depth):
    if depth < 0:
        raise TesseraError(f"--depth must be 0 or more, not {depth}")


@click.command(epilog=POSITION_HELP)
@click.argument("pos")
@click.option("--depth", "-d", type=int, required=True, help="plies to count, 0 or more")
@click.option("--divide", is_flag=True, help="also print the count below each root move")
def perft(pos, depth, divide):
    """Count the move paths of --depth plies from POS.

    Perft stops at chance steps: a path that reaches a refill or the end of the game
    counts as one leaf, whatever depth is left, so it measures move generation and
    never the bag.
    """
    from tessera import perft as counting
    from tessera.position import Position

    _check_depth(depth)
    game, state = load_position(pos)
    check_complete(state, "perft")
    position = Position(game, state)
    dividing = divide and depth > 0 and position.to_move is not None  # else no root moves
    counting.ready(position, dividing)  # compile or load before the clock starts
    if dividing:
        start = time.perf_counter()
        counts = counting.divide(position, depth)
        elapsed = time.perf_counter() - start
        for move, nodes in counts:
            click.echo(f"{move}: {nodes}")
        nodes = sum(nodes for _, nodes in counts)
        click.echo()
    else:
        start = time.perf_counter()
        nodes = counting.count(position, depth)
        elapsed = time.perf_counter() - start
    click.echo(f"nodes {nodes}")
    click.echo(f"time {elapsed:.3f} s")
    click.echo(f"nodes/s {rate(nodes, elapsed)}")


@click.command()
@click.option("--depth", "-d", type=int, default=BENCH_DEPTH, show_default=True, help="perft depth")
def bench(depth):
    """Perft on a fixed list of positions (tessera.bench), for speed and correctness.

    Prints nodes and time per position, then the totals and the signature: the total
    node count, the same on every run and machine at a given depth. It changes only
    when move generation (or the seeded sampling that builds the positions) changes.
    """
    from tessera import perft as counting
    from tessera.position import Position

    _check_depth(depth)
    total_nodes, total_time = 0, 0.0
    positions = bench_states()
    width = max(len(label) for label, _ in positions)
    for i, (label, state) in enumerate(positions, 1):
        position = Position.from_state(state)
        counting.ready(position)
        start = time.perf_counter()
        nodes = counting.count(position, depth)
        elapsed = time.perf_counter() - start
        total_nodes += nodes
        total_time += elapsed
        click.echo(f"{i:>2} {label:<{width}} {nodes:>12} nodes {elapsed:>8.3f} s")
    click.echo()
    click.echo(f"depth {depth}")
    click.echo(f"nodes {total_nodes}")
    click.echo(f"time {total_time:.3f} s")
    click.echo(f"nodes/s {rate(total_nodes, total_time)}")
    click.echo(f"signature {total_nodes}")
