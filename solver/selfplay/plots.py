"""PNG plots of a run's outcomes: scores, win share by seat and agent, game length."""

import io
from pathlib import Path

import numpy as np

from tessera.errors import require_extra
from tessera.selfplay.files import write_atomically

PLOTS = {"scores": "scores.png", "seats": "seats.png", "lengths": "lengths.png"}
DPI = 110
MAX_BINS = 80


def write_plots(out_dir, outcomes, labels, stats):
    """Write the three plots into ``out_dir``, each whole or not at all; returns their paths.
    Raises ``files.WriteError`` at the first that cannot be written; ``MissingExtra`` without
    matplotlib (the ``selfplay`` extra's)."""
    matplotlib = require_extra("matplotlib", "selfplay", "writing the self-play plots")
    matplotlib.use("Agg")  # files only: no display needed
    from matplotlib import pyplot

    paths = []
    for name, draw in (("scores", _scores), ("seats", _seats), ("lengths", _lengths)):
        figure, axes = pyplot.subplots(figsize=(7, 4.2))
        draw(axes, outcomes, labels, stats)
        figure.tight_layout()
        image = io.BytesIO()
        figure.savefig(image, format="png", dpi=DPI)
        pyplot.close(figure)
        path = Path(out_dir) / PLOTS[name]
        write_atomically(path, image.getvalue())
        paths.append(path)
    return paths


def _scores(axes, outcomes, labels, stats):
    """Final scores of each agent's seats, one step histogram per agent."""
    bins = _whole_number_bins(outcomes.scores)
    for a, label in enumerate(labels):
        scores = outcomes.scores[outcomes.seats == a]
        if len(scores):
            axes.hist(scores, bins=bins, histtype="step", linewidth=1.5, label=label)
    axes.set_xlabel("final score")
    axes.set_ylabel("seats")
    axes.set_title(f"Score distribution ({outcomes.games:,} games)")
    axes.legend()


def _seats(axes, outcomes, labels, stats):
    """Win share by seat: one bar group per seat, a bar per agent and one for all."""
    seats = stats["seats"]
    groups = list(zip(labels, stats["seat_agent_shares"]))
    if len(labels) > 1:
        groups.append(("all", [row["win_share"] for row in stats["seat_results"]]))
    width = 0.8 / len(groups)
    positions = np.arange(seats)
    for i, (label, shares) in enumerate(groups):
        values = [np.nan if share is None else 100 * share for share in shares]
        axes.bar(positions + (i - (len(groups) - 1) / 2) * width, values, width, label=label)
    axes.axhline(100 / seats, color="black", linewidth=0.8, linestyle="--", label="fair share")
    axes.set_xticks(positions, [f"seat {s + 1}" for s in range(seats)])
    axes.set_ylabel("win share (%)")
    axes.set_title("Win share by seat and agent")
    axes.legend(fontsize="small")


def _lengths(axes, outcomes, labels, stats):
    axes.hist(outcomes.lengths, bins=_whole_number_bins(outcomes.lengths))
    axes.set_xlabel("player moves in the game")
    axes.set_ylabel("games")
    axes.set_title(f"Game length ({outcomes.games:,} games)")


def _whole_number_bins(values):
    """Bin edges halfway between whole numbers, each bin as many numbers wide, at most
    ``MAX_BINS`` bins: whole-number data then never piles up unevenly across bins."""
    low, high = (int(values.min()), int(values.max())) if values.size else (0, 1)
    width = -(-(high - low + 1) // MAX_BINS)
    return np.arange(low, high + width + 1, width) - 0.5
