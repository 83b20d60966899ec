"""``python -m sponsio_sim`` runs the ``sponsio`` command."""

from sponsio_sim.cli import main

main(prog_name="sponsio")
