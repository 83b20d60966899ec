"""`sponsio` command line: thin click wrappers over sponsio_sim.analysis.

Each command's module is imported when that command runs (``sponsio --help``
needs click alone; ``tabletop_mc.clitools.LazyGroup``); ``rules``, ``cache``
and ``report``, light, are registered at once.
"""

from sponsio_sim.cli.root import main  # noqa: F401  (the entry point: sponsio_sim.cli:main)
from sponsio_sim.cli import cache, report, rules  # noqa: F401  (light: registered at once)
