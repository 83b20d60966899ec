"""`rules list` and `rules show`: the shipped rule sets and the effective one, as TOML.

Each game CLI adds the group with its own loader, so ``show`` takes exactly
the options its simulations take (``--rules``, ``--set``, and for Sponsio
``--players``) and prints what they would play with.
"""

from __future__ import annotations

import json
from typing import Callable

import click

from tabletop_mc.cliparams import FORMATS
from tabletop_mc.clitools import emit
from tabletop_mc.rulefile import changed_fields, packaged_names, to_toml


def rules_meta(load: Callable, params: dict, **extra) -> dict:
    """Name, source and changed fields of the rule set a command ran with (for JSON ``meta``).
    Overrides that are not plain ``--set`` values (a sweep's alternatives) are listed as given."""
    from tabletop_mc.errors import UserError
    rules, overrides = params.get("rules"), tuple(params.get("overrides") or ())
    base = load(rules, (), **extra)
    try:
        effective = load(rules, overrides, **extra)
    except UserError:
        return {"name": base.name, "source": base.source, "overrides": list(overrides)}
    return {"name": effective.name, "source": effective.source,
            "changed": changed_fields(base.as_dict(), effective.as_dict())}


FORMAT = click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
                      help="Output format (table: TOML for `show`).")


def flat_fields(data: dict, prefix: str = "") -> list[tuple[str, str]]:
    """(dotted field, value) of every leaf of a rule set (lists as JSON), for CSV."""
    out = []
    for k, v in data.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict):
            out += flat_fields(v, key + ".")
        else:
            out.append((key, json.dumps(v) if isinstance(v, (list, tuple)) else str(v)))
    return out


def rules_group(main: click.Group, prog: str, package: str, load: Callable, base_of: Callable,
                set_example: str, extra_options=()) -> click.Group:
    """Register ``rules list`` / ``rules show`` on ``main``.

    ``load(rules, overrides, **extra)`` returns a RuleSet (``.as_dict()``,
    ``.summary()``, ``.name``, ``.source``); ``base_of(ruleset)`` the same rule
    set without overrides, to name the changed fields."""

    @main.group("rules")
    def group():
        """The shipped rule sets, and the effective rule set as TOML."""

    @group.command("list", help=f"Name and main numbers of every shipped rule set.\n\n\b\nExample:\n"
                                f"  {prog} rules list")
    @FORMAT
    def list_cmd(fmt):
        import pandas as pd   # here, not at start-up: `--help` imports no numerics
        from tabletop_mc.output import render
        sets = [load(name, ()) for name in packaged_names(package)]
        if fmt == "table":
            emit("\n".join(r.summary() for r in sets))
        else:
            emit(render(pd.DataFrame([{"name": r.name, "summary": r.summary()} for r in sets]), fmt))

    def show_cmd(rules, overrides, fmt, **extra):
        import pandas as pd
        from tabletop_mc.output import dumps, render
        ruleset = load(rules, overrides, **extra)
        changed = changed_fields(base_of(ruleset, rules, **extra).as_dict(), ruleset.as_dict())
        if fmt == "json":
            emit(dumps({"name": ruleset.name, "source": ruleset.source, "changed": changed,
                        "rules": ruleset.as_dict()}))
            return
        if fmt == "csv":
            emit(render(pd.DataFrame(flat_fields(ruleset.as_dict()), columns=["field", "value"]), "csv"))
            return
        header = (f"effective rule set {ruleset.name} (from {ruleset.source or 'shipped'})"
                  + (f"; changed by --set: {', '.join(changed)}" if changed else "")
                  + "\nsave as a file and pass it with --rules FILE; a partial file may start with "
                  + f'extends = "{ruleset.name if ruleset.source.startswith("shipped:") else "NAME"}"')
        emit(to_toml(ruleset.as_dict(), header).rstrip("\n"))

    show_cmd.__doc__ = f"""Print the effective rule set (after --rules and --set) as TOML.

    \b
    Example:
      {prog} rules show --set {set_example}
    """
    cmd = FORMAT(show_cmd)
    cmd = click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE",
                       help=f"Override a rule-set field, e.g. --set {set_example} (repeatable).")(cmd)
    cmd = click.option("--rules", "rules", default=None, help="Rule set: a shipped name or a TOML file.")(cmd)
    for opt in extra_options:
        cmd = opt(cmd)
    group.command("show")(cmd)
    return group
