"""Seeded, seat-rotated matches between agents, this version's or a baseline's.

``match``: game ``i`` is dealt with seed ``S + i`` and its chance events are drawn from
that seed, as ``tessera.agents.play_game`` does; A sits in seat ``i mod N`` and B in
every other seat; the agent in seat ``k`` is seeded ``(S + i) * N + k``. So a run is
reproducible, and both sides meet the same deals from both seats. A spec ending in
``@base`` is played by the baseline (tessera.strength.baseline), and every move of the
baseline is checked against this version's rules: an illegal one stops the match with
an error naming it.

Its report gives A's wins (a shared win counts its share), draws and losses, the win
rate with its Wilson 95% interval, the mean margin (A's score less the best other
score) with its 95% interval, the same split by A's seat, and each side's wall time a
move (``ms_a_move``: median and quartiles of its agents' ``choose``, a baseline's timed
in its worker), so that a match meant to be at equal time can be seen to be.

``head_to_head``: the plainer 2-player pairing of bench/agent_strength.py, seeded its own way.
"""

import time

import numpy as np

from tessera.agents import GameRecord, parse_agent, play_game
from tessera.errors import OptionError, TesseraError
from tessera.games import get_game
from tessera.selfplay.stats import mean_interval, wilson
from tessera.strength.baseline import BASE_SUFFIX, RemoteAgent, VersusError


def play(game, options, seats, seed, move_seconds=None):
    """One game between ``seats`` (local agents and ``RemoteAgent``s), seat 1 first, chance
    drawn as in ``tessera.agents.play_game``; a baseline move is checked against the rules here.
    ``move_seconds``, if given, gets ``(seat, seconds)`` for every decision: the wall time
    of the agent's ``choose`` (a baseline's as its worker timed it)."""
    from tessera.kernels import games
    from tessera.kernels.rng import chance_rng

    state = game.new(seed, **options)
    if games.players(state) != len(seats):
        raise OptionError(f"{game.name} with these options has {games.players(state)} seats, not {len(seats)}")
    remote = [agent for agent in seats if isinstance(agent, RemoteAgent)]
    chance = chance_rng(seed)
    played = []
    while (who := games.to_move(state)) != games.TERMINAL:
        if who == games.CHANCE:
            games.resolve_chance(state, chance)
            continue
        view = game.view(state, who)
        position = game.format_position(view) if remote else None
        agent = seats[who]
        if isinstance(agent, RemoteAgent):
            text, seconds = agent.choose_text(position)
            try:
                move = game.parse_move(view, text)
            except TesseraError as err:
                raise VersusError(
                    f"baseline agent {agent.spec} in seat {who + 1} of game seed {seed} "
                    f"answered '{text}', which is not legal here: {err}"
                ) from None
        else:
            started = time.perf_counter()
            move = int(agent.choose(view))
            seconds = time.perf_counter() - started
        if move_seconds is not None:
            move_seconds.append((int(who), seconds))
        if remote:
            text = game.format_move(view, move)
            for other in remote:
                other.saw(position, text)
        played.append((int(who), int(move)))
        games.apply_move(state, move)
        for other in seats:
            if not isinstance(other, RemoteAgent):
                other.observe(move)
    scores = np.zeros(len(seats), np.int64)
    payoffs = np.zeros(len(seats), np.float64)
    games.scores(state, scores)
    games.payoffs(state, payoffs)
    for agent in remote:
        agent.drop()
    return GameRecord(
        game=game.name,
        options=dict(options),
        seed=seed,
        agents=[a.spec for a in seats],
        moves=played,
        scores=scores.tolist(),
        payoffs=payoffs.tolist(),
    )


def make_agent(spec, seed, baseline):
    """This version's agent for ``spec``, or the baseline's for a spec ending in ``@base``."""
    if spec.endswith(BASE_SUFFIX):
        if baseline is None:
            raise OptionError(f"'{spec}' asks for the baseline, but there is none")
        return baseline.agent(spec[: -len(BASE_SUFFIX)], seed)
    return parse_agent(spec, seed=seed)


def warm_up(game, options, specs, baseline):
    """One move of each agent on a start position, so no compilation falls inside a timed move."""
    from tessera.kernels import games

    start = game.new(0, **options)
    view = game.view(start, games.to_move(start))
    for spec in specs:
        agent = make_agent(spec, 0, baseline)
        if isinstance(agent, RemoteAgent):
            agent.choose_text(game.format_position(view))
            agent.drop()
        else:
            agent.choose(view)


