"""`sponsio rules list|show`: the shipped rule sets and the effective one."""

import click

from tabletop_mc.cliparams import StrictInt
from tabletop_mc.rulecli import rules_group, rules_meta
from sponsio_sim.cli.root import main


def load(rules, overrides, players=None):
    from sponsio_sim.rules import load_rules
    return load_rules(rules, players, overrides)


def _base(ruleset, rules, players=None):
    return load(rules, (), players)


# rule set name, source and changed fields for JSON ``meta`` (``tabletop_mc.clitools``)
main.rules_meta = lambda params: rules_meta(load, params, players=params.get("players"))


rules_group(main, "sponsio", "sponsio_sim.rules", load, _base, "multiplier.last=3",
            extra_options=[click.option("--players", type=StrictInt(), default=None,
                                        help="3 or 4: the standard set for that many players.")])
