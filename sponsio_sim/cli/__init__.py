"""`sponsio` command line: thin click wrappers over sponsio_sim.analysis."""

import click

from tabletop_mc.clitools import LazyGroup


# Each command's module is imported when that command runs: `sponsio --help`
# needs click alone. The short help must equal the command's own (a test checks).
COMMANDS = {
    "odds": ("sponsio_sim.cli.odds", "Odds, EV and fair multiplier of each bet for your hand."),
    "advise": ("sponsio_sim.cli.advise",
               "Every legal action of a decision, ranked: a betting action, a cash-in or a card to play, by the "
               "round's expected coins (95 % CI), each bet's chance and the chance to win the game."),
    "table": ("sponsio_sim.cli.table", "A warm session at the table: type the round as it happens, ask for odds and "
                                       "advice at any point."),
    "dd": ("sponsio_sim.cli.dd", "Exact (double-dummy) results with every hand known."),
    "game": ("sponsio_sim.cli.game", "Play one whole game and print it round by round."),
    "tournament": ("sponsio_sim.cli.game",
                   "Many games of one profile: win rates, coins, trolls and bets per entry."),
    "matrix": ("sponsio_sim.cli.game", "Win rate of one seat playing A against every other seat playing B."),
    "fit": ("sponsio_sim.cli.game", "Fit the ev policy's success model by simulation and print its calibration."),
    "balance": ("sponsio_sim.cli.balance",
                "Choice balance of the bets under strong play: per bet type its share of the bets placed, "
                "restricted-play value, hit rate, EV per coin and RTP; trolling; game length; seats; coin flow."),
    "recommend": ("sponsio_sim.cli.balance",
                  "Multiplier tables ranked by the choice-balance criterion: every type's restricted-play value "
                  "and share of bets, the troll share and the game length inside their bands."),
    "sweep": ("sponsio_sim.cli.sweep",
              "Lever-to-effect tables: what each rule-set number does to the seat gap, game length, troll share, "
              "bet mix, lead changes and comebacks, against the unchanged rule set."),
    "meta": ("sponsio_sim.cli.meta",
             "The equilibrium of a strategy population: its payoff table, mixture and every member's regret."),
    "exploit": ("sponsio_sim.cli.strategy",
                "How much one seat gains by deviating from a profile (is it close to equilibrium?)."),
    "report": ("sponsio_sim.cli.report", "Build the designer report: findings first, then the evidence."),
    "rules": ("sponsio_sim.cli.rules", "The shipped rule sets, and the effective rule set as TOML."),
    "cache": ("sponsio_sim.cli.cache",
              "Show or clear the caches (compiled kernels, finished batches, fitted models)."),
}


@click.group("sponsio", cls=LazyGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sponsio-sim", prog_name="sponsio", message="%(prog)s %(version)s")
def main():
    """Sponsio bet-odds calculator and strategy analyser.

    \b
    Example:
      sponsio odds --hand "R9 R7 R2 B8 B5 G6 G1 Y3" --talon "R1 B9 G4 Y7"
    """


def _rules_meta(params):
    """Rule set name, source and changed fields for JSON ``meta`` (see tabletop_mc.clitools)."""
    from tabletop_mc.rulecli import rules_meta
    from sponsio_sim.cli.rules import load
    return rules_meta(load, params, players=params.get("players"))


main.rules_meta = _rules_meta
