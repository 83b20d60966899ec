"""The `sponsio` root command (``main``), apart from the package so that the commands
registered at once (``cache``, ``report``, ``rules``) import it without importing the
package that imports them: no module-level import cycle."""

from tabletop_mc.clitools import game_cli


def warm(command: str, args: list[str]) -> None:
    """Start the compile helper of a command with a plan (``tabletop_mc.warmup``: ``sponsio_sim/plans``,
    ``scripts/make_compile_plans.py``), unless only its help is asked for."""
    if "--help" in args or "-h" in args:
        return
    plan = {"odds": "odds", "advise": "advise", "game": "game"}.get(command)
    if plan is None:
        return
    from tabletop_mc import warmup
    if command == "game" and any(seat.strip().startswith("mc")
                                 for seat in (warmup.option_value(args, "--profile") or "").split(",")):
        plan = "game-mc"
    warmup.begin("sponsio_sim", plan)


main = game_cli("sponsio", """Sponsio bet-odds calculator and strategy analyser.

    \b
    Example:
      sponsio odds --hand "R9 R7 R2 B8 B5 G6 G1 Y3" --talon "R1 B9 G4 Y7"
    """, {name: f"sponsio_sim.cli.{module}" for name, module in (
    ("odds", "odds"), ("advise", "advise"), ("table", "table"), ("serve", "serve"), ("dd", "dd"), ("game", "game"),
    ("tournament", "game"), ("matrix", "game"), ("fit", "game"), ("balance", "balance"), ("recommend", "balance"),
    ("sweep", "sweep"), ("meta", "meta"), ("train", "train"), ("exploit", "strategy"))}, warm=warm)

