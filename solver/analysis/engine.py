"""The loop of `tessera analyze`: read queries, hand their turns to idle search processes,
write answers as they come (docs/analyze.md).

Three threads: the reader parses each line and queues its jobs (one per turn); the
collector reads the search processes' pipes, writes their answers and hands the next
queued job to the process that became idle; the main thread waits for the end of
input (then every queued query is finished) or SIGTERM/SIGINT (then running searches
stop with what they have and queued ones are answered with an error).

Tree reuse: the tree of every finished MCTS search is kept in its process (``KEEP``
per process) and indexed here by its query's start and the moves played from it. A
job with the same start whose moves are those of a kept tree and at most
``MAX_REUSE_MOVES`` more goes to that process if it is idle, and continues that tree
(the process checks that the tree's root is the position the moves led to).

A bad position, option or move is found by the search process that takes the query's
first turn; the engine writes that error once and drops the query's other turns.
"""

import itertools
import json
import signal
import sys
import threading
import traceback
from collections import deque
from multiprocessing import connection

from tessera.analysis.jsonline import leading_id
from tessera.analysis.lines import MAX_LINE_BYTES, LongLine, read_lines
from tessera.analysis.pool import Pool, SearchProcess
from tessera.analysis.protocol import Control, LineError, parse_query
from tessera.analysis.searching import Job, error_answer

KEEP = 4  # trees kept per search process
MAX_REUSE_MOVES = 8
PROTOCOL_VERSION = 1
POLL_SECONDS = 0.1
STOP_TIMEOUT = 10.0  # seconds running searches get to answer on SIGTERM


