"""Game records in Parquet: one file per chunk, written whole or not at all.

Columns (one row per game, seat lists in seat order):

- ``game``: the game's number in the batch; ``seed``: its seed (``Game.new``);
- ``agents``: the spec at each seat; ``seats``: the agent's index in the run's
  ``--agents`` list at each seat; ``agent_seeds``: each seat's agent seed;
- ``moves``: the player moves in order (the game's move codes); ``movers``: the
  seat that made each (chance draws are not recorded: ``solver.agents.GameRecord``
  says how they replay);
- ``scores``, ``payoffs`` (winners share 1); ``winner``: the seat that won alone,
  or -1 when the win is shared; ``length``: the number of player moves.

A chunk is written to a temporary name and renamed, so a file under its final
name is complete: a killed run leaves finished chunks and at most stray
temporary files, which the next start removes.
"""
import os
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from solver.selfplay.stats import Outcomes

CHUNKS = "chunks"
PARTIAL = ".partial"
SCHEMA = pa.schema([
    ("game", pa.int64()), ("seed", pa.int64()),
    ("agents", pa.list_(pa.string())), ("seats", pa.list_(pa.int8())),
    ("agent_seeds", pa.list_(pa.int64())),
    ("moves", pa.list_(pa.int64())), ("movers", pa.list_(pa.int8())),
    ("scores", pa.list_(pa.int64())), ("payoffs", pa.list_(pa.float64())),
    ("winner", pa.int8()), ("length", pa.int32()),
])
OUTCOME_COLUMNS = ["seats", "scores", "payoffs", "length"]


def chunk_table(indices, seeds, specs, lineups, agent_seeds, moves, movers, scores, payoffs):
    """The records of one chunk. ``lineups``, ``agent_seeds``, ``scores`` and ``payoffs`` are
    [games, seats] arrays; ``moves`` and ``movers`` lists of one array per game."""
    games, seats = lineups.shape
    lengths = np.array([len(m) for m in moves], np.int64)
    sole = (np.abs(payoffs - 1) < 1e-9)
    winner = np.where(sole.any(axis=1), sole.argmax(axis=1), -1)
    columns = {
        "game": pa.array(np.asarray(indices, np.int64)),
        "seed": pa.array(np.asarray(seeds, np.int64)),
        "agents": _fixed_lists(np.asarray(specs, object)[lineups].ravel(), games, seats,
                               pa.string()),
        "seats": _fixed_lists(lineups.astype(np.int8).ravel(), games, seats, pa.int8()),
        "agent_seeds": _fixed_lists(agent_seeds.astype(np.int64).ravel(), games, seats,
                                    pa.int64()),
        "moves": _ragged_lists(moves, lengths, np.int64, pa.int64()),
        "movers": _ragged_lists(movers, lengths, np.int8, pa.int8()),
        "scores": _fixed_lists(scores.astype(np.int64).ravel(), games, seats, pa.int64()),
        "payoffs": _fixed_lists(payoffs.astype(np.float64).ravel(), games, seats, pa.float64()),
        "winner": pa.array(winner.astype(np.int8)),
        "length": pa.array(lengths.astype(np.int32)),
    }
    return pa.table(columns, schema=SCHEMA)


def _fixed_lists(values, games, seats, kind):
    offsets = pa.array(np.arange(0, games * seats + 1, seats, dtype=np.int32))
    return pa.ListArray.from_arrays(offsets, pa.array(values, type=kind))


def _ragged_lists(arrays, lengths, dtype, kind):
    offsets = pa.array(np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32))
    values = np.concatenate(arrays).astype(dtype) if len(arrays) else np.zeros(0, dtype)
    return pa.ListArray.from_arrays(offsets, pa.array(values, type=kind))


# ---- files ---------------------------------------------------------------------------

def chunk_path(out_dir, chunk):
    return Path(out_dir) / CHUNKS / f"chunk-{chunk:06d}.parquet"


def write_chunk(out_dir, chunk, table):
    """Write ``table`` as chunk ``chunk`` of ``out_dir``, atomically."""
    final = chunk_path(out_dir, chunk)
    partial = final.with_name(final.name + PARTIAL)
    pq.write_table(table, partial)
    os.replace(partial, final)


def finished_chunks(out_dir):
    """{chunk number: rows} of the chunk files present."""
    found = {}
    for path in sorted((Path(out_dir) / CHUNKS).glob("chunk-*.parquet")):
        found[int(path.stem.split("-")[1])] = pq.read_metadata(path).num_rows
    return found


def remove_partial_chunks(out_dir):
    for path in (Path(out_dir) / CHUNKS).glob(f"*{PARTIAL}"):
        path.unlink()


def read_records(out_dir, columns=None):
    """Every finished chunk's records, in game order, as one table."""
    paths = sorted((Path(out_dir) / CHUNKS).glob("chunk-*.parquet"))
    if not paths:
        return SCHEMA.empty_table() if columns is None else \
            pa.schema([SCHEMA.field(name) for name in columns]).empty_table()
    return pa.concat_tables([pq.read_table(path, columns=columns) for path in paths])


def outcomes_of(table, seats):
    """The ``stats.Outcomes`` of a records table (which needs only the outcome columns)."""
    def matrix(name, dtype):
        flat = table.column(name).combine_chunks().flatten().to_numpy(zero_copy_only=False)
        return flat.astype(dtype).reshape(-1, seats)
    return Outcomes(seats=matrix("seats", np.int64), scores=matrix("scores", np.int64),
                    payoffs=matrix("payoffs", np.float64),
                    lengths=table.column("length").to_numpy().astype(np.int64))


def read_outcomes(out_dir, seats):
    return outcomes_of(read_records(out_dir, OUTCOME_COLUMNS), seats)
