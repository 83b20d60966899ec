"""`sponsio` command line: thin click wrappers over sponsio_sim.analysis.

Each command's module is imported when that command runs (``sponsio --help``
needs click alone; ``tabletop_mc.clitools.LazyGroup``); ``rules``, ``cache``
and ``report``, light, are registered at once.
"""

from tabletop_mc.clitools import game_cli

main = game_cli("sponsio", """Sponsio bet-odds calculator and strategy analyser.

    \b
    Example:
      sponsio odds --hand "R9 R7 R2 B8 B5 G6 G1 Y3" --talon "R1 B9 G4 Y7"
    """, {name: f"sponsio_sim.cli.{module}" for name, module in (
    ("odds", "odds"), ("advise", "advise"), ("table", "table"), ("serve", "serve"), ("dd", "dd"), ("game", "game"),
    ("tournament", "game"), ("matrix", "game"), ("fit", "game"), ("balance", "balance"), ("recommend", "balance"),
    ("sweep", "sweep"), ("meta", "meta"), ("train", "train"), ("exploit", "strategy"))})


def _rules_meta(params):
    """Rule set name, source and changed fields for JSON ``meta`` (see tabletop_mc.clitools)."""
    from tabletop_mc.rulecli import rules_meta
    from sponsio_sim.cli.rules import load
    return rules_meta(load, params, players=params.get("players"))


main.rules_meta = _rules_meta

from sponsio_sim.cli import cache, report, rules  # noqa: E402,F401  (light: registered at once)
