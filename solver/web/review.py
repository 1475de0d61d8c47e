"""Game review: the analysis engine searches every position of the game on the page at a
small fixed budget, and each move is marked by what it lost against the best move of its
position (docs/web.md, "Game review").

The page sends its history (each position's text and the move that left it). The
positions are cut into stretches without chance between them; each position is one query
of the analysis engine (its stretch's start, the moves to it and ``analyzeTurns`` naming
it), so chance the page dealt is never drawn again by the engine, and a position's search
may continue the tree of the one before. The positions run one after another as the
page's one search (a new search of the page, its Stop, or its stream's end stops the
review), each within the server's limits: the visits asked (at most ``MAX_VISITS``) or
the hub's ``review_seconds``, whichever ends first. So a review holds one search process
at a time, and takes its turn in the engine's queue like any page's search: another
page's analysis waits for one position's search at most, never for the whole review.
Every answer goes to the page's event stream as a ``review`` event: the positions
searched so far, their win chances, and the moves judged.

The marks, each move's accuracy and each player's counts are plain functions of the
engine's answers (``judge``, ``mark``, ``accuracy``, ``summary``), tested on their own
(tests/test_review.py). Two more routes serve the page's review: a try of "Practise your
mistakes", a move judged in a position of the review by a search of that position (the
page's one search, as each review position is), and a saved review read back, checked
against its schema (docs/review.schema.json) and the rules before the page shows it.
"""

import asyncio
import itertools
import json
import math
import re
import threading
from dataclasses import dataclass, field
from importlib import resources

import jsonschema
from starlette.routing import Route

from tessera.errors import TesseraError
from tessera.games import get_game
from tessera.web import inputs
from tessera.web.documents import BadRequest, read_position
from tessera.web.http import Json, json_body, json_route

# (mark, win share lost, points lost): a move gets the first mark whose win share or points
# it loses at least (the win share as a fraction: 0.20 is 20 percentage points).
THRESHOLDS = (
    ("blunder", 0.20, 10.0),
    ("mistake", 0.10, 5.0),
    ("inaccuracy", 0.05, 2.5),
)
# A played move the search visited fewer times than this is valued by the search of the
# position it led to (its few rollouts say little); the best move is the engine's choice.
MIN_VISITS = 10
DEFAULT_VISITS = 300
MAX_VISITS = 100_000  # per position (the hub's review_seconds bounds its time)
MAX_POSITIONS = 1000  # a query's moves and turns at most (docs/analyze.md)
MAX_SEED = 2**32 - 1  # the MCTS seed's range
TOLERANCE = 1e-9  # a loss computed as 0.0999999 reaches the 0.10 threshold
# A move's accuracy (docs/web.md, "Accuracy"): lichess's curve of the win chance lost, in
# percentage points, a point of margin lost counting as POINT_WEIGHT of them (the ratio of
# every threshold above: 20 to 10, 10 to 5, 5 to 2.5), so a move is marked exactly when
# its accuracy is at most that of a loss of 5 percentage points.
ACCURACY_SCALE = 103.1668
ACCURACY_DECAY = 0.04354
ACCURACY_SHIFT = ACCURACY_SCALE - 100.0  # a move that lost nothing is 100
POINT_WEIGHT = 2.0
MARKS = [name for name, _, _ in THRESHOLDS]
# The saved review's schema: docs/review.schema.json, shipped with the page.
FILE_SCHEMA = json.loads(
    resources.files("tessera.web").joinpath("static").joinpath("review.schema.json").read_text("utf-8")
)
_FILE_VALIDATOR = jsonschema.Draft202012Validator(FILE_SCHEMA)
_serials = itertools.count(1)


# ---- marks: pure functions of the engine's answers ----------------------------------------


def mark(win_lost, points_lost):
    """The mark of a move that lost ``win_lost`` of the mover's win share (0 to 1) and
    ``points_lost`` points of margin against the best move: a THRESHOLDS name or None."""
    for name, win, points in THRESHOLDS:
        if win_lost >= win - TOLERANCE or points_lost >= points - TOLERANCE:
            return name
    return None


def loss_points(win_lost, points_lost):
    """A move's loss in percentage points of win chance, a point of margin counting as
    POINT_WEIGHT of them: the larger of the two."""
    return max(100.0 * win_lost, POINT_WEIGHT * points_lost)


