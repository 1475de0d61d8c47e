"""``python -m solver`` runs the ``tessera`` command line."""
from solver.cli import main

main()
