"""``python -m tessera`` runs the ``tessera`` command line."""

from tessera.console import run

run()
