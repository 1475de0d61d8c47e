"""Game review (tessera.web.review): the marks from given engine answers, the thresholds at
their edges, the game cut into stretches without chance, and a review run by the real
analysis engine (AnalysisHub, `tessera analyze`'s engine) whose every judged move agrees
with the engine's answers it was given."""

import asyncio
import random
import threading

import pytest

from tessera.position import Position
from tessera.web import documents
from tessera.web.analysis import AnalysisHub
from tessera.web.documents import BadRequest
from tessera.web.review import (
    MIN_VISITS,
    POINT_WEIGHT,
    THRESHOLDS,
    Review,
    accuracy,
    final_values,
    judge,
    judge_try,
    mark,
    plan_review,
    rounds_of,
    summary,
    value_for,
    winners_of,
)

EVENT_TIMEOUT = 180


# ---- the thresholds at their edges -----------------------------------------------------------


@pytest.mark.parametrize(
    "win_lost, points_lost, expected",
    [
        (0.0, 0.0, None),
        (0.0499, 0.0, None),
        (0.05, 0.0, "inaccuracy"),
        (0.55 - 0.5, 0.0, "inaccuracy"),
        (0.0999, 0.0, "inaccuracy"),
        (0.10, 0.0, "mistake"),
        (0.6 - 0.5, 0.0, "mistake"),
        (0.1999, 0.0, "mistake"),
        (0.20, 0.0, "blunder"),
        (1.0, 0.0, "blunder"),
        (0.0, 2.49, None),
        (0.0, 2.5, "inaccuracy"),
        (0.0, 4.99, "inaccuracy"),
        (0.0, 5.0, "mistake"),
        (0.0, 9.99, "mistake"),
        (0.0, 10.0, "blunder"),
        (0.06, 10.0, "blunder"),  # the worse of the two counts
        (0.12, 1.0, "mistake"),
    ],
)
def test_marks_at_the_thresholds_edges(win_lost, points_lost, expected):
    assert mark(win_lost, points_lost) == expected


def test_the_thresholds_run_from_the_worst_mark_down():
    wins = [win for _, win, _ in THRESHOLDS]
    points = [p for _, _, p in THRESHOLDS]
    assert wins == sorted(wins, reverse=True) and points == sorted(points, reverse=True)
    for name, win, points_ in THRESHOLDS:  # each threshold reached alone gives its mark
        assert mark(win, 0.0) == name and mark(0.0, points_) == name


# ---- marks from given answers ----------------------------------------------------------------

ANSWER = {
    "player": 2,
    "moves": [  # best first, as the engine ranks them
        {"move": "A", "code": 11, "visits": 200, "win_rate": 0.70, "margin": 6.0},
        {"move": "B", "code": 12, "visits": 40, "win_rate": 0.55, "margin": 2.0},
        {"move": "C", "code": 13, "visits": MIN_VISITS - 1, "win_rate": 0.0, "margin": -20.0},
        {"move": "D", "code": 14, "visits": 0, "win_rate": None, "margin": None},
        {"move": "E", "code": 15, "visits": 30, "win_rate": 0.72, "margin": 7.0},
    ],
}


def test_the_best_move_loses_nothing():
    verdict = judge(ANSWER, 11)
    assert verdict["lost"] == {"win": 0.0, "points": 0.0} and verdict["mark"] is None
    assert verdict["best"]["move"] == verdict["played"]["move"] == "A"
    assert verdict["player"] == 2


def test_a_searched_move_loses_the_difference_to_the_best():
    verdict = judge(ANSWER, 12, after=(0.0, -50.0))  # enough visits: its own figures count
    assert verdict["lost"]["win"] == pytest.approx(0.15)
    assert verdict["lost"]["points"] == pytest.approx(4.0)
    assert verdict["mark"] == "mistake" and verdict["played"]["valued_by"] == "search"


