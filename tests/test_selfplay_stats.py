"""Self-play statistics against values worked out by hand."""

import math

import numpy as np
import pytest

from tessera.selfplay import stats
from tessera.selfplay.report import format_report
from tessera.selfplay.stats import Z95, Outcomes

ELO = 400 / math.log(10)


def outcomes(rows):
    """Outcomes from (seats, scores, payoffs, length) rows."""
    seats, scores, payoffs, lengths = zip(*rows)
    return Outcomes(np.array(seats), np.array(scores), np.array(payoffs, float), np.array(lengths))


# Two agents, A = 0 and B = 1, four two-player games, seats swapping.
HEAD_TO_HEAD = outcomes(
    [
        ([0, 1], [30, 20], [1, 0], 50),  # A wins by 10
        ([1, 0], [25, 25], [0.5, 0.5], 60),  # shared: a draw
        ([0, 1], [10, 40], [0, 1], 40),  # B wins by 30
        ([1, 0], [12, 30], [0, 1], 70),  # A wins by 18, from seat 2
    ]
)

# Two agents at four seats, A B A B then B A B A.
FOUR_SEATS = outcomes(
    [
        ([0, 1, 0, 1], [30, 28, 10, 28], [1, 0, 0, 0], 80),
        ([1, 0, 1, 0], [20, 20, 15, 20], [0.5, 0.5, 0, 0], 90),
    ]
)


def test_wilson_interval():
    # p = 1/2, n = 10: centre 1/2, half-width z / (1 + z²/10) * sqrt(1/40 + z²/400).
    low, high = stats.wilson(5, 10)
    half = Z95 / (1 + Z95**2 / 10) * math.sqrt(0.025 + Z95**2 / 400)
    assert (low, high) == pytest.approx((0.5 - half, 0.5 + half))
    assert (low, high) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    # No successes: the lower end is 0 and the upper z² / (n + z²).
    assert stats.wilson(0, 20) == pytest.approx((0.0, Z95**2 / (20 + Z95**2)))
    assert stats.wilson(0, 0) is None


def test_results_per_agent():
    wins, draws, losses = stats.agent_results(HEAD_TO_HEAD, 2)
    assert (wins.tolist(), draws.tolist(), losses.tolist()) == ([2, 1], [1, 1], [1, 2])
    # Four seats: A wins game 1; game 2's win is shared between a B seat and an A seat.
    wins, draws, losses = stats.agent_results(FOUR_SEATS, 2)
    assert (wins.tolist(), draws.tolist(), losses.tolist()) == ([1, 0], [1, 1], [0, 1])


def test_pairwise_results_of_multiplayer_games():
    wins, draws = stats.pairwise_results(FOUR_SEATS, 2)
    # Game 1: the winner (A) beats both B seats; the B seats (28) beat the other A seat (10).
    # Game 2: the two sharing winners draw; each winner beats the other agent's loser;
    # between the losers, A's 20 beats B's 15. Seats of the same agent never count.
    assert wins.tolist() == [[0, 4], [3, 0]]
    assert draws.tolist() == [[0, 1], [1, 0]]


def test_bradley_terry_on_a_table_solved_by_hand():
    # With strengths 4 : 2 : 1 every agent's expected points equal its points:
    # A: 3 * 2/3 + 5 * 4/5 = 6 = 2 + 4; B: 3 * 1/3 + 3 * 2/3 = 3 = 1 + 2; C: 1 + 1 = 2.
    wins = [[0, 2, 4], [1, 0, 2], [1, 1, 0]]
    fit = stats.bradley_terry(wins, np.zeros((3, 3)))
    assert fit.prior_draws == 0
    step = ELO * math.log(2)  # 400 log10(2) = 120.41
    assert [fit.elo(i) for i in range(3)] == pytest.approx([step, 0, -step], abs=1e-6)
    assert fit.difference(0, 2)[0] == pytest.approx(2 * step)


def test_two_agents_elo_and_its_interval_in_closed_form():
    # 30 wins, 10 losses, 10 draws: p = 35/50 = 0.7, Elo difference 400 log10(0.7 / 0.3),
    # and the variance of the log-odds is 1 / (n p (1 - p)).
    fit = stats.bradley_terry([[0, 30], [10, 0]], [[0, 10], [10, 0]])
    difference, half = fit.difference(0, 1)
    assert difference == pytest.approx(400 * math.log10(0.7 / 0.3))
    assert half == pytest.approx(Z95 * ELO / math.sqrt(50 * 0.7 * 0.3))
    assert fit.elo(0) == pytest.approx(difference / 2)
    assert fit.elo(1) == pytest.approx(-difference / 2)
    assert fit.elo_interval(0) == pytest.approx(half / 2)