class Engine:
    def __init__(self, threads, out, warm=()):
        self.out = out
        self.out_lock = threading.Lock()
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)  # a job finished or a process went
        self.pool = Pool(threads, warm)
        self.pending = deque()
        self.serials = itertools.count(1)
        self.open_queries = {}  # query serial -> its turns not answered yet
        self.failed_queries = set()  # query serials answered with an error
        self.tree_keys = itertools.count(1)
        self.kept = {}  # (start, moves, tree shape) -> (key, process index)
        self.stopping = False
        self.closing = False
        self.collector = threading.Thread(target=self._collect, name="collector", daemon=True)
        self.collector.start()

    # ---- input ------------------------------------------------------------------------

    def handle_line(self, line):
        """Answer one input line (bytes, or text): a line of spaces only is skipped."""
        if not line.strip():
            return
        try:
            query = parse_query(line)
        except LineError as err:
            self.emit(error_answer(err.query_id, err.error, err.error.field))
            return
        except Exception:  # a defect: the line is still answered
            traceback.print_exc()
            self.emit(error_answer(None, "internal error reading this line"))
            return
        for field, message in query.warnings:
            self.emit({"id": query.id, "warning": message, "field": field})
        if isinstance(query, Control):
            self._control(query)
            return
        with self.lock:
            if self.stopping:
                self.emit(error_answer(query.id, "the engine is stopping"))
                return
            query_serial = next(self.serials)
            self.open_queries[query_serial] = len(query.turns)
            for turn in query.turns:
                job = Job(
                    next(self.serials),
                    query_serial,
                    query.id,
                    turn,
                    query.source,
                    query.algo,
                    query.settings,
                    query.mcts,
                    query.report_every,
                    query.top_moves,
                )
                if job.algo == "mcts":
                    job.keep_root = (query.start_key, tuple(query.source.get("moves", [])[:turn]), _tree_shape(job))
                self.pending.append(job)
            self._dispatch()

    def handle_long_line(self, line, limit):
        """Answer a line longer than ``limit`` bytes, which is not read."""
        self.emit(
            error_answer(
                leading_id(line.prefix),
                f"the line is {line.length:,} bytes long; "
                f"at most {limit:,} are read (tessera analyze --max-line-bytes)",
            )
        )

    def _control(self, control):
        if control.action == "query_version":
            from tessera import __version__

            self.emit(
                {"id": control.id, "action": control.action, "version": __version__, "protocol": PROTOCOL_VERSION}
            )
        elif control.action == "clear_cache":
            with self.lock:
                self.kept.clear()
                for process in self.pool.processes:
                    process.trees.clear()
                    _send(process, ("clear",))
            self.emit({"id": control.id, "action": control.action})
        else:
            self.emit({"id": control.id, "action": control.action, "terminateId": control.terminate_id})
            self._stop_jobs(lambda job: job.query_id == control.terminate_id, "terminated before its search started")

    def _stop_jobs(self, matches, unstarted_reason):
        """Queued jobs that match are answered with an error; running ones are stopped."""
        with self.lock:
            for job in [job for job in self.pending if matches(job)]:
                self.pending.remove(job)
                self._answer_error(job, unstarted_reason)
            for process in self.pool.processes:
                if process.job is None or not matches(process.job):
                    continue
                if process.job.algo == "mcts":
                    process.stop_job()
                else:
                    process.kill_reason = "terminated: an alpha-beta or solve search has no result before it ends"
                    process.process.kill()  # the collector answers and replaces it

    def _done(self, job):
        """One turn less of its query to wait for (call with the lock held)."""
        self.open_queries[job.query_serial] -= 1
        if not self.open_queries[job.query_serial]:
            del self.open_queries[job.query_serial]
            self.failed_queries.discard(job.query_serial)

    # ---- dispatch ---------------------------------------------------------------------

    def _dispatch(self):
        """Hand queued jobs to idle processes (call with the lock held)."""
        while self.pending:
            idle = [p for p in self.pool.processes if p.job is None and p.alive]
            if not idle:
                return
            job = self.pending.popleft()
            process = self._place(job, idle)
            process.job = job
            process.kill_reason = None
            _send(process, ("job", job))

    def _place(self, job, idle):
        """The process for ``job``: one keeping a tree it can continue, else the first idle."""
        if job.algo != "mcts":
            return idle[0]
        job.keep_key = next(self.tree_keys)
        start, path, shape = job.keep_root
        for back in range(min(len(path), MAX_REUSE_MOVES) + 1):
            found = self.kept.get((start, path[: len(path) - back], shape))
            if found is None:
                continue
            key, index = found
            process = self.pool.processes[index]
            if process in idle:
                self._forget(key)
                job.reuse_key, job.reuse_moves = key, back
                return process
        return idle[0]

    def _keep(self, process, job):
        """Index the tree ``process`` kept from ``job``; the oldest beyond KEEP go."""
        old = self.kept.get(job.keep_root)
        if old is not None:
            self._forget(old[0], tell=True)
        self.kept[job.keep_root] = (job.keep_key, process.index)
        process.trees.append(job.keep_key)
        while len(process.trees) > KEEP:
            self._forget(process.trees[0], tell=True)

    def _forget(self, key, tell=False):
        for root, (kept_key, index) in list(self.kept.items()):
            if kept_key == key:
                del self.kept[root]
                process = self.pool.processes[index]
                if key in process.trees:
                    process.trees.remove(key)
                if tell:
                    _send(process, ("forget", key))

    # ---- answers ----------------------------------------------------------------------

    def _collect(self):
        while not self.closing:
            with self.lock:
                readers = {p.conn: p for p in self.pool.processes if p.alive}
            for conn in connection.wait(list(readers), timeout=POLL_SECONDS):
                try:
                    self._receive(readers[conn])
                except Exception:  # a defect here must not silence every later answer
                    traceback.print_exc()

    def _receive(self, process):
        try:
            message = process.conn.recv()
        except (EOFError, OSError):
            self._lost(process)
            return
        kind, serial, line = message[:3]
        with self.lock:
            job = process.job
            if job is None or job.serial != serial:
                return
            failed_before = job.query_serial in self.failed_queries
            if kind == "line":
                if not failed_before:
                    self.write(line)
                return
            status = message[3]
            process.job = None
            if not failed_before:
                self.write(line)
            if status == "query_error":
                self._fail_query(job.query_serial)
            elif status == "kept":
                self._keep(process, job)
            self._done(job)
            self._dispatch()
            self.changed.notify_all()

    def _fail_query(self, query_serial):
        """The query's position or moves are bad: its other turns are dropped unanswered."""
        self.failed_queries.add(query_serial)
        for job in [job for job in self.pending if job.query_serial == query_serial]:
            self.pending.remove(job)
            self._done(job)
        for process in self.pool.processes:
            if process.job is not None and process.job.query_serial == query_serial:
                process.stop_job()

    def _lost(self, process):
        """A search process ended (killed to stop its search, or crashed): answer and replace."""
        with self.lock:
            if process.job is not None:
                self._answer_error(process.job, process.kill_reason or "the search process ended unexpectedly")
            for key in list(process.trees):
                self._forget(key)
            process.kill()
            if self.stopping:
                process.alive = False
                process.job = None
            else:
                self.pool.processes[process.index] = SearchProcess(self.pool.context, process.index)
                self._dispatch()
            self.changed.notify_all()

    def _answer_error(self, job, reason):
        """``job`` answered with the error ``reason``, unless an earlier turn of its query
        failed (that error stands for the query), and one turn less to wait for (call with
        the lock held)."""
        if job.query_serial not in self.failed_queries:
            self.emit(error_answer(job.query_id, reason, turn=job.turn))
        self._done(job)

    def emit(self, document):
        self.write(json.dumps(document))

    def write(self, line):
        with self.out_lock:
            try:
                self.out.write(line + "\n")
                self.out.flush()
            except (BrokenPipeError, ValueError):
                pass  # nobody reads the answers any more

    # ---- the end ----------------------------------------------------------------------

    def finish(self):
        """End of input: every queued and running search answers, then the processes end."""
        with self.lock:
            self.changed.wait_for(self._idle)
            self.stopping = True
        self._close()

    def stop(self):
        """SIGTERM: running searches answer with what they have; queued ones with an error.
        A search that has not answered within ``STOP_TIMEOUT`` (one still loading its
        kernels sees no stop until they are loaded) is answered with an error, then killed."""
        with self.lock:
            self.stopping = True
            self._stop_jobs(lambda job: True, "the engine stopped before this search started")
            self.changed.wait_for(self._idle, timeout=STOP_TIMEOUT)
            for process in self.pool.processes:
                job, process.job = process.job, None  # a late answer is dropped
                if job is not None:
                    self._answer_error(
                        job, f"the engine stopped and this search did not answer within {STOP_TIMEOUT:g} s"
                    )
        self._close()

    def _close(self):
        self.closing = True
        self.collector.join()
        self.pool.close()

    def _idle(self):
        return not self.pending and all(p.job is None for p in self.pool.processes)