def test_a_move_searched_too_little_is_valued_by_the_position_it_led_to():
    verdict = judge(ANSWER, 13, after=(0.62, 4.5))
    assert verdict["played"]["valued_by"] == "next position"
    assert verdict["lost"]["win"] == pytest.approx(0.08)
    assert verdict["lost"]["points"] == pytest.approx(1.5)
    assert verdict["mark"] == "inaccuracy"
    # Without the next position's value its few visits are all there is.
    alone = judge(ANSWER, 13)
    assert alone["lost"]["win"] == pytest.approx(0.70) and alone["mark"] == "blunder"


def test_losses_are_never_negative_and_an_unvalued_move_is_not_judged():
    better = judge(ANSWER, 15)  # valued above the engine's choice: no loss
    assert better["lost"] == {"win": 0.0, "points": 0.0} and better["mark"] is None
    assert judge(ANSWER, 14) is None  # no visits, no next position
    assert judge(ANSWER, 14, after=(0.75, 7.0))["lost"] == {"win": 0.0, "points": 0.0}
    assert judge(ANSWER, 99) is None  # not a move of that position


def test_win_chances_seen_by_each_player():
    assert value_for(1, 1, 2, 0.7, 4.0) == (0.7, 4.0)
    assert value_for(2, 1, 2, 0.7, 4.0) == pytest.approx((0.3, -4.0))
    assert value_for(2, 1, 3, 0.7, 4.0) is None  # three players: the mover's share only
    assert value_for(1, 1, 2, None, None) is None


def test_the_games_end():
    assert winners_of("game over: player 2 wins") == [2]
    assert winners_of("game over: players 1 and 3 share the win") == [1, 3]
    with pytest.raises(ValueError):
        winners_of("player 1 to move: draft")
    assert final_values([30, 25], [1]) == [(1.0, 5.0), (0.0, -5.0)]
    assert final_values([20, 20, 10], [1, 2]) == [(0.5, 0.0), (0.5, 0.0), (0.0, -10.0)]


# ---- accuracy and each player's figures ------------------------------------------------------


def verdict(player, win, points):
    return {"player": player, "lost": {"win": win, "points": points}, "mark": mark(win, points)}


def test_accuracy_worked_by_hand():
    """103.1668 * exp(-0.04354 * L) - 3.1668 of the loss L in percentage points, a point of
    margin counting as two: worked out with a calculator."""
    assert accuracy(0.0, 0.0) == 100.0
    # L = 10: exp(-0.4354) = 0.647006, times 103.1668 = 66.7496, less 3.1668.
    assert accuracy(0.10, 0.0) == pytest.approx(63.5828, abs=1e-3)
    assert accuracy(0.0, 5.0) == pytest.approx(63.5828, abs=1e-3)  # 5 points count as 10
    assert accuracy(0.04, 5.0) == pytest.approx(63.5828, abs=1e-3)  # the larger of the two
    # L = 30: exp(-1.3062) = 0.270848, times 103.1668 = 27.9425, less 3.1668.
    assert accuracy(0.30, 0.0) == pytest.approx(24.7757, abs=1e-3)
    # L = 3 (win 3 points, margin 1 point = 2): exp(-0.13062) = 0.877553 -> 90.5344 - 3.1668.
    assert accuracy(0.03, 1.0) == pytest.approx(87.3676, abs=1e-3)
    assert accuracy(1.0, 0.0) == 0.0  # 103.1668 * exp(-4.354) = 1.33, below 3.1668: kept at 0


