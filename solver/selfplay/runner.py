"""A self-play run from its start, or a resume, to its last chunk.

Chunks still to play go to the executor (``workers`` or ``cluster``); each one
that lands is written to chunks/ at once, so Ctrl-C (or a kill) loses only the
chunks in flight, and ``--resume`` plays just the missing ones.
"""

import time
from dataclasses import dataclass

from tessera.cores import available_cores
from tessera.errors import TesseraError
from tessera.selfplay import records, rundir
from tessera.selfplay.chunk import warm_up
from tessera.selfplay.cluster import DaskCluster
from tessera.selfplay.files import WriteError
from tessera.selfplay.stats import Outcomes, summarize
from tessera.selfplay.workers import InProcess, ProcessPool, threads_per_worker

SUMMARY_INTERVAL = 2.0  # seconds: summary.json is rewritten at most this often, and at the end


@dataclass
class RunResult:
    plan: object
    outcomes: Outcomes  # of every finished game, resumed ones included
    played_now: int  # games played by this invocation
    seconds: float  # from the start until the last chunk played here landed
    interrupted: bool

    @property
    def games_done(self):
        return self.outcomes.games


def choose_executor(workers, cluster=None, batched=False):
    """A Dask cluster when ``cluster`` is given; else this process (one worker, all cores)
    or a pool of ``workers`` processes sharing the cores. ``workers`` None: one per core,
    or none but this process when every agent is ``batched`` (its threads each play
    whole chunks in the kernel, which needs no worker processes to start or to send
    records back). For the same reason a LocalCluster's workers are threads of this
    process when every agent is batched, processes otherwise."""
    if cluster:
        return DaskCluster(cluster, workers or available_cores(), processes=not batched)
    if workers is None:
        workers = 1 if batched else available_cores()
    if workers == 1:
        return InProcess(available_cores())
    return ProcessPool(workers, threads_per_worker(workers))


def run_selfplay(plan, out_dir, executor, resume=False, progress=None, notice=rundir.warn):
    """Play the chunks of ``plan`` not yet in ``out_dir``; ``progress(done, total, played_now,
    seconds)`` after each chunk; ``notice(line)`` names each damaged chunk played again.
    Ctrl-C ends the run early (``interrupted``). A file that cannot be written (a full
    disk) ends it with a TesseraError: the chunks written stay, and ``resume`` finishes."""
    try:
        return _run(plan, out_dir, executor, resume, progress, notice)
    except WriteError as err:
        kept = len(records.chunk_files(out_dir))
        raise TesseraError(
            f"{err}; the chunks written so far ({kept}) are kept: make room "
            "(or make the folder writable), then add --resume to finish"
        ) from None


def _run(plan, out_dir, executor, resume, progress, notice):
    check = rundir.prepare(out_dir, plan, resume, notice)
    done = check.good
    already = sum(done.values())
    parts = [records.read_outcomes(out_dir, plan.seats)] if done else []
    chunks_done = len(done)
    started = last_summary = time.perf_counter()

    def summary(games):
        rundir.write_summary(out_dir, plan, games.games, chunks_done, summarize(games, plan.labels()))

    def report():
        games = sum(part.games for part in parts)
        progress(games, plan.games, games - already, time.perf_counter() - started)

    summary(Outcomes.concatenate(parts, plan.seats))
    if progress:
        report()
    todo = [chunk for chunk in range(plan.chunks) if chunk not in done]
    landed = {}  # chunk: outcomes, of the chunks played and written here
    playing_ended = started  # when the last chunk landed: stopping workers is not playing
    interrupted = False
    try:
        if todo:
            with executor:  # a cluster that cannot be reached stops the run here
                warm_up(plan)
                rundir.start(out_dir, plan, check.sums)
                for chunk, finished in executor.run(plan, todo):
                    records.write_chunk(out_dir, chunk, finished.data)
                    parts.append(finished.outcomes)
                    landed[chunk] = finished.outcomes
                    chunks_done += 1
                    playing_ended = time.perf_counter()
                    if progress:
                        report()
                    if time.perf_counter() - last_summary >= SUMMARY_INTERVAL:
                        summary(Outcomes.concatenate(parts, plan.seats))
                        last_summary = time.perf_counter()
        else:
            rundir.start(out_dir, plan, check.sums)  # the manifest, of a run from before it
    except KeyboardInterrupt:
        interrupted = True
    if interrupted or done or len(landed) != plan.chunks:
        # The files are the truth: Ctrl-C may land between writing a chunk and counting it.
        chunks_done = len(records.finished_chunks(out_dir))
        outcomes = records.read_outcomes(out_dir, plan.seats)
    else:
        # Every chunk was played and written here: in chunk order, their outcomes are what
        # the files hold (read back, they would cost more than the last chunks took).
        outcomes = Outcomes.concatenate([landed[chunk] for chunk in sorted(landed)], plan.seats)
    summary(outcomes)
    return RunResult(plan, outcomes, outcomes.games - already, playing_ended - started, interrupted)
