"""``python -m solver`` runs the ``tessera`` command line."""
from solver.console import run

run()
