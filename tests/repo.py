"""Files of the repository beyond the installed package (docs/, bench/).

Tests that read them carry the ``repo`` marker: they check the repository (its
documented examples, its benchmark scripts), not the package a user installs, and
``python -m pytest -m "not repo"`` leaves them out.
"""

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def repo_text(relative):
    """The text of the repository file at ``relative`` (e.g. ``docs/azul-notation.md``)."""
    return (REPO / relative).read_text(encoding="utf-8")