def accuracy(win_lost, points_lost):
    """A move's accuracy, 0 to 100: 103.1668 * exp(-0.04354 * L) - 3.1668, L its
    ``loss_points``, kept within 0 and 100 (100 for a move that lost nothing)."""
    value = ACCURACY_SCALE * math.exp(-ACCURACY_DECAY * loss_points(win_lost, points_lost)) - ACCURACY_SHIFT
    return min(100.0, max(0.0, value))


def summary(moves, players):
    """Each player's figures over the judged ``moves`` (``judge``'s verdicts): ``moves``
    judged, the count of each mark, and ``accuracy``, the mean of the moves' accuracies
    (None for a player without a judged move)."""
    rows = []
    for player in range(1, players + 1):
        own = [m for m in moves if m["player"] == player]
        row = {"player": player, "moves": len(own), **{name: sum(m["mark"] == name for m in own) for name in MARKS}}
        scores = [accuracy(m["lost"]["win"], m["lost"]["points"]) for m in own]
        row["accuracy"] = sum(scores) / len(scores) if scores else None
        rows.append(row)
    return rows


def rounds_of(positions):
    """Where each round after the first starts: ``{"index", "round"}`` for each history
    position whose round differs from the one before (a game without rounds: none)."""
    starts, before = [], None
    if not positions or "round" not in positions[0].to_json():
        return starts
    for index, position in enumerate(positions):
        number = position.to_json().get("round")
        if before is not None and number is not None and number != before:
            starts.append({"index": index, "round": number})
        before = number
    return starts


def value_for(player, mover, players, win, margin):
    """(win share, margin) of ``player`` from a search of ``mover``'s position that valued it
    (``win``, ``margin``) for the mover; None when the answer does not say (more than two
    players: it gives the mover's share only)."""
    if win is None or margin is None:
        return None
    if player == mover:
        return win, margin
    if players == 2:  # the two shares make one; the margins are opposite
        return 1.0 - win, -margin
    return None


def final_values(scores, winners):
    """Each player's (win share, margin) at the game's end: the winners share one win; the
    margin is a player's score less the best score of the others."""
    values = []
    for p, score in enumerate(scores, 1):
        others = [s for q, s in enumerate(scores, 1) if q != p]
        share = 1.0 / len(winners) if p in winners else 0.0
        values.append((share, float(score - max(others)) if others else 0.0))
    return values


def judge(answer, played, after=None):
    """What the move ``played`` (its engine code) lost in the position the search ``answer``
    (docs/analyze.md) is of: the best move's value less the played move's, each the mover's
    (win share, margin) as the answer gives them, never below 0. ``after`` is the mover's
    value of the position the move led to (from its own search, or the game's end), used
    when the answer's figures for the played move rest on fewer than MIN_VISITS visits.
    None when neither values the played move."""
    moves = answer["moves"]
    best = moves[0]
    entry = next((m for m in moves if m["code"] == played), None)
    if entry is None:
        return None
    if entry is best:
        value, source = (best["win_rate"], best["margin"]), "search"
    elif (entry["visits"] >= MIN_VISITS or after is None) and entry["win_rate"] is not None:
        value, source = (entry["win_rate"], entry["margin"]), "search"
    elif after is not None:
        value, source = after, "next position"
    else:
        return None
    if best["win_rate"] is None or value[0] is None:
        return None
    win_lost = max(0.0, best["win_rate"] - value[0])
    points_lost = max(0.0, best["margin"] - value[1])
    return {
        "move": entry["move"],
        "player": answer["player"],
        "best": {"move": best["move"], "win": best["win_rate"], "margin": best["margin"], "visits": best["visits"]},
        "played": {
            "move": entry["move"],
            "win": value[0],
            "margin": value[1],
            "visits": entry["visits"],
            "valued_by": source,
        },
        "lost": {"win": win_lost, "points": points_lost},
        "mark": mark(win_lost, points_lost),
    }


def winners_of(status):
    """The winners named by a finished game's status line (``game over: player 2 wins``,
    ``game over: players 1 and 2 share the win``)."""
    head, _, result = status.partition(":")
    if head != "game over":
        raise ValueError(f"not a finished game's status: {status!r}")
    return [int(number) for number in re.findall(r"\d+", result)]


# ---- the plan: stretches of the game without chance ----------------------------------------


