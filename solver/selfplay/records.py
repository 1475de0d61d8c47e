"""Game records in Parquet: one file per chunk, written whole or not at all.

Columns (one row per game, seat lists in seat order):

- ``game``: the game's number in the batch; ``seed``: its seed (``Game.new``);
- ``agents``: the spec at each seat; ``seats``: the agent's index in the run's
  ``--agents`` list at each seat; ``agent_seeds``: each seat's agent seed;
- ``moves``: the player moves in order (the game's move codes); ``movers``: the
  seat that made each (chance draws are not recorded: ``tessera.agents.GameRecord``
  says how they replay);
- ``scores``, ``payoffs`` (winners share 1); ``winner``: the seat that won alone,
  or -1 when the win is shared; ``length``: the number of player moves;
- with ``--record-search`` only (``SEARCH_SCHEMA``), the root statistics of each
  searched move, lined up with ``moves``: ``searchstats`` names them. A run without
  it writes ``SCHEMA`` alone, as runs did before those columns existed.

A chunk is written to a temporary name and renamed, so a file under its final
name is complete: a killed run leaves finished chunks and at most stray
temporary files, which the next start removes. Its SHA-256 goes to the run's
manifest (``checksums``) first; reading a chunk checks it against that, and its
Parquet structure, so a chunk damaged afterwards is named (``DamagedChunk``)
instead of read.

pyarrow is the ``selfplay`` extra's: it is imported where a table is built or read
(``arrow``), not with this module, which the chunks' player imports and `tessera warmup`
with it (that warms the kernels and writes no records). ``SCHEMA``, ``SEARCH_SCHEMA``
and ``RECORD_SCHEMAS`` are built on first use.
"""

from collections import namedtuple
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from tessera.errors import TesseraError, require_extra
from tessera.selfplay import checksums, searchstats
from tessera.selfplay.files import PARTIAL, write_atomically
from tessera.selfplay.stats import Outcomes

CHUNKS = "chunks"
OUTCOME_COLUMNS = ["seats", "scores", "payoffs", "length"]
Schemas = namedtuple("Schemas", ["SCHEMA", "SEARCH_SCHEMA", "RECORD_SCHEMAS"])


def arrow():
    """(pyarrow, pyarrow.parquet), or ``MissingExtra`` naming the ``selfplay`` extra."""
    what = "reading or writing self-play records"
    return (require_extra("pyarrow", "selfplay", what), require_extra("pyarrow.parquet", "selfplay", what))


@cache
def schemas():
    """The records' ``Schemas``: without, and with, the search statistics; both."""
    pa, _ = arrow()
    schema = pa.schema(
        [
            ("game", pa.int64()),
            ("seed", pa.int64()),
            ("agents", pa.list_(pa.string())),
            ("seats", pa.list_(pa.int8())),
            ("agent_seeds", pa.list_(pa.int64())),
            ("moves", pa.list_(pa.int64())),
            ("movers", pa.list_(pa.int8())),
            ("scores", pa.list_(pa.int64())),
            ("payoffs", pa.list_(pa.float64())),
            ("winner", pa.int8()),
            ("length", pa.int32()),
        ]
    )
    search = pa.schema([*schema, *(pa.field(*spec) for spec in searchstats.fields())])
    return Schemas(schema, search, (schema, search))


