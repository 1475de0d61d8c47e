"""One turn's search inside a search process, and its answers.

MCTS runs in slices of ``reportDuringSearchEvery`` seconds: after each slice the tree
so far is reported (``isDuringSearch: true``) and the next slice grows the same tree
(``Mcts`` keeps it for a search of the same position). A terminate request is seen
between two numba batches (about 0.1 s): the progress callback raises ``StopRequested``,
which the search loop treats as Ctrl-C, so the answer is the tree so far with
``interrupted: true``. Alpha-beta and solve have no such hook inside an iteration; the
engine stops them by replacing their process (``pool``).
"""

import re
from dataclasses import dataclass, replace

from tessera.analysis.positions import QueryError, prepare
from tessera.errors import OptionError
from tessera.search.batches import kept_back
from tessera.search.mcts import MctsOptions
from tessera.search.report import search_report
from tessera.search.request import for_position, searcher_for


class StopRequested(KeyboardInterrupt):
    """Raised in a search's progress callback: the search loop ends as on Ctrl-C."""


@dataclass
class Job:
    """One turn of a query, as sent to a search process."""

    serial: int  # the engine's number for it, unique
    query_serial: int  # the engine's number for its query
    query_id: str
    turn: int
    source: dict  # the query's position or game, options, startSeed, moves
    algo: str
    settings: dict
    mcts: MctsOptions | None
    report_every: float | None
    top_moves: int | None
    reuse_key: int | None = None  # a kept tree to continue, after the last
    reuse_moves: int = 0  # reuse_moves moves of the turn
    keep_key: int | None = None  # keep this search's tree under this key
    keep_root: tuple | None = None  # (the engine's side) how the kept tree is indexed


def run_job(job, trees, stopped, send):
    """(the final answer of ``job``, whether its tree was kept under ``job.keep_key``).

    ``send(document)`` writes a line before the final answer: a partial answer, or a
    warning. ``trees`` are the MCTS searchers kept for reuse, by key; ``stopped()`` is
    true once the engine asked this job to stop. Raises QueryError for a bad position,
    move or turn.
    """
    game, state, line = prepare(job.source, job.turn)

    def progress(done, total, seconds):
        if stopped():
            raise StopRequested

    kept = False
    if job.algo == "mcts":
        _check_model(job.mcts, state)
        searcher = searcher_for(replace(job.mcts), state)
        if searcher.keeps_tree:
            searcher = _kept_searcher(job, trees, line) or searcher
            result = _sliced_search(
                searcher, job, state, progress, lambda partial: send(answer(job, game, state, partial, during=True))
            )
            if job.keep_key is not None:
                trees[job.keep_key] = searcher
                kept = True
        else:
            if job.report_every is not None:
                send(
                    {
                        "id": job.query_id,
                        "warning": "information-set MCTS on a view gives only its final answer",
                        "field": "reportDuringSearchEvery",
                    }
                )
            result = searcher.search(state, progress)
    else:
        result = _alphabeta(job, state)
    return answer(job, game, state, result, during=False), kept


def _check_model(options, state):
    """QueryError for a value model the game of ``state`` cannot take (field ``model``):
    another game's, or ``builtin`` for a game without one; or for a policy temperature
    without a policy to act on (field ``policyTemperature``)."""
    from tessera.learning.model import ModelError

    try:
        options.kernel_model(state)
    except ModelError as err:
        raise QueryError(str(err), "model") from None
    except OptionError as err:
        raise QueryError(str(err), "policyTemperature") from None


def _kept_searcher(job, trees, line):
    """The kept searcher to continue, its tree moved down the turn's last moves, or None.

    ``line`` holds the player moves that led to the turn since the last chance event; a
    kept tree further back than that (chance between) cannot be followed."""
    searcher = trees.pop(job.reuse_key, None) if job.reuse_key is not None else None
    if searcher is None or job.reuse_moves > len(line):
        return None
    for _, move in line[len(line) - job.reuse_moves :]:
        searcher.play(move)  # an unknown move drops the tree: a fresh search
    return searcher


def _sliced_search(searcher, job, state, progress, report):
    """Search to the job's budget, calling ``report(result)`` after each slice but the last."""
    budget_visits, budget_time = job.mcts.iterations, job.mcts.time_limit
    # What the options leave to the game (the rollout may depend on the budget) is settled
    # by the whole budget, not by a slice's.
    searcher.options = job.mcts.for_position(state)
    visits, seconds, reused = 0, 0.0, None
    while True:
        slice_time = budget_time - seconds if budget_time is not None else None
        if job.report_every is not None:
            slice_time = job.report_every if slice_time is None else min(slice_time, job.report_every)
        searcher.options.iterations = None if budget_visits is None else budget_visits - visits
        searcher.options.time_limit = slice_time
        result = searcher.search(state, progress)
        reused = result.reused_visits if reused is None else reused
        visits += result.visits
        seconds += result.seconds
        result.visits, result.seconds, result.reused_visits = visits, seconds, reused
        if (
            result.interrupted
            or (budget_visits is not None and visits >= budget_visits)
            or (budget_time is not None and seconds >= budget_time - kept_back(budget_time))
        ):
            return result
        report(result)


def _alphabeta(job, state):
    from tessera.search.request import SearchRequest, run_search

    request = SearchRequest(algo=job.algo, time=job.settings["time"], depth=job.settings.get("depth"))
    return run_search(state, request)[0]


def answer(job, game, state, result, during):
    """The answer document: `tessera best --json`'s fields and the query's id and turn."""
    settings = for_position(job.settings, job.algo, state)
    report = search_report("analyze", game, state, result, settings, result.interrupted)
    if job.top_moves is not None:
        report["moves"] = report["moves"][: job.top_moves]
    return {
        "id": job.query_id,
        "turn": job.turn,
        "isDuringSearch": during,
        "reusedVisits": result.reused_visits,
        **report,
    }


MAX_ERROR_CHARS = 300  # an error message quoting a long bad value is cut there
MAX_WORD_CHARS = 80  # a longer run without spaces (a quoted bad value) is cut
_LONG_WORD = re.compile(r"\S{%d,}" % (MAX_WORD_CHARS + 1))


def error_answer(query_id, message, field=None, turn=None):
    """``{"id", "error", "field"}``, with the turn when one turn of a query fails. The
    message is one line of at most ``MAX_ERROR_CHARS``, words of at most ``MAX_WORD_CHARS``:
    a message that quotes a bad value (a game's own errors do) shows only its start."""
    document = {"id": query_id}
    if turn is not None:
        document["turn"] = turn
    text = _LONG_WORD.sub(lambda word: word.group()[: MAX_WORD_CHARS - 1] + "…", " ".join(str(message).split()))
    if len(text) > MAX_ERROR_CHARS:
        text = text[: MAX_ERROR_CHARS - 1] + "…"
    document.update(error=text, field=field)
    return document
