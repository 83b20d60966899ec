"""The `caesar` root command (``main``), apart from the package so that the commands
registered at once (``cache``, ``report``, ``rules``) import it without importing the
package that imports them: no module-level import cycle."""

from tabletop_mc.clitools import game_cli

main = game_cli("caesar", """Circus Maximus Monte Carlo analyser: strategies, win rates and venue-bid values.

    \b
    Example:
      caesar simulate --players 4 --profile "value,value,greedy,mc" -n 20000 --rotate
    """, {name: f"caesar_sim.cli.{module}" for name, module in (
    ("game", "play"), ("simulate", "play"), ("bids", "play"), ("sweep", "play"), ("tune", "strategy"),
    ("exploit", "strategy"), ("distill", "meta"), ("meta", "meta"), ("train", "train"))})