@dataclass
class Stretch:
    """Positions ``start`` .. ``start + len(moves)`` of the history, player moves only
    between them: one query (its first position, its moves, every turn searched)."""

    start: int
    text: str
    moves: list = field(default_factory=list)

    def indices(self):
        return range(self.start, self.start + len(self.moves) + 1)


@dataclass
class Plan:
    game: str
    players: int
    positions: list  # Position of each history entry
    moves: list  # the move text leaving each entry (None for the last)
    codes: list  # its engine code (None for chance outcomes and the last)
    stretches: list
    final: list  # each player's (win share, margin) when the game ended

    def searched(self):
        return sum(len(s.moves) + 1 for s in self.stretches)


def read_history(history):
    """(positions, moves) of the page's history: a list of {"text", "move"}, the move being
    the one that led to the entry (none for the first); BadRequest naming a bad entry."""
    if not isinstance(history, list) or not 1 <= len(history) <= MAX_POSITIONS:
        raise BadRequest(f"history must be a list of 1 to {MAX_POSITIONS} positions, not {inputs.shown(history)}")
    positions, moves = [], []
    for i, entry in enumerate(history):
        if not isinstance(entry, dict):
            raise BadRequest(f"history[{i}] must be an object with text and move, not {inputs.shown(entry)}")
        try:
            position = read_position(entry.get("text"))
        except TesseraError as err:
            raise BadRequest(f"history[{i}]: {err}") from None
        if position.is_view:
            raise BadRequest(f"history[{i}] is a player's view: a review needs complete positions")
        if positions and position.game != positions[0].game:
            raise BadRequest(f"history[{i}] is a position of {position.game}, not {positions[0].game}")
        move = entry.get("move")
        if i and (not isinstance(move, str) or not move):
            raise BadRequest(f"history[{i}].move must be the text of the move that led there, not {inputs.shown(move)}")
        positions.append(position)
        if i:
            moves.append(move)
    return positions, moves + [None]


def plan_review(history):
    """The Plan of a review of ``history`` (the page's). A position where a player acts is
    searched; it joins the stretch of the position before it when that one's move leads
    to it with no chance between. BadRequest when a move is not legal where it is played."""
    positions, moves = read_history(history)
    codes, stretches, current = [], [], None
    for i, position in enumerate(positions):
        before = positions[i - 1] if i else None
        searchable = not position.is_over and not position.is_chance
        continues = False
        if before is not None and not before.is_chance:
            continues = before.play_codes(codes[i - 1]) == position
        if not searchable:
            current = None
        elif continues and current is not None:
            current.moves.append(moves[i - 1])
        else:
            current = Stretch(i, position.text())
            stretches.append(current)
        codes.append(_code(position, moves[i], i + 1))
    if not stretches:
        raise BadRequest("nothing to review: no player acts in any position of this game")
    last = positions[-1]
    final = final_values(last.scores, winners_of(get_game(last.game).who_acts(last.state))) if last.is_over else None
    return Plan(last.game, last.players, positions, moves, codes, stretches, final)


def _code(position, move, index):
    """The engine code of ``move``, played in ``position`` (history entry ``index`` follows
    it); None for the last position, a chance outcome or the game's end."""
    if move is not None and position.is_over:
        raise BadRequest(f"history[{index}] follows the game's end")
    if move is None or position.is_chance:
        return None
    try:
        return position.parse_move(move)
    except TesseraError as err:
        raise BadRequest(f"history[{index}].move: {err}") from None


# ---- a running review -----------------------------------------------------------------------


def _answer_summary(answer):
    """The fields of an engine answer the page shows and the tests check."""
    return {
        "player": answer["player"],
        "position_hash": answer["position_hash"],
        "win": answer["root"]["win_rate"],
        "margin": answer["root"]["margin"],
        "visits": answer["root"]["visits"],
        "moves": [
            {
                "move": m["move"],
                "code": m["code"],
                "visits": m["visits"],
                "win_rate": m["win_rate"],
                "margin": m["margin"],
            }
            for m in answer["moves"]
        ],
    }


