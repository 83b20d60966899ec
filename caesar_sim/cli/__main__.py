"""`python -m caesar_sim.cli`: the `caesar` command line."""

from caesar_sim.cli import main

main()
