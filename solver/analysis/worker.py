"""A search process of `tessera analyze`: it runs the jobs it is sent, one at a time.

Messages in: ``("job", Job)``, ``("forget", key)`` (drop a kept tree), ``("clear",)``
(drop them all). Messages out: ``("partial", serial, line, failed)`` during a search and
``("final", serial, line, failed)`` at its end: the answer as its JSON line, and
whether it is an error. The engine asks a job to stop by writing its
serial into the shared ``stop_serial``.
"""
import json
import signal
import traceback

from solver.analysis.searching import error_answer, run_job
from solver.errors import TesseraError


def serve(conn, stop_serial):
    """The process's main loop; ends when the engine closes the connection."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)        # the engine decides when to stop
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

    def send(kind, document):
        # The line is written here, not in the engine, whose one thread writes every answer.
        conn.send((kind, job.serial, json.dumps(document), "error" in document))

    try:
        final = run_job(job, trees, stopped, lambda partial: send("partial", partial))
    except TesseraError as err:
        final = error_answer(job.query_id, err, turn=job.turn)
    except Exception:                       # a defect: answered, and the engine goes on
        last = traceback.format_exc().strip().splitlines()[-1]
        final = error_answer(job.query_id, f"internal error: {last}", turn=job.turn)
    send("final", final)
