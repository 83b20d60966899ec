"""CLI conventions shared by the game commands.

Every command takes ``--seed``, ``--format``, ``--rules``, ``--set`` and
``--threads``; bad input of any kind (ours or click's) is one line on stderr
``error: ...`` and exit status 2, with no traceback and no partial output.
"""

from __future__ import annotations

import sys

import click

from mcsim.errors import UserError
from mcsim.output import FORMATS


class OneLineErrorGroup(click.Group):
    """A click group that reports every input error as one line, exit 2."""

    def main(self, args=None, prog_name=None, **extra):
        try:
            rv = super().main(args=args, prog_name=prog_name, standalone_mode=False, **extra)
        except UserError as exc:
            _fail(str(exc))
        except click.exceptions.NoArgsIsHelpError as exc:  # pragma: no cover - click >= 8.2
            click.echo(exc.ctx.get_help())
            sys.exit(0)
        except click.UsageError as exc:
            _fail(exc.format_message() if hasattr(exc, "format_message") else str(exc))
        except click.ClickException as exc:
            _fail(exc.format_message())
        except click.exceptions.Abort:
            click.echo("aborted", err=True)
            sys.exit(1)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        if isinstance(rv, int) and rv:
            sys.exit(rv)
        sys.exit(0)


def _fail(message: str) -> None:
    message = " ".join(str(message).split())
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


def common_options(func):
    """Add the options every simulation command shares."""
    options = [
        click.option("--seed", type=int, default=1, show_default=True,
                     help="Random seed; the same seed gives the same numbers on any thread count."),
        click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
                     help="Output format."),
        click.option("--rules", "rules", default=None,
                     help="Rule set: a shipped name or a TOML file (default: the standard set for --players)."),
        click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE",
                     help="Override a rule-set field, e.g. --set multiplier.last=3 (repeatable)."),
        click.option("--threads", type=int, default=None,
                     help="Worker threads (default: all cores)."),
    ]
    for opt in reversed(options):
        func = opt(func)
    return func


def emit(text: str) -> None:
    """Write a finished result to stdout in one go (never a partial table)."""
    click.echo(text)


def scale_options(func):
    """Add --scheduler / --workers: run the batches on a Dask cluster."""
    options = [
        click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
                     help="Run the batches on this Dask distributed scheduler (same numbers as locally)."),
        click.option("--workers", type=int, default=None,
                     help="Start a local Dask cluster with this many worker processes."),
    ]
    for opt in reversed(options):
        func = opt(func)
    return func
