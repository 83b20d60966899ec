"""`caesar rules list|show`: the shipped rule sets and the effective one."""

from tabletop_mc.rulecli import rules_group, rules_meta
from caesar_sim.cli.root import main
from caesar_sim.cli.options import SET_EXAMPLE, load_rules

rules_group(main, "caesar", "caesar_sim.rules", load_rules, lambda ruleset, rules: load_rules(rules, ()),
            SET_EXAMPLE)
main.rules_meta = lambda params: rules_meta(load_rules, params)
