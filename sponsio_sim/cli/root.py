"""The `sponsio` root command (``main``), apart from the package so that the commands
registered at once (``cache``, ``report``, ``rules``) import it without importing the
package that imports them: no module-level import cycle."""

from tabletop_mc.clitools import game_cli

main = game_cli("sponsio", """Sponsio bet-odds calculator and strategy analyser.

    \b
    Example:
      sponsio odds --hand "R9 R7 R2 B8 B5 G6 G1 Y3" --talon "R1 B9 G4 Y7"
    """, {name: f"sponsio_sim.cli.{module}" for name, module in (
    ("odds", "odds"), ("advise", "advise"), ("table", "table"), ("serve", "serve"), ("dd", "dd"), ("game", "game"),
    ("tournament", "game"), ("matrix", "game"), ("fit", "game"), ("balance", "balance"), ("recommend", "balance"),
    ("sweep", "sweep"), ("meta", "meta"), ("train", "train"), ("exploit", "strategy"))})

