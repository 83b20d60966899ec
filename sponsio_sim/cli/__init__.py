"""`sponsio` command line: thin click wrappers over sponsio_sim.analysis."""

import click

from mcsim.clitools import OneLineErrorGroup


@click.group(cls=OneLineErrorGroup, context_settings={"help_option_names": ["-h", "--help"]})
def main():
    """Sponsio bet-odds calculator and strategy analyser.

    \b
    Example:
      sponsio odds --hand "R9 R7 R2 B8 B5 G6 G1 Y3" --talon "R1 B9 G4 Y7"
    """


from sponsio_sim.cli import odds as _odds  # noqa: E402,F401  (registers the command)
from sponsio_sim.cli import dd as _dd  # noqa: E402,F401  (registers the command)
from sponsio_sim.cli import game as _game  # noqa: E402,F401  (registers game, tournament, matrix, fit)
from sponsio_sim.cli import balance as _balance  # noqa: E402,F401  (registers balance, recommend)
from sponsio_sim.cli import strategy as _strategy  # noqa: E402,F401  (registers exploit)