def test_each_players_counts_and_accuracy_worked_by_hand():
    moves = [
        verdict(1, 0.0, 0.0),  # 100
        verdict(1, 0.10, 0.0),  # 63.5828, a mistake
        verdict(1, 0.0, 5.0),  # 63.5828, a mistake
        verdict(2, 0.30, 0.0),  # 24.7757, a blunder
        verdict(2, 0.03, 1.0),  # 87.3676, no mark
    ]
    one, two, three = summary(moves, 3)
    assert {k: one[k] for k in ("player", "moves", "inaccuracy", "mistake", "blunder")} == {
        "player": 1,
        "moves": 3,
        "inaccuracy": 0,
        "mistake": 2,
        "blunder": 0,
    }
    assert one["accuracy"] == pytest.approx((100 + 63.5828 + 63.5828) / 3, abs=1e-3)  # 75.7219
    assert (two["moves"], two["blunder"], two["mistake"]) == (2, 1, 0)
    assert two["accuracy"] == pytest.approx((24.7757 + 87.3676) / 2, abs=1e-3)  # 56.0716
    assert three == {"player": 3, "moves": 0, "inaccuracy": 0, "mistake": 0, "blunder": 0, "accuracy": None}


def test_a_move_is_marked_exactly_when_its_accuracy_is_below_a_five_point_loss():
    for _, win, points in THRESHOLDS:  # the thresholds weigh a point as POINT_WEIGHT of win
        assert 100 * win == pytest.approx(POINT_WEIGHT * points)
    edge = accuracy(0.05, 0.0)
    for win in [k / 200 for k in range(0, 60)]:
        for points in [k / 4 for k in range(0, 20)]:
            assert (mark(win, points) is not None) == (accuracy(win, points) <= edge + 1e-9), (win, points)


def test_rounds_start_where_the_round_number_changes():
    history = page_history("azul", seed=3)
    positions = [Position.parse(entry["text"]) for entry in history]
    starts = rounds_of(positions)
    assert [s["round"] for s in starts] == list(range(2, len(starts) + 2)) and len(starts) >= 4
    for start in starts:
        assert positions[start["index"] - 1].to_json()["round"] == start["round"] - 1
    azure = [Position.new("azure", seed=1)]
    assert rounds_of(azure) == []  # a game of turns, no rounds


# ---- the plan ----------------------------------------------------------------------------------


def page_history(game, seed, plies=None, deal=True, **options):
    """A game as the page's history holds it: positions dealt as the page deals them (the
    seed's chance draws), seeded random moves, until the end or ``plies`` moves."""
    position, draws = documents.new_game(game, seed, options)
    choose = random.Random(seed)
    history = [{"text": position.text(), "move": None}]
    while not position.is_over and (plies is None or len(history) <= plies):
        moves = [text for text, _ in position.chance_outcomes()] if position.is_chance else position.legal_moves
        move = choose.choice(moves)
        position, _ = documents.play(position, move, draws, deal)
        history.append({"text": position.text(), "move": move})
    return history


def test_a_whole_game_is_cut_where_chance_was_dealt():
    history = page_history("azul", seed=3)
    plan = plan_review(history)
    positions = [Position.parse(entry["text"]) for entry in history]
    searched = [i for s in plan.stretches for i in s.indices()]
    assert searched == [i for i, p in enumerate(positions) if not p.is_over]
    assert plan.searched() == len(history) - 1 and positions[-1].is_over
    assert len(plan.stretches) > 1  # every refill starts a stretch
    for stretch in plan.stretches:
        start = Position.parse(stretch.text)
        assert start == positions[stretch.start]
        # Its moves reach each of its positions with no chance between.
        for k in range(len(stretch.moves) + 1):
            assert start.play(*stretch.moves[:k]) == positions[stretch.start + k]
        last = stretch.start + len(stretch.moves)
        after = positions[last].play(history[last + 1]["move"])
        assert after != positions[last + 1] or positions[last + 1].is_over
    for i, entry in enumerate(history[1:]):
        assert plan.codes[i] == positions[i].parse_move(entry["move"])
    winners = [p for p, share in enumerate(s for s, _ in plan.final) if share > 0]
    scores = positions[-1].scores
    assert [scores[p] for p in winners] == [max(scores)] * len(winners)
    assert [margin for _, margin in plan.final] == [s - max(scores[:p] + scores[p + 1 :]) for p, s in enumerate(scores)]