class Review:
    """One review of a page (``tab``): its positions searched one after another as the
    tab's search through ``hub`` (tessera.web.analysis.AnalysisHub), each for at most the
    hub's ``review_seconds``."""

    def __init__(self, hub, tab, plan, visits, seed):
        self.hub, self.tab, self.plan = hub, tab, plan
        self.visits, self.seed = visits, seed
        self.id = f"{tab.id}.review{next(_serials)}"
        self.lock = threading.Lock()
        self.answers = {}  # history index -> the engine's answer
        self.failed = set()  # history indices whose search answered an error
        self.judged = set()
        self.verdicts = {}  # history index -> its move judged
        # (stretch, turn) of each position searched, in order; the query of step k is named k
        self.steps = [(n, turn) for n, stretch in enumerate(plan.stretches) for turn in range(len(stretch.moves) + 1)]
        self.step = 0
        self.stop_told = False

    # What the page gets.
    def _event(self, **fields):
        with self.lock:
            done = len(self.answers) + len(self.failed)
            for verdict in fields.get("moves", []):
                self.verdicts[verdict["index"]] = verdict
            figures = summary(list(self.verdicts.values()), self.plan.players)
        self.tab.deliver({"review": self.id, "total": self.plan.searched(), "done": done, **fields, "summary": figures})

    def start(self):
        final = []
        if self.plan.final is not None:
            final = [
                {
                    "index": len(self.plan.positions) - 1,
                    "player": None,
                    "chances": [share for share, _ in self.plan.final],
                    "margins": [margin for _, margin in self.plan.final],
                }
            ]
        self._event(positions=final, moves=[])
        self._send(replacing=None)

    def _query(self):
        number, turn = self.steps[self.step]
        stretch = self.plan.stretches[number]
        return {
            "id": f"{self.id}.{self.step}",
            "position": stretch.text,
            "moves": stretch.moves[:turn],
            "analyzeTurns": [turn],
            "maxVisits": self.visits,
            "maxTime": self.hub.review_seconds,
            "seed": self.seed,
            "memory": self.hub.search_mb,
        }

    def _send(self, replacing):
        """Send the current position's query as the tab's search: in place of ``replacing``
        (the position before, answered) only while that is still the tab's search."""
        return self.hub.search_for(self.tab, self._query(), self._line, replacing=replacing)

    def _line(self, document):
        """The answer line of the current position's query (on the engine's threads)."""
        if not self.hub.is_current(self.tab, document.get("id")):
            self._stopped()  # the page stopped it or searches another position
            return
        number, _ = self.steps[int(document["id"].rsplit(".", 1)[1])]
        stretch = self.plan.stretches[number]
        if "error" in document and "turn" not in document:
            self.hub.release(self.tab, document["id"])
            self._event(positions=[], moves=[], error=document["error"], finished=True)
            return
        index = stretch.start + document["turn"]
        with self.lock:
            if "error" in document:
                self.failed.add(index)
                point = {"index": index, "player": None, "chances": None, "error": document["error"]}
            else:
                self.answers[index] = document
                point = self._point(index)
            judged = [j for j in (index - 1, index) if self._judgeable(j)]
            moves = [verdict for verdict in map(self._judge, judged) if verdict is not None]
        if self.step + 1 < len(self.steps):
            self._event(positions=[point], moves=moves)
            self.step += 1
            # Sent from another thread: this one writes the engine's answers, and a query
            # sent from it could wait on the engine's output lock it holds.
            threading.Thread(target=self._next, args=(document["id"],), name="review-next", daemon=True).start()
            return
        with self.lock:
            rest = [self._judge(j) for j in sorted(self.answers) if j not in self.judged]
        self.hub.release(self.tab, document["id"])
        self._event(positions=[point], moves=moves + [m for m in rest if m], finished=True)

    def _next(self, ended):
        """The next position, once the one of query ``ended`` has answered."""
        try:
            sent = self._send(replacing=ended)
        except TesseraError as err:  # the server is stopping
            self.hub.release(self.tab, ended)
            self._event(positions=[], moves=[], error=str(err), finished=True)
            return
        if not sent:
            self._stopped()

    def _stopped(self):
        """Tell the page once that the review stopped before its end."""
        with self.lock:
            told, self.stop_told = self.stop_told, True
        if not told:
            self._event(positions=[], moves=[], stopped=True, finished=True)

    def _point(self, index):
        answer = self.answers[index]
        values = [
            value_for(p, answer["player"], self.plan.players, answer["root"]["win_rate"], answer["root"]["margin"])
            for p in range(1, self.plan.players + 1)
        ]
        return {
            "index": index,
            "player": answer["player"],
            "chances": [None if v is None else v[0] for v in values],
            "margins": [None if v is None else v[1] for v in values],
            "answer": _answer_summary(answer),
        }

    def _after(self, index):
        """(known, value): the mover's value of the position after the move at ``index``."""
        mover = self.answers[index]["player"]
        following = index + 1
        if following >= len(self.plan.positions):
            return True, None
        if following == len(self.plan.positions) - 1 and self.plan.final is not None:
            return True, self.plan.final[mover - 1]
        if following in self.answers:
            answer = self.answers[following]
            return True, value_for(
                mover, answer["player"], self.plan.players, answer["root"]["win_rate"], answer["root"]["margin"]
            )
        searched = any(following in s.indices() for s in self.plan.stretches)
        return following in self.failed or not searched, None

    def _judgeable(self, index):
        if index < 0 or index in self.judged or index not in self.answers or self.plan.codes[index] is None:
            return False
        known, _ = self._after(index)
        return known or self._entry_visits(index) >= MIN_VISITS

    def _entry_visits(self, index):
        code = self.plan.codes[index]
        return next((m["visits"] for m in self.answers[index]["moves"] if m["code"] == code), 0)

    def _judge(self, index):
        self.judged.add(index)
        _, after = self._after(index)
        verdict = judge(self.answers[index], self.plan.codes[index], after)
        return None if verdict is None else {"index": index, **verdict}