def test_a_clean_sweep_gets_one_virtual_draw():
    # 9 - 0 has no finite maximum; with one virtual draw the score is 9.5 / 10.
    fit = stats.bradley_terry([[0, 9], [0, 0]], np.zeros((2, 2)))
    assert fit.prior_draws == 1
    assert fit.difference(0, 1)[0] == pytest.approx(400 * math.log10(19))


def test_agents_that_never_played_have_no_rating():
    fit = stats.bradley_terry([[0, 2, 0], [1, 0, 0], [0, 0, 0]], np.zeros((3, 3)))
    assert fit.elo(2) is None and fit.elo_interval(2) is None
    assert fit.difference(0, 1)[0] == pytest.approx(400 * math.log10(2))


def test_margins():
    a, b = stats.margins(HEAD_TO_HEAD, 2)
    assert a.tolist() == [10, 0, -30, 18] and b.tolist() == [-10, 0, 30, -18]
    mean, half = stats.mean_interval(a)
    # Deviations 10.5, 0.5, -29.5, 18.5: squares sum to 1323, variance 441, sd 21.
    assert mean == -0.5 and half == pytest.approx(Z95 * 21 / 2)
    # Four seats: the best own seat against the best seat of the other agent.
    a, b = stats.margins(FOUR_SEATS, 2)
    assert a.tolist() == [2, 0] and b.tolist() == [-2, 0]


def test_seat_advantage():
    first, second = stats.seat_results(HEAD_TO_HEAD)
    assert first["win_share"] == 1.5 / 4 and first["advantage"] == pytest.approx(-0.125)
    assert second["win_share"] == 2.5 / 4 and second["advantage"] == pytest.approx(0.125)
    assert (first["mean_score"], second["mean_score"]) == (19.25, 28.75)
    assert first["interval"] == pytest.approx(stats.wilson(1.5, 4))
    # A won 1 of 2 from seat 1 and 1.5 of 2 from seat 2; B 0.5 of 2 and 1 of 2.
    assert stats.seat_agent_shares(HEAD_TO_HEAD, 2) == [[0.5, 0.75], [0.25, 0.5]]


def test_length_summary():
    summary = stats.length_summary([50, 60, 40, 70])
    assert summary["mean"] == 55 and summary["median"] == 55
    assert (summary["min"], summary["max"]) == (40, 70)


def test_summary_and_report_of_two_agents():
    summary = stats.summarize(HEAD_TO_HEAD, ["A", "B"])
    a, b = summary["agent_results"]
    assert (a["wins"], a["draws"], a["losses"], a["score"]) == (2, 1, 1, 0.625)
    assert a["elo"] == pytest.approx(-b["elo"]) and summary["elo_prior_draws"] == 0
    head = summary["head_to_head"]
    assert head["elo_difference"] == pytest.approx(400 * math.log10(0.625 / 0.375))
    assert summary["pairings"] == [
        {"agent": "A", "opponent": "B", "wins": 2, "losses": 1, "draws": 1, "games": 4, "score": 0.625}
    ]
    lines = format_report(summary, "title")
    assert "Score of A vs B: 2 - 1 - 1 [0.625] 4" in lines
    assert f"Elo difference: {head['elo_difference']:+.1f} ± {head['elo_interval']:.1f}" in lines


def test_a_round_robin_reports_every_pairing():
    games = outcomes(
        [([0, 1], [30, 20], [1, 0], 50), ([2, 0], [25, 25], [0.5, 0.5], 60), ([1, 2], [10, 40], [0, 1], 40)]
    )
    summary = stats.summarize(games, ["A", "B", "C"])
    assert [
        (row["agent"], row["opponent"], row["wins"], row["losses"], row["draws"]) for row in summary["pairings"]
    ] == [("A", "B", 1, 0, 0), ("A", "C", 0, 0, 1), ("B", "C", 0, 1, 0)]
    lines = format_report(summary, "title")
    assert "  A vs C: 0 - 0 - 1 [0.500] 1" in lines and summary["head_to_head"] is None
    assert summary["elo_prior_draws"] == 1  # B scored nothing against A and C


def test_one_agent_reports_seats_only():
    games = outcomes([([0, 0], [10, 20], [0, 1], 30), ([0, 0], [15, 5], [1, 0], 30)])
    summary = stats.summarize(games, ["greedy"])
    assert summary["agent_results"][0]["games"] == 0 and summary["head_to_head"] is None
    assert [row["win_share"] for row in summary["seat_results"]] == [0.5, 0.5]
    assert "one agent in every game: no results between agents" in format_report(summary, "t")
