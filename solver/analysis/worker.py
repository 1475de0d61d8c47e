"""A search process of `tessera analyze`: it runs the jobs it is sent, one at a time.

Messages in: ``("job", Job)``, ``("forget", key)`` (drop a kept tree), ``("clear",)``
(drop them all). Messages out: ``("line", serial, text)`` for a line before the end (a partial answer,
a warning) and ``("final", serial, text, status)`` at the end, the answer as its JSON
line; ``status`` is ``ok``, ``kept`` (its tree is kept under the job's ``keep_key``),
``turn_error`` (this turn failed) or ``query_error`` (the query's position, options or
moves are bad: every turn of it fails alike). The engine asks a job to stop by writing its
serial into the shared ``stop_serial``.
"""

import json
import signal
import traceback

from tessera.analysis.lifetime import die_with_parent
from tessera.analysis.positions import QueryError
from tessera.analysis.searching import error_answer, run_job
from tessera.errors import TesseraError
from tessera.search.mcts import MB


def serve(conn, stop_serial):
    """The process's main loop; ends when the engine closes the connection (or ends)."""
    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the engine decides when to stop
    trees = {}
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        kind = message[0]
        if kind == "job":
            _run(conn, message[1], trees, stop_serial)
        elif kind == "forget":
            trees.pop(message[1], None)
        elif kind == "clear":
            trees.clear()


def _run(conn, job, trees, stop_serial):
    def stopped():
        return stop_serial.value == job.serial

    def send(document):
        # The line is written here, not in the engine, whose one thread writes every answer.
        conn.send(("line", job.serial, json.dumps(document)))

    status = "ok"
    try:
        final, kept = run_job(job, trees, stopped, send)
        status = "kept" if kept else "ok"
    except QueryError as err:
        if err.field == "analyzeTurns":  # this turn only
            final, status = error_answer(job.query_id, err, err.field, turn=job.turn), "turn_error"
        else:  # the query: every turn fails alike
            final, status = error_answer(job.query_id, err, err.field), "query_error"
    except TesseraError as err:
        final, status = error_answer(job.query_id, err, turn=job.turn), "turn_error"
    except MemoryError:
        if job.mcts is not None:
            message = f"not enough memory for the search's {job.mcts.memory / MB:g} MB of trees"
            final = error_answer(job.query_id, message, "memory", turn=job.turn)
        else:
            final = error_answer(job.query_id, "not enough memory for this search", turn=job.turn)
        status = "turn_error"
    except Exception:  # a defect: answered, and the engine goes on
        last = traceback.format_exc().strip().splitlines()[-1]
        final = error_answer(job.query_id, f"internal error: {last}", turn=job.turn)
        status = "turn_error"
    conn.send(("final", job.serial, json.dumps(final), status))