# ---- practise: a move tried in a position of the review --------------------------------------


def read_try(position_text, move):
    """(position, the move's code) of a try: a complete position where a player chooses, and a
    legal move of it; BadRequest naming what is wrong."""
    try:
        position = read_position(position_text)
    except BadRequest:
        raise
    except TesseraError as err:
        raise BadRequest(f"position: {err}") from None
    if position.is_view:
        raise BadRequest("a try needs a complete position, not a player's view")
    if position.is_over or position.is_chance:
        raise BadRequest("no player chooses a move in this position")
    if not isinstance(move, str) or not move:
        raise BadRequest(f"move must be the text of a move, not {inputs.shown(move)}")
    try:
        return position, position.parse_move(move)
    except TesseraError as err:
        raise BadRequest(f"move: {err}") from None


async def search_once(hub, tab, query):
    """The final answer of ``query`` run as ``tab``'s one search (its old one stopped);
    BadRequest when the page stopped it or began another meanwhile, TesseraError when the
    engine answered an error."""
    loop = asyncio.get_running_loop()
    answered = loop.create_future()

    def deliver(document):  # on the engine's threads
        if "warning" not in document and not document.get("isDuringSearch", False):
            loop.call_soon_threadsafe(_settle, answered, document)

    await asyncio.to_thread(hub.search_for, tab, query, deliver)
    try:
        document = await answered
    finally:
        current = hub.is_current(tab, query["id"])
        hub.release(tab, query["id"])
    if not current:
        raise BadRequest("the try was stopped: the page stopped its search or began another")
    if "error" in document:
        raise TesseraError(document["error"])
    return document


def _settle(future, document):
    if not future.done():
        future.set_result(document)


async def judge_try(hub, tab, position, code, visits, seed):
    """``judge``'s verdict on the move ``code`` tried in ``position``, from a search of it at
    the review's budget (``visits``, ``seed``, the hub's ``review_seconds``); a move the
    search visited fewer than MIN_VISITS times is valued by a search of the position it
    leads to (or the game's result), as a review values it. With ``good``: whether it is as
    good as the best within the thresholds (no mark)."""
    budget = {"maxVisits": visits, "maxTime": hub.review_seconds, "seed": seed, "memory": hub.search_mb}
    text = position.text()
    answer = await search_once(hub, tab, {"id": f"{tab.id}.try{next(_serials)}", "position": text, **budget})
    entry = next((m for m in answer["moves"] if m["code"] == code), None)
    after = None
    if entry is not None and entry is not answer["moves"][0] and entry["visits"] < MIN_VISITS:
        following = position.play_codes(code)
        mover = answer["player"]
        if following.is_over:
            scores = following.scores
            after = final_values(scores, winners_of(get_game(following.game).who_acts(following.state)))[mover - 1]
        elif not following.is_chance:
            query = {"id": f"{tab.id}.try{next(_serials)}", "position": text, "moves": [entry["move"]], **budget}
            then = await search_once(hub, tab, query)
            root = then["root"]
            after = value_for(mover, then["player"], position.players, root["win_rate"], root["margin"])
    verdict = judge(answer, code, after)
    if verdict is None:
        raise BadRequest(
            f"a search of {visits} visits did not value {position.move_text(code)}: try more visits a position"
        )
    return {"verdict": verdict, "good": verdict["mark"] is None}