def test_chance_dealt_by_hand_is_not_searched():
    history = page_history("azul", seed=5, plies=40, deal=False)
    positions = [Position.parse(entry["text"]) for entry in history]
    assert any(p.is_chance for p in positions)
    plan = plan_review(history)
    searched = {i for s in plan.stretches for i in s.indices()}
    assert searched == {i for i, p in enumerate(positions) if not p.is_chance}
    assert plan.final is None


@pytest.mark.parametrize(
    "history, message",
    [
        ("nope", "history must be a list of 1 to 1000 positions"),
        ([], "history must be a list of 1 to 1000 positions"),
        ([5], "history[0] must be an object with text and move"),
        ([{"text": "azul players 9"}], "history[0]: "),
        ([{"text": "S"}, {"text": "S", "move": None}], "history[1].move must be the text"),
        ([{"text": "S"}, {"text": "S", "move": "F9 blue 1"}], "history[1].move: "),
        ([{"text": "S"}, {"text": "P", "move": "x"}], "history[1] is a position of pavilion, not azul"),
        ([{"text": "V"}], "history[0] is a player's view"),
        ([{"text": "OVER"}], "nothing to review"),
        ([{"text": "OVER"}, {"text": "S", "move": "F1 blue 1"}], "history[1] follows the game's end"),
    ],
)
def test_a_bad_history_is_named(history, message):
    texts = {
        "S": Position.new("azul", seed=1).text(),
        "P": Position.new("pavilion", seed=1).text(),
        "V": Position.new("azure", seed=1).view(1).text(),
        "OVER": Position.parse(page_history("azul", seed=3)[-1]["text"]).text(),
    }
    if isinstance(history, list):
        history = [
            dict(entry, text=texts.get(entry["text"], entry["text"])) if isinstance(entry, dict) else entry
            for entry in history
        ]
    with pytest.raises(BadRequest) as caught:
        plan_review(history)
    assert str(caught.value).startswith(message), caught.value
    assert "\n" not in str(caught.value)


# ---- a review by the real engine ---------------------------------------------------------------


@pytest.fixture(scope="module")
def hub():
    hub = AnalysisHub(searches=1, memory_mb=1024)
    hub.start()
    yield hub
    hub.close()


