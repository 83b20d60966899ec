"""`caesar` command line: parse, call the analysis layer, print (results on stdout only).

Each command's module is imported when that command runs (``caesar --help``
needs click alone; ``tabletop_mc.clitools.LazyGroup``), and imports the
analysis layer only inside the command; ``rules``, ``cache`` and ``report``,
light, are registered at once.
"""

from caesar_sim.cli.root import main  # noqa: F401  (the entry point: caesar_sim.cli:main)
from caesar_sim.cli import cache, report, rules  # noqa: F401  (light: registered at once)
