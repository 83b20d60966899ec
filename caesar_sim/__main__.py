"""``python -m caesar_sim`` runs the ``caesar`` command."""

from caesar_sim.cli import main

main(prog_name="caesar")