def _tree_shape(job):
    """What a kept tree must share with a search that continues it."""
    options = job.mcts
    return (
        options.threads,
        options.value,
        options.select,
        options.rollout,
        options.exploration,
        options.fpu,
        options.chance_width,
        options.memory,
        options.max_nodes,
        options.model,
        options.policy_temperature,
    )


def _send(process, message):
    try:
        process.send(message)
    except (BrokenPipeError, OSError):
        pass  # the collector sees the process end


def run(threads, stdin, stdout, warm=(), max_line_bytes=MAX_LINE_BYTES):
    """Serve until the end of ``stdin`` or SIGTERM/SIGINT; the exit status (0). ``warm``:
    the games whose kernels every search process has loaded before the first query;
    a line longer than ``max_line_bytes`` is answered with an error, not read."""
    # While the reader checks a burst of queries, the collector would wait up to the
    # default 5 ms for the GIL before handing a finished process its next job.
    sys.setswitchinterval(0.0005)
    engine = Engine(threads, stdout, warm)
    done = threading.Event()
    signalled = []

    def on_signal(signum, frame):
        signalled.append(signum)
        done.set()

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}

    def read():
        try:
            for line in read_lines(getattr(stdin, "buffer", stdin), max_line_bytes):
                if done.is_set():
                    break
                try:
                    if isinstance(line, LongLine):
                        engine.handle_long_line(line, max_line_bytes)
                    else:
                        engine.handle_line(line)
                except Exception:  # a defect: reported, and the next line is read
                    traceback.print_exc()
        finally:
            done.set()

    threading.Thread(target=read, name="reader", daemon=True).start()
    try:
        while not done.wait(POLL_SECONDS):
            pass
        engine.stop() if signalled else engine.finish()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return 0