def __getattr__(name):
    """``SCHEMA``, ``SEARCH_SCHEMA``, ``RECORD_SCHEMAS``: ``schemas()``'s, as constants."""
    if name in Schemas._fields:
        return getattr(schemas(), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass
class ChunkGames:
    """The games of one chunk as arrays, in game order: ``game``, ``seed``, ``lengths``
    [games]; ``lineups``, ``agent_seeds``, ``scores``, ``payoffs`` [games, seats];
    ``moves`` and ``movers`` every game's player moves one game after another
    (game ``g``'s are the ``lengths[g]`` values after those of the games before it);
    ``search`` the ``searchstats.SearchStats`` of those moves, None when not recorded."""

    game: np.ndarray
    seed: np.ndarray
    lineups: np.ndarray
    agent_seeds: np.ndarray
    lengths: np.ndarray
    moves: np.ndarray
    movers: np.ndarray
    scores: np.ndarray
    payoffs: np.ndarray
    search: searchstats.SearchStats | None = None

    def outcomes(self):
        """The ``stats.Outcomes`` of these games (what ``outcomes_of`` reads from their table)."""
        return Outcomes(
            seats=self.lineups.astype(np.int64),
            scores=self.scores.astype(np.int64),
            payoffs=self.payoffs.astype(np.float64),
            lengths=self.lengths.astype(np.int64),
        )


def chunk_table(games, specs):
    """The records of ``games`` (a ``ChunkGames``), ``specs`` the run's agent specs; built
    column by column from the arrays, with no Python loop over the games. With search
    statistics (``games.search``) the table has ``SEARCH_SCHEMA``, else ``SCHEMA``."""
    pa, _ = arrow()
    count, seats = games.lineups.shape
    sole = np.abs(games.payoffs - 1) < 1e-9
    winner = np.where(sole.any(axis=1), sole.argmax(axis=1), -1)
    offsets = np.zeros(count + 1, np.int64)
    np.cumsum(games.lengths, out=offsets[1:])
    columns = {
        "game": pa.array(np.asarray(games.game, np.int64)),
        "seed": pa.array(np.asarray(games.seed, np.int64)),
        "agents": _fixed_lists(pa.array(np.asarray(specs, object)[games.lineups].ravel(), pa.string()), count, seats),
        "seats": _fixed_lists(pa.array(games.lineups.astype(np.int8).ravel()), count, seats),
        "agent_seeds": _fixed_lists(pa.array(games.agent_seeds.astype(np.int64).ravel()), count, seats),
        "moves": _ragged_lists(offsets, pa.array(games.moves.astype(np.int64, copy=False))),
        "movers": _ragged_lists(offsets, pa.array(games.movers.astype(np.int8, copy=False))),
        "scores": _fixed_lists(pa.array(games.scores.astype(np.int64).ravel()), count, seats),
        "payoffs": _fixed_lists(pa.array(games.payoffs.astype(np.float64).ravel()), count, seats),
        "winner": pa.array(winner.astype(np.int8)),
        "length": pa.array(games.lengths.astype(np.int32)),
    }
    if games.search is None:
        return pa.table(columns, schema=schemas().SCHEMA)
    return pa.table({**columns, **games.search.columns(offsets)}, schema=schemas().SEARCH_SCHEMA)


def _fixed_lists(values, games, seats):
    pa, _ = arrow()
    offsets = pa.array(np.arange(0, games * seats + 1, seats, dtype=np.int32))
    return pa.ListArray.from_arrays(offsets, values)


def _ragged_lists(offsets, values):
    pa, _ = arrow()
    return pa.ListArray.from_arrays(pa.array(offsets.astype(np.int32)), values)


def encode(table):
    """``table`` as the bytes of a Parquet file (what ``write_chunk`` writes)."""
    pa, pq = arrow()
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    return sink.getvalue().to_pybytes()


# ---- files ---------------------------------------------------------------------------


class DamagedChunk(TesseraError):
    """A chunk file that is not what was written: cut short, emptied, or changed inside."""

    def __init__(self, path, reason):
        self.path = path
        super().__init__(f"{path} is damaged ({reason})")


@dataclass
class ChunkCheck:
    """What ``check_chunks`` found: ``good`` {chunk: rows} and their ``sums`` {chunk: SHA-256},
    ``damaged`` {chunk: DamagedChunk}, ``unrecorded`` the good chunks without a checksum
    (a run from before checksums were kept), checked by reading them whole."""

    good: dict
    sums: dict
    damaged: dict
    unrecorded: list


def chunk_name(chunk):
    """Chunk ``chunk``'s file, relative to the run folder (as the manifest names it)."""
    return f"{CHUNKS}/chunk-{chunk:06d}.parquet"


def chunk_path(out_dir, chunk):
    return Path(out_dir) / chunk_name(chunk)


def write_chunk(out_dir, chunk, data):
    """Write ``data`` (a Parquet file's bytes, from ``encode``) as chunk ``chunk`` of
    ``out_dir``, atomically, its checksum added to the manifest before the file takes its
    name; ``files.WriteError`` when it cannot be written (nothing is left of it then)."""
    write_atomically(
        chunk_path(out_dir, chunk),
        data,
        before_rename=lambda: checksums.append(out_dir, chunk_name(chunk), checksums.digest(data)),
    )


def chunk_files(out_dir):
    """{chunk number: path} of the chunk files present, in chunk order."""
    found = {}
    for path in sorted((Path(out_dir) / CHUNKS).glob("chunk-*.parquet")):
        number = path.stem.split("-", 1)[1]
        if number.isdigit():
            found[int(number)] = path
    return found


def finished_chunks(out_dir):
    """{chunk number: rows} of the chunk files present (read from their footers only)."""
    _, pq = arrow()
    return {chunk: pq.read_metadata(path).num_rows for chunk, path in chunk_files(out_dir).items()}


def load_chunk(path, expected=None, columns=None):
    """(table, SHA-256) of the chunk file ``path``, checked: its bytes against ``expected``
    (the checksum recorded when it was written; None: none was) and its Parquet structure
    and columns. Without a checksum the file is read whole, whatever ``columns`` asks.
    Raises ``DamagedChunk``."""
    pa, pq = arrow()
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise DamagedChunk(path, f"cannot be read: {err.strerror or err}") from None
    if not data:
        raise DamagedChunk(path, "it is empty")
    digest = checksums.digest(data)
    if expected is not None and digest != expected:
        raise DamagedChunk(path, f"its SHA-256 is not the one recorded in {checksums.MANIFEST} when it was written")
    try:
        table = pq.read_table(pa.BufferReader(data), columns=columns if expected else None)
    except (pa.ArrowException, OSError) as err:
        # pyarrow's first line, less its "Could not open Parquet input source '<Buffer>': "
        reason = (str(err).splitlines() or [type(err).__name__])[0].split("': ", 1)[-1]
        raise DamagedChunk(path, f"not a whole Parquet file: {reason}") from None
    if not _record_columns(table.schema, None if expected is None else columns):
        raise DamagedChunk(path, "its columns are not those of self-play records")
    return (table if columns is None else table.select(columns)), digest


def _record_columns(schema, columns):
    """True when ``schema`` is that of records (``RECORD_SCHEMAS``), or, ``columns`` given,
    of those columns of them."""
    if columns is None:
        return any(schema.equals(kind) for kind in schemas().RECORD_SCHEMAS)
    return schema.equals(_schema_of(columns))


def _schema_of(columns):
    pa, _ = arrow()
    return pa.schema([schemas().SEARCH_SCHEMA.field(name) for name in columns])


def check_chunks(out_dir):
    """Every chunk file of ``out_dir`` checked (``load_chunk``): a ``ChunkCheck``."""
    files = chunk_files(out_dir)
    recorded = checksums.read(out_dir)  # after listing: a listed chunk has its line
    check = ChunkCheck({}, {}, {}, [])
    for chunk, path in files.items():
        expected = None if recorded is None else recorded.get(chunk_name(chunk))
        try:
            table, check.sums[chunk] = load_chunk(path, expected, OUTCOME_COLUMNS)
        except DamagedChunk as err:
            check.damaged[chunk] = err
            continue
        check.good[chunk] = table.num_rows
        if expected is None:
            check.unrecorded.append(chunk)
    return check


def remove_partial_chunks(out_dir):
    for path in (Path(out_dir) / CHUNKS).glob(f"*{PARTIAL}"):
        path.unlink()


def read_records(out_dir, columns=None):
    """Every finished chunk's records, in game order, as one table; each chunk checked
    (``load_chunk``: ``DamagedChunk``), and of the columns of the first (a run's chunks
    all have the search statistics or none have). ``columns`` may name search columns
    only for a run that records them (its plan's ``record_search``)."""
    pa, _ = arrow()
    files = chunk_files(out_dir)
    if not files:
        return (schemas().SCHEMA if columns is None else _schema_of(columns)).empty_table()
    recorded = checksums.read(out_dir) or {}
    tables = []
    for chunk, path in files.items():
        table = load_chunk(path, recorded.get(chunk_name(chunk)), columns)[0]
        if tables and not table.schema.equals(tables[0].schema):
            raise DamagedChunk(path, "its columns are not those of the run's other chunks")
        tables.append(table)
    return pa.concat_tables(tables)


def outcomes_of(table, seats):
    """The ``stats.Outcomes`` of a records table (which needs only the outcome columns)."""

    def matrix(name, dtype):
        flat = table.column(name).combine_chunks().flatten().to_numpy(zero_copy_only=False)
        return flat.astype(dtype).reshape(-1, seats)

    return Outcomes(
        seats=matrix("seats", np.int64),
        scores=matrix("scores", np.int64),
        payoffs=matrix("payoffs", np.float64),
        lengths=table.column("length").to_numpy().astype(np.int64),
    )


def read_outcomes(out_dir, seats):
    return outcomes_of(read_records(out_dir, OUTCOME_COLUMNS), seats)
