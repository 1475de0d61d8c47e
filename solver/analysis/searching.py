"""One turn's search inside a search process, and its answers.

MCTS runs in slices of ``reportDuringSearchEvery`` seconds: after each slice the tree
so far is reported (``isDuringSearch: true``) and the next slice grows the same tree
(``Mcts`` keeps it for a search of the same position). A terminate request is seen
between two numba batches (about 0.1 s): the progress callback raises ``StopRequested``,
which the search loop treats as Ctrl-C, so the answer is the tree so far with
``interrupted: true``. Alpha-beta and solve have no such hook inside an iteration; the
engine stops them by replacing their process (``pool``).
"""
from dataclasses import dataclass, replace
from typing import Optional

from kernels import games
from solver.games import get_game
from solver.search.ismcts import Ismcts
from solver.search.mcts import Mcts, MctsOptions
from solver.search.report import search_report


class StopRequested(KeyboardInterrupt):
    """Raised in a search's progress callback: the search loop ends as on Ctrl-C."""


@dataclass
class Job:
    """One turn of a query, as sent to a search process."""
    serial: int                     # the engine's number for it, unique
    query_id: str
    turn: int
    game: str
    state: object
    algo: str
    settings: dict
    mcts: Optional[MctsOptions]
    report_every: Optional[float]
    top_moves: Optional[int]
    reuse_key: Optional[int] = None     # a kept tree to continue, after playing reuse_moves
    reuse_moves: tuple = ()
    keep_key: Optional[int] = None      # keep this search's tree under this key
    keep_root: Optional[tuple] = None   # (the engine's side) how the kept tree is indexed


def run_job(job, trees, stopped, send_partial):
    """The final answer of ``job``; ``send_partial(answer)`` for answers during the search.

    ``trees`` are the MCTS searchers kept for reuse, by key; ``stopped()`` is true once
    the engine asked this job to stop.
    """
    game = get_game(job.game)

    def progress(done, total, seconds):
        if stopped():
            raise StopRequested

    if job.algo == "mcts" and games.is_complete(job.state):
        searcher = _mcts_searcher(job, trees)
        result = _sliced_search(searcher, job, progress, lambda partial: send_partial(
            answer(job, game, partial, during=True)))
        if job.keep_key is not None:
            trees[job.keep_key] = searcher
    elif job.algo == "mcts":
        result = Ismcts(replace(job.mcts)).search(job.state, progress)
    else:
        result = _alphabeta(job)
    return answer(job, game, result, during=False)


def _mcts_searcher(job, trees):
    searcher = trees.pop(job.reuse_key, None) if job.reuse_key is not None else None
    if searcher is None:
        return Mcts(replace(job.mcts))
    for move in job.reuse_moves:
        searcher.play(move)                 # an unknown move drops the tree: a fresh search
    return searcher


def _sliced_search(searcher, job, progress, report):
    """Search to the job's budget, calling ``report(result)`` after each slice but the last."""
    budget_visits, budget_time = job.mcts.iterations, job.mcts.time_limit
    visits, seconds, reused = 0, 0.0, None
    per_thread = 0                          # a budget of visits counts per search thread
    while True:
        slice_time = budget_time - seconds if budget_time is not None else None
        if job.report_every is not None:
            slice_time = job.report_every if slice_time is None else min(slice_time, job.report_every)
        searcher.options.iterations = None if budget_visits is None else budget_visits - per_thread
        searcher.options.time_limit = slice_time
        result = searcher.search(job.state, progress)
        reused = result.reused_visits if reused is None else reused
        visits += result.visits
        per_thread += result.visits // job.mcts.threads
        seconds += result.seconds
        result.visits, result.seconds, result.reused_visits = visits, seconds, reused
        if (result.interrupted or (budget_visits is not None and per_thread >= budget_visits)
                or (budget_time is not None and seconds >= budget_time)):
            return result
        report(result)


def _alphabeta(job):
    from solver.search.alphabeta import search_alphabeta, solve
    time_limit = job.settings["time"]
    if job.algo == "solve":
        return solve(job.state, time_limit=time_limit)
    return search_alphabeta(job.state, depth=job.settings["depth"], time_limit=time_limit)


def answer(job, game, result, during):
    """The answer document: `tessera best --json`'s fields and the query's id and turn."""
    settings = dict(job.settings)
    if job.algo != "mcts":
        from solver.search.alphabeta import search_mode
        settings["mode"] = search_mode(job.state)
    report = search_report("analyze", game, job.state, result, settings, result.interrupted)
    if job.top_moves is not None:
        report["moves"] = report["moves"][:job.top_moves]
    return {"id": job.query_id, "turn": job.turn, "isDuringSearch": during,
            "reusedVisits": result.reused_visits, **report}


def error_answer(query_id, message, field=None, turn=None):
    """``{"id", "error", "field"}``, with the turn when one turn of a query fails."""
    document = {"id": query_id}
    if turn is not None:
        document["turn"] = turn
    document.update(error=" ".join(str(message).split()), field=field)
    return document
