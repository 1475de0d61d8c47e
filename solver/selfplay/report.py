"""The statistics of ``stats.summarize`` as the text that ``tessera stats`` prints."""


def format_report(stats, title):
    """Lines of text: results and Elo per agent, margins, seats, lengths, head to head."""
    lines = [title, ""]
    if stats["games"] == 0:
        return lines + ["no finished games yet"]
    agents = [row for row in stats["agent_results"] if row["games"]]
    if agents:
        lines += _agent_table(agents, stats["elo_prior_draws"]) + [""]
        if len(stats["pairings"]) > 1:
            lines += _pairings(stats["pairings"]) + [""]
        lines += _margins(agents) + [""]
    else:
        lines += ["one agent in every game: no results between agents", ""]
    lines += _seats(stats) + [""]
    if len(stats["agents"]) > 1:
        lines += _shares(stats) + [""]
    lines.append(_lengths(stats["lengths"]))
    if stats["head_to_head"]:
        lines += [""] + _head_to_head(stats["head_to_head"])
    return lines


def _agent_table(rows, prior_draws):
    width = max(len("agent"), *(len(row["agent"]) for row in rows))
    lines = [f"{'agent':<{width}}  {'games':>7}  {'wins':<20}  {'draws':<20}  {'losses':<20}  Elo"]
    for row in rows:
        cells = [
            _rate(row[kind], row["games"], row[f"{interval}_interval"])
            for kind, interval in (("wins", "win"), ("draws", "draw"), ("losses", "loss"))
        ]
        elo = _plus_minus(row["elo"], row["elo_interval"], 0)
        lines.append(
            f"{row['agent']:<{width}}  {row['games']:>7,}  {cells[0]:<20}  {cells[1]:<20}  {cells[2]:<20}  {elo}"
        )
    if prior_draws:
        lines.append(
            f"(Elo with {prior_draws:g} virtual draw per pairing: some agents scored "
            "nothing against the rest, and a clean sweep has no finite maximum)"
        )
    return lines


def _pairings(rows):
    lines = ["pairwise results (wins - losses - draws [score] results):"]
    lines += [
        f"  {row['agent']} vs {row['opponent']}: {row['wins']} - {row['losses']} - "
        f"{row['draws']} [{row['score']:.3f}] {row['games']}"
        for row in rows
    ]
    return lines


def _margins(rows):
    width = max(len(row["agent"]) for row in rows)
    lines = ["score margin (best own seat less the best seat of another agent), mean ± 95%:"]
    lines += [f"  {row['agent']:<{width}}  {_plus_minus(row['margin'], row['margin_interval'], 2)}" for row in rows]
    return lines


def _seats(stats):
    fair = 100 / stats["seats"]
    lines = [f"seats: win share [95%], advantage over the fair {fair:.1f}%, mean score"]
    for row in stats["seat_results"]:
        low, high = row["interval"]
        lines.append(
            f"  seat {row['seat']}  {100 * row['win_share']:5.1f}% "
            f"[{100 * low:.1f}, {100 * high:.1f}]  {100 * row['advantage']:+.1f}%  "
            f"{row['mean_score']:.2f}"
        )
    return lines


def _shares(stats):
    width = max(len(label) for label in stats["agents"])
    header = "".join(f"  {f'seat {s + 1}':>7}" for s in range(stats["seats"]))
    lines = ["win share by seat and agent:", f"  {'':<{width}}{header}"]
    for label, shares in zip(stats["agents"], stats["seat_agent_shares"]):
        cells = "".join(f"  {'-' if share is None else f'{100 * share:.1f}%':>7}" for share in shares)
        lines.append(f"  {label:<{width}}{cells}")
    return lines


def _lengths(lengths):
    parts = [f"mean {lengths['mean']:.1f}"]
    parts += [f"{name} {lengths[name]:g}" for name in ("min", "p10", "p25", "median", "p75", "p90", "max")]
    return "game length (player moves): " + " · ".join(parts)


def _head_to_head(row):
    difference = _plus_minus(row["elo_difference"], row["elo_interval"], 1)
    return [
        f"Score of {row['agent']} vs {row['opponent']}: {row['wins']} - {row['losses']} - "
        f"{row['draws']} [{row['score']:.3f}] {row['games']}",
        f"Elo difference: {difference}",
    ]


def _rate(count, games, interval):
    low, high = interval
    return f"{100 * count / games:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def _plus_minus(value, half_width, digits):
    if value is None:
        return "-"
    text = f"{value:+.{digits}f}"
    return text if half_width is None else f"{text} ± {half_width:.{digits}f}"