def match(game_name, spec_a, spec_b, games_count, seed=0, players=2, options=None, baseline=None, warm=True):
    """A against B over ``games_count`` games (see the module docstring): (report, records),
    the records as (A's seat, ``GameRecord``)."""
    game = get_game(game_name)
    options = dict(options or {})
    if "players" in game.options:
        options["players"] = players
    if warm:
        warm_up(game, options, (spec_a, spec_b), baseline)
    records = []
    move_seconds = {"agent": [], "opponent": []}
    started = time.perf_counter()
    for i in range(games_count):
        game_seed = seed + i
        seat_a = i % players
        seats = [
            make_agent(spec_a if k == seat_a else spec_b, game_seed * players + k, baseline) for k in range(players)
        ]
        timed = []
        records.append((seat_a, play(game, options, seats, game_seed, timed)))
        for seat, seconds in timed:
            move_seconds["agent" if seat == seat_a else "opponent"].append(seconds)
    report = summarize(spec_a, spec_b, records, players, time.perf_counter() - started)
    report["ms_a_move"] = {side: _spread(times) for side, times in move_seconds.items()}
    return report, records


def _spread(seconds):
    """Median and quartiles of a side's wall times a move, in milliseconds."""
    if not seconds:
        return None
    q1, median, q3 = np.percentile(np.array(seconds) * 1e3, [25, 50, 75])
    return {"median": round(float(median), 2), "quartiles": [round(float(q1), 2), round(float(q3), 2)]}


def summarize(spec_a, spec_b, records, players, seconds):
    """The figures of A over ``records`` ((A's seat, ``GameRecord``) pairs), overall and by seat."""
    share = np.array([record.payoffs[seat] for seat, record in records])
    margin = np.array(
        [record.scores[seat] - max(s for k, s in enumerate(record.scores) if k != seat) for seat, record in records],
        np.float64,
    )
    seats = np.array([seat for seat, _ in records])
    report = {
        "agent": spec_a,
        "opponent": spec_b,
        "players": players,
        **_figures(share, margin),
        "mean_score": round(float(np.mean([r.scores[s] for s, r in records])), 2),
        "opponent_mean_score": round(
            float(np.mean([np.mean([x for k, x in enumerate(r.scores) if k != s]) for s, r in records])), 2
        ),
        "by_seat": [{"seat": k + 1, **_figures(share[seats == k], margin[seats == k])} for k in range(players)],
        "seconds": round(seconds, 1),
    }
    return report


def _figures(share, margin):
    games_count = len(share)
    won = int(np.sum(np.isclose(share, 1.0)))
    lost = int(np.sum(np.isclose(share, 0.0)))
    interval = wilson(float(share.sum()), games_count)
    mean, half = mean_interval(margin)
    return {
        "games": games_count,
        "wins": round(float(share.sum()), 2),
        "won": won,
        "drawn": games_count - won - lost,
        "lost": lost,
        "win_rate": round(float(share.mean()), 3) if games_count else None,
        "win_interval": [round(x, 3) for x in interval] if interval else None,
        "mean_margin": round(mean, 2) if mean is not None else None,
        "margin_interval": [round(mean - half, 2), round(mean + half, 2)] if half is not None else None,
    }


def describe(report):
    """A match report in one line."""
    by_seat = ", ".join(f"seat {row['seat']} {row['wins']:g}/{row['games']}" for row in report["by_seat"])
    lo, hi = report["win_interval"]
    times = "".join(
        f"; {side} {spread['median']} ms a move" for side, spread in report.get("ms_a_move", {}).items() if spread
    )
    return (
        f"{report['agent']} vs {report['opponent']} ({report['players']}p): "
        f"{report['wins']:g}/{report['games']} = {report['win_rate']:.3f} [{lo:.3f}, {hi:.3f}], "
        f"mean margin {report['mean_margin']:+.2f}, {by_seat}; {report['seconds']} s{times}"
    )


def head_to_head(spec, opponent, games, seed=0, game_name="azul"):
    """``spec`` against ``opponent`` over ``games`` 2-player games of this version's agents;
    the figures of ``spec``. Game ``i`` is dealt with seed ``seed + i``, ``spec`` moving first
    in even games and second in odd ones, the agent in seat ``k`` seeded ``2 (seed + i) + k``."""
    game = get_game(game_name)
    wins = margin = score = 0.0
    started = time.perf_counter()
    for i in range(games):
        seat = i % 2
        specs = [spec, opponent] if seat == 0 else [opponent, spec]
        agents = [parse_agent(s, seed=2 * (seed + i) + k) for k, s in enumerate(specs)]
        record = play_game(game, {"players": 2}, agents, seed + i)
        wins += record.payoffs[seat]
        margin += record.scores[seat] - record.scores[1 - seat]
        score += record.scores[seat]
    return {
        "agent": spec,
        "opponent": opponent,
        "games": games,
        "seed": seed,
        "wins": wins,
        "win_rate": round(wins / games, 3),
        "mean_margin": round(margin / games, 2),
        "mean_score": round(score / games, 2),
        "seconds": round(time.perf_counter() - started, 1),
    }
