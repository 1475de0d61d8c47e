"""The run directory: run.json (the plan), chunks/ (the records), chunks.sha256 (their
checksums, ``checksums``) and summary.json.

run.json is written once when a run starts; a resume must give the same plan
(else an error names each difference), and plays again the chunks found damaged.
summary.json is rewritten, atomically, as chunks land (``runner.SUMMARY_INTERVAL``)
and at the end.
"""

import json
import sys
import tempfile
from pathlib import Path

from tessera.errors import TesseraError
from tessera.selfplay import checksums, records
from tessera.selfplay.files import write_atomically
from tessera.selfplay.plan import Plan

RUN_FILE = "run.json"
SUMMARY_FILE = "summary.json"


def write_json(path, obj):
    """Write ``obj`` to ``path`` atomically: readers see the old file or the new one."""
    write_atomically(path, (json.dumps(obj, indent=2) + "\n").encode("utf-8"))


def stored_plan(out_dir):
    """The plan in ``out_dir``/run.json, or None when there is none."""
    path = Path(out_dir) / RUN_FILE
    if not path.exists():
        return None
    try:
        return Plan.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError) as err:
        raise TesseraError(f"{path} is not a self-play run file ({err})") from None


def load_plan(out_dir):
    plan = stored_plan(out_dir)
    if plan is None:
        raise TesseraError(f"no self-play run in {out_dir} (no {RUN_FILE})")
    return plan


def warn(line):
    """One line on stderr (looked up now: a progress bar may stand in front of it)."""
    print(f"warning: {line}", file=sys.stderr, flush=True)


def prepare(out_dir, plan, resume, notice=warn):
    """Check that ``out_dir`` can take ``plan``; returns the ``records.ChunkCheck`` of the
    chunks done (``good``: {chunk: rows}; ``sums``: their checksums, for ``start``).

    Raises TesseraError when the directory cannot be written, holds another run,
    or holds this one without ``resume``. Writes nothing but the directories; on
    ``resume`` it removes the chunks that are damaged (``records.check_chunks``), each
    named through ``notice``, so that they are played again.
    """
    out_dir = Path(out_dir)
    try:
        (out_dir / records.CHUNKS).mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out_dir):
            pass
    except OSError as err:
        raise TesseraError(f"cannot write to {out_dir}: {err.strerror or err}") from None
    stored = stored_plan(out_dir)
    if stored is None:
        if records.chunk_files(out_dir):
            raise TesseraError(f"{out_dir} holds chunks but no {RUN_FILE}: choose another --out")
        return records.ChunkCheck({}, {}, {}, [])
    check = records.check_chunks(out_dir)
    if not resume:
        games = sum(check.good.values())
        raise TesseraError(
            f"{out_dir} already holds a run ({games} of {stored.games} games): "
            "add --resume to finish it, or choose another --out"
        )
    differences = stored.differences(plan)
    if differences:
        raise TesseraError(f"cannot resume {out_dir}: it holds a different run ({'; '.join(differences)})")
    for chunk, rows in check.good.items():
        if chunk >= plan.chunks or rows != len(plan.chunk_games(chunk)):
            raise TesseraError(
                f"{records.chunk_path(out_dir, chunk)} does not belong to this run: remove it to play that chunk again"
            )
    for damage in check.damaged.values():
        notice(f"{damage}: playing it again")
        try:
            damage.path.unlink()
        except OSError as err:
            raise TesseraError(f"cannot remove {damage.path}: {err.strerror or err}") from None
    return check


def start(out_dir, plan, sums):
    """Record ``plan`` in run.json (once), clear what a killed run left half-written, and
    make the manifest the checksums ``sums`` ({chunk: SHA-256}) of the chunks kept."""
    if not (Path(out_dir) / RUN_FILE).exists():
        write_json(Path(out_dir) / RUN_FILE, plan.to_json())
    records.remove_partial_chunks(out_dir)
    checksums.rewrite(out_dir, {records.chunk_name(chunk): sums[chunk] for chunk in sums})


def checked_outcomes(out_dir, plan):
    """The outcomes of the chunks of ``out_dir``, every chunk checked: TesseraError naming
    the first damaged one and the command that plays it again."""
    try:
        return records.read_outcomes(out_dir, plan.seats)
    except records.DamagedChunk as damage:
        raise TesseraError(f"{damage}: `{plan.resume_command(out_dir)}` plays it again") from None


def write_summary(out_dir, plan, games_done, chunks_done, stats):
    write_json(
        Path(out_dir) / SUMMARY_FILE,
        {
            "run": plan.to_json(),
            "games_done": games_done,
            "games_total": plan.games,
            "chunks_done": chunks_done,
            "chunks_total": plan.chunks,
            "complete": games_done == plan.games,
            "stats": stats,
        },
    )
