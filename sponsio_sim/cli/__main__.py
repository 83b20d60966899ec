"""``python -m sponsio_sim.cli`` runs the ``sponsio`` command."""

from sponsio_sim.cli import main

main()