@pytest.fixture
def page(hub):
    """A page's end of the event stream: a tab of the hub on an event loop of its own."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    tab = hub.open_tab(loop)

    def next_event(timeout=EVENT_TIMEOUT):
        return asyncio.run_coroutine_threadsafe(asyncio.wait_for(tab.events.get(), timeout), loop).result()

    yield tab, next_event
    hub.close_tab(tab)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(10)


def test_a_review_agrees_with_the_engines_answers(hub, page):
    tab, next_event = page
    history = page_history("azul", seed=3)[:26]  # a round and the start of the next
    plan = plan_review(history)
    assert len(plan.stretches) >= 2  # chance between: queries one after another
    review = Review(hub, tab, plan, visits=200, seed=1)
    review.start()
    events = []
    while not (events and events[-1].get("finished")):
        events.append(next_event())
    assert all(event["review"] == review.id for event in events)
    assert not any(event.get("stopped") or event.get("error") for event in events)
    done = [event["done"] for event in events]
    assert done == sorted(done) and done[-1] == events[-1]["total"] == plan.searched() == 26
    points = {p["index"]: p for event in events for p in event["positions"]}
    assert sorted(points) == list(range(26))  # one point per position, each once
    judged = {m["index"]: m for event in events for m in event["moves"]}
    assert sorted(judged) == list(range(25))  # the last position's move was not played
    for i, point in points.items():
        answer = point["answer"]
        assert answer["position_hash"] == plan.positions[i].hash
        assert answer["player"] == plan.positions[i].to_move == point["player"]
        mover, other = answer["player"], 3 - answer["player"]
        assert point["chances"][mover - 1] == answer["win"]
        assert point["chances"][other - 1] == pytest.approx(1 - answer["win"])
    for i, verdict in judged.items():
        answer, following = points[i]["answer"], points.get(i + 1)
        after = (
            None
            if following is None
            else value_for(
                answer["player"], following["player"], 2, following["answer"]["win"], following["answer"]["margin"]
            )
        )
        assert verdict == {"index": i, **judge(answer, plan.codes[i], after)}
        assert verdict["move"] == history[i + 1]["move"]
    assert hub.tabs[tab.id].query is None  # the tab searches no more
    # Every event counts each player's marks and accuracy over the moves judged so far.
    assert events[-1]["summary"] == summary(list(judged.values()), 2)


def test_a_try_is_judged_by_a_search_of_its_position(hub, page):
    """Practise: the search's best move is as good as the best; a draft of a whole factory
    thrown on the floor at the start loses points, and is marked."""
    tab, _ = page
    start = Position.new("azul", seed=1)

    def tried(move):
        coroutine = judge_try(hub, tab, start, start.parse_move(move), 300, 0)
        return asyncio.run_coroutine_threadsafe(coroutine, tab.loop).result(EVENT_TIMEOUT)

    floors = [m for m in start.legal_moves if m.endswith("floor")]
    thrown = max(floors, key=lambda m: len(start.play(m).to_json()["boards"][0]["floor"].strip("-")))
    bad = tried(thrown)
    assert not bad["good"] and bad["verdict"]["mark"] is not None and bad["verdict"]["move"] == thrown
    assert bad["verdict"]["lost"]["points"] > 0
    best = bad["verdict"]["best"]["move"]
    good = tried(best)
    assert good["good"] and good["verdict"]["mark"] is None
    assert tab.query is None  # the try's searches ended with it


@pytest.mark.long  # seconds of a review run before it is stopped
def test_a_stopped_review_says_so_and_sends_no_more(hub, page):
    tab, next_event = page
    plan = plan_review(page_history("azul", seed=4, plies=20))
    review = Review(hub, tab, plan, visits=20_000, seed=0)
    review.start()
    first = next_event()  # the start, before any search answered
    assert first["done"] == 0 and first["positions"] == []
    hub.stop(tab)
    events = [next_event()]
    while not events[-1].get("finished"):
        events.append(next_event())
    assert events[-1]["stopped"] and events[-1]["done"] < plan.searched()
    with pytest.raises(TimeoutError):
        next_event(timeout=3)  # nothing after the stop
    assert tab.query is None


def test_three_players_chance_by_hand(hub, page):
    """Three players, chance dealt by hand: each point values its mover alone, the chance
    steps are not searched, and every player move is judged."""
    tab, next_event = page
    history = page_history("azul", seed=6, plies=45, deal=False, players=3)
    plan = plan_review(history)
    chance = [i for i, p in enumerate(plan.positions) if p.is_chance]
    assert chance and plan.searched() == len(history) - len(chance)
    review = Review(hub, tab, plan, visits=50, seed=2)
    review.start()
    events = [next_event()]
    while not events[-1].get("finished"):
        events.append(next_event())
    assert not events[-1].get("stopped") and not events[-1].get("error")
    points = {p["index"]: p for event in events for p in event["positions"]}
    assert sorted(points) == [i for i in range(len(history)) if i not in chance]
    for point in points.values():
        mover = point["player"]
        assert [c is not None for c in point["chances"]] == [p == mover for p in (1, 2, 3)]
        assert point["chances"][mover - 1] == point["answer"]["win"]
    # Another player moves next: only the search of the move itself values it; a move it
    # did not visit is not judged.
    judged = {m["index"]: m for event in events for m in event["moves"]}
    for i, point in points.items():
        if i + 1 == len(history):
            continue
        verdict = judge(point["answer"], plan.codes[i])
        assert judged.get(i) == (None if verdict is None else {"index": i, **verdict})
        played = next(m for m in point["answer"]["moves"] if m["code"] == plan.codes[i])
        assert (verdict is None) == (played["visits"] == 0)
    assert judged