# ---- a saved review, read back ----------------------------------------------------------------


def read_saved(document):
    """The ``positions``, ``rounds`` and ``summary`` of a saved review (the file's JSON), once
    checked: against its schema, then its history by the rules (as a review's history) and
    its points and moves against that history; BadRequest naming the first fault."""
    error = jsonschema.exceptions.best_match(_FILE_VALIDATOR.iter_errors(document))
    if error is not None:
        where = "/".join(str(part) for part in error.absolute_path)
        raise BadRequest(f"review file: {where + ': ' if where else ''}{_schema_message(error)}")
    history = [{"text": entry["text"], "move": entry["move"]} for entry in document["history"]]
    try:
        plan = plan_review(history)
    except BadRequest as err:
        raise BadRequest(f"review file: {err}") from None
    players, count = plan.players, len(plan.positions)
    if (document["game"], document["players"]) != (plan.game, players):
        raise BadRequest(
            f"review file: it says {document['game']} for {document['players']} players;"
            f" its history is {plan.game} for {players}"
        )
    seen = set()
    for k, point in enumerate(document["points"]):
        index = point["index"]
        if index >= count or index in seen:
            raise BadRequest(f"review file: points/{k}: index {index} is past the history or repeated")
        seen.add(index)
        for name in ("chances", "margins"):
            if point.get(name) is not None and len(point[name]) != players:
                raise BadRequest(f"review file: points/{k}/{name} must have one value for each of {players} players")
    seen = set()
    for k, move in enumerate(document["moves"]):
        index = move["index"]
        if index >= count - 1 or index in seen:
            raise BadRequest(f"review file: moves/{k}: index {index} is not a move of the history, or repeated")
        seen.add(index)
        if move["move"] != history[index + 1]["move"] or move["player"] != plan.positions[index].to_move:
            raise BadRequest(f"review file: moves/{k} is not the move history/{index + 1} played, by its player")
        expected = mark(move["lost"]["win"], move["lost"]["points"])
        if move["mark"] != expected:
            raise BadRequest(
                f"review file: moves/{k}: a move that lost {move['lost']['win']} of the win and"
                f" {move['lost']['points']} points is marked {expected}, not {move['mark']}"
            )
    return {"positions": count, "rounds": rounds_of(plan.positions), "summary": summary(document["moves"], players)}


def _schema_message(error):
    """jsonschema's message with the bad value it starts with shortened."""
    message, shown = error.message, repr(error.instance)
    if message.startswith(shown):
        message = inputs.shown(error.instance) + message[len(shown) :]
    return " ".join(message.split())


def routes(get_hub):
    """The review's routes; ``get_hub()`` is the server's AnalysisHub (BadRequest when
    analysis is off)."""

    def searching(body):
        """The hub, the page's tab, and the visits a position and the seed ``body`` asks for."""
        hub = get_hub()
        tab = hub.tab(body.get("tab"))
        visits = inputs.whole(body, "visits", 1, MAX_VISITS, DEFAULT_VISITS)
        return hub, tab, visits, inputs.whole(body, "seed", 0, MAX_SEED, 0)

    async def start(request):
        body = await json_body(request)
        hub, tab, visits, seed = searching(body)
        plan = await asyncio.to_thread(plan_review, body.get("history"))
        review = Review(hub, tab, plan, visits, seed)
        rounds = await asyncio.to_thread(rounds_of, plan.positions)
        await asyncio.to_thread(review.start)
        return Json({"review": review.id, "total": plan.searched(), "positions": len(plan.positions), "rounds": rounds})

    def stop(body):
        hub = get_hub()
        hub.stop(hub.tab(body.get("tab")))
        return {"stopped": True}

    async def attempt(request):
        body = await json_body(request)
        hub, tab, visits, seed = searching(body)
        position, code = await asyncio.to_thread(read_try, body.get("position"), body.get("move"))
        return Json(await judge_try(hub, tab, position, code, visits, seed))

    def load(body):
        return read_saved(body.get("review"))

    return [
        Route("/api/review/start", start, methods=["POST"]),
        Route("/api/review/stop", json_route(stop), methods=["POST"]),
        Route("/api/review/try", attempt, methods=["POST"]),
        Route("/api/review/load", json_route(load), methods=["POST"]),
    ]
