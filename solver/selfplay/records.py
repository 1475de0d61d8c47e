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
from dataclasses import dataclass
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


@dataclass
class ChunkGames:
    """The games of one chunk as arrays, in game order: ``game``, ``seed``, ``lengths``
    [games]; ``lineups``, ``agent_seeds``, ``scores``, ``payoffs`` [games, seats];
    ``moves`` and ``movers`` every game's player moves one game after another
    (game ``g``'s are the ``lengths[g]`` values after those of the games before it)."""
    game: np.ndarray
    seed: np.ndarray
    lineups: np.ndarray
    agent_seeds: np.ndarray
    lengths: np.ndarray
    moves: np.ndarray
    movers: np.ndarray
    scores: np.ndarray
    payoffs: np.ndarray

    def outcomes(self):
        """The ``stats.Outcomes`` of these games (what ``outcomes_of`` reads from their table)."""
        return Outcomes(seats=self.lineups.astype(np.int64), scores=self.scores.astype(np.int64),
                        payoffs=self.payoffs.astype(np.float64),
                        lengths=self.lengths.astype(np.int64))


def chunk_table(games, specs):
    """The records of ``games`` (a ``ChunkGames``), ``specs`` the run's agent specs; built
    column by column from the arrays, with no Python loop over the games."""
    count, seats = games.lineups.shape
    sole = (np.abs(games.payoffs - 1) < 1e-9)
    winner = np.where(sole.any(axis=1), sole.argmax(axis=1), -1)
    offsets = np.zeros(count + 1, np.int64)
    np.cumsum(games.lengths, out=offsets[1:])
    columns = {
        "game": pa.array(np.asarray(games.game, np.int64)),
        "seed": pa.array(np.asarray(games.seed, np.int64)),
        "agents": _fixed_lists(pa.array(np.asarray(specs, object)[games.lineups].ravel(),
                                        pa.string()), count, seats),
        "seats": _fixed_lists(pa.array(games.lineups.astype(np.int8).ravel()), count, seats),
        "agent_seeds": _fixed_lists(pa.array(games.agent_seeds.astype(np.int64).ravel()),
                                    count, seats),
        "moves": _ragged_lists(offsets, pa.array(games.moves.astype(np.int64, copy=False))),
        "movers": _ragged_lists(offsets, pa.array(games.movers.astype(np.int8, copy=False))),
        "scores": _fixed_lists(pa.array(games.scores.astype(np.int64).ravel()), count, seats),
        "payoffs": _fixed_lists(pa.array(games.payoffs.astype(np.float64).ravel()), count,
                                seats),
        "winner": pa.array(winner.astype(np.int8)),
        "length": pa.array(games.lengths.astype(np.int32)),
    }
    return pa.table(columns, schema=SCHEMA)


def _fixed_lists(values, games, seats):
    offsets = pa.array(np.arange(0, games * seats + 1, seats, dtype=np.int32))
    return pa.ListArray.from_arrays(offsets, values)


def _ragged_lists(offsets, values):
    return pa.ListArray.from_arrays(pa.array(offsets.astype(np.int32)), values)


def encode(table):
    """``table`` as the bytes of a Parquet file (what ``write_chunk`` writes)."""
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    return sink.getvalue().to_pybytes()


# ---- files ---------------------------------------------------------------------------

def chunk_path(out_dir, chunk):
    return Path(out_dir) / CHUNKS / f"chunk-{chunk:06d}.parquet"


def write_chunk(out_dir, chunk, data):
    """Write ``data`` (a Parquet file's bytes, from ``encode``) as chunk ``chunk`` of
    ``out_dir``, atomically."""
    final = chunk_path(out_dir, chunk)
    partial = final.with_name(final.name + PARTIAL)
    partial.write_bytes(data)
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
