"""`caesar` command line: parse, call the analysis layer, print (results on stdout only).

Each command's module is imported when that command runs (``caesar --help``
needs click alone; ``tabletop_mc.clitools.LazyGroup``), and imports the
analysis layer only inside the command; ``rules``, ``cache`` and ``report``,
light, are registered at once.
"""

from tabletop_mc.clitools import game_cli

main = game_cli("caesar", """Circus Maximus Monte Carlo analyser: strategies, win rates and venue-bid values.

    \b
    Example:
      caesar simulate --players 4 --profile "value,value,greedy,mc" -n 20000 --rotate
    """, {name: f"caesar_sim.cli.{module}" for name, module in (
    ("game", "play"), ("simulate", "play"), ("bids", "play"), ("sweep", "play"), ("tune", "strategy"),
    ("exploit", "strategy"), ("distill", "meta"), ("meta", "meta"), ("train", "train"))})

from caesar_sim.cli import cache, report, rules  # noqa: E402,F401  (light: registered at once)
