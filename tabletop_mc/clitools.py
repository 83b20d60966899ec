"""CLI conventions shared by the game commands.

Every command takes ``--seed``, ``--format``, ``--rules``, ``--set`` and
``--threads``; bad input of any kind (ours or click's) is one line on stderr
``error: ...`` and exit status 2, with no traceback and no partial output.
Standard output that cannot take the results is one line on stderr and exit
status 1: closed (``>&-``: said before any work), full (``/dev/full``), or a
pipe whose reader has gone.
"""

from __future__ import annotations

import errno
import os
import sys

import click
import click.utils

from tabletop_mc.cliparams import StrictInt, positive_int, seed_type
from tabletop_mc.errors import OutputError, RunError, UserError
from tabletop_mc.cliparams import FORMATS

DIST_NAME = "sponsio-sim"


def package_version() -> str:
    """The installed distribution's version (both CLIs ship in one)."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version(DIST_NAME)
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "unknown"


def current_meta() -> dict:
    """The ``meta`` object of JSON output: what ran, with which seed, rules and version.

    The root group may define ``rules_meta(params)`` returning the rule set's
    name, source and the fields ``--set`` changed."""
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return {"version": package_version()}
    params = dict(ctx.params)
    # How the work was spread (threads, Dask) never changes the numbers: not part of meta,
    # so a local and a Dask run print the very same JSON.
    options = {k: v for k, v in params.items() if k not in ("threads", "workers", "scheduler")}
    meta = {"command": ctx.command_path, "options": options, "seed": params.get("seed")}
    rules_meta = getattr(ctx.find_root().command, "rules_meta", None)
    if rules_meta is not None and ("rules" in params or "overrides" in params):
        try:
            meta["rules"] = rules_meta(params)
        except UserError:
            meta["rules"] = None
    meta["version"] = package_version()
    return meta



class Interrupted(Exception):
    """Ctrl-C while a command ran (click would print a blank line before ``Aborted!``)."""


class Terminate(KeyboardInterrupt):
    """SIGTERM, raised in the main thread: every clean-up an interrupt runs (closing a
    cluster, removing temporary files) runs for it too."""


class Terminated(Exception):
    """SIGTERM while a command ran."""


class StdoutError(Exception):
    """Printing the results failed: standard output is full or its reader has gone (click
    itself would end a broken pipe with exit status 1 and no word)."""


def _stdout_error(exc: OSError) -> Exception:
    """``exc`` as a ``StdoutError`` if it came from printing (``click.echo``), else itself."""
    if not _written_to_stdout(exc):
        return exc
    why = "its reader closed the pipe" if exc.errno == errno.EPIPE else (exc.strerror or str(exc))
    return StdoutError(f"cannot write to standard output ({why}): the output is incomplete")


class EndOfFile(Exception):
    """A file ended early (``EOFError``), which click would take for Ctrl-D."""


class OneLineErrorGroup(click.Group):
    """A click group that reports every input error as one line, exit 2;
    Ctrl-C is one line ``aborted (interrupted)``, exit 130; SIGTERM one line
    ``aborted (terminated)``, exit 143. Both leave no partial output file and
    keep the finished batches, so the same command resumes."""

    def make_context(self, info_name, args, parent=None, **extra):
        try:   # --help and --version print while the arguments are parsed
            return super().make_context(info_name, args, parent=parent, **extra)
        except OSError as exc:
            raise _stdout_error(exc) from None

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except OSError as exc:
            raise _stdout_error(exc) from None
        except Terminate:
            raise Terminated() from None
        except KeyboardInterrupt:
            raise Interrupted() from None
        except EOFError as exc:
            raise EndOfFile(str(exc)) from None

    def main(self, args=None, prog_name=None, **extra):
        from tabletop_mc import progress
        progress.set_mode("auto")  # until --progress / --quiet say otherwise
        extra.pop("standalone_mode", None)  # always standalone: errors are one line, exit 2
        if _stdout_closed():
            _fail("standard output is closed: there is nowhere to print the results (give it a file or a pipe)",
                  status=1)
        previous = _on_sigterm(_raise_terminate)
        try:
            rv = super().main(args=args, prog_name=prog_name, standalone_mode=False, **extra)
        except StdoutError as exc:
            _discard_stdout()
            _fail(str(exc), status=1)
        except UserError as exc:
            _fail(str(exc))
        except (OutputError, RunError) as exc:
            _fail(str(exc), status=1)
        except click.exceptions.NoArgsIsHelpError as exc:  # pragma: no cover - click >= 8.2
            click.echo(exc.ctx.get_help())
            sys.exit(0)
        except click.UsageError as exc:
            _fail(exc.format_message() if hasattr(exc, "format_message") else str(exc))
        except click.ClickException as exc:
            _fail(exc.format_message())
        except (Interrupted, click.exceptions.Abort):
            _ignore_further_interrupts()
            click.echo("aborted (interrupted)", err=True)
            sys.exit(130)
        except Terminated:
            _ignore_further_interrupts()
            click.echo("aborted (terminated)", err=True)
            sys.exit(143)
        except EndOfFile as exc:
            _fail(f"a file ended early ({exc or 'EOFError'}); if it is one of this tool's cache files, "
                  f"`{self.name} cache clear` removes them", status=1)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        finally:
            _on_sigterm(previous)
        if isinstance(rv, int) and rv:
            sys.exit(rv)
        sys.exit(0)


class LazyGroup(OneLineErrorGroup):
    """A group whose commands live in modules imported only when a command runs
    (or its own --help is asked for), so ``--help`` and ``--version`` start quickly.

    ``lazy`` maps a command name to its module; importing the module
    registers the command on the group (``@main.command("name")``). The
    group's --help lists each command's short help read from the command's
    docstring in the module's source, without importing it: the short help
    is written once, where the command is."""

    def __init__(self, *args, lazy: dict[str, str] | None = None, warm=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})
        self.warm = warm

    def resolve_command(self, ctx, args):
        """``warm(name, args)``, if given, runs first: it may start the command's compile helper
        (``tabletop_mc.warmup``) before the command's module is imported."""
        if self.warm is not None and args and not ctx.resilient_parsing:
            self.warm(args[0], args[1:])
        return super().resolve_command(ctx, args)

    def list_commands(self, ctx):
        return sorted(set(super().list_commands(ctx)) | set(self.lazy))

    def get_command(self, ctx, name):
        if name not in self.commands and name in self.lazy:
            import importlib
            importlib.import_module(self.lazy[name])
        return super().get_command(ctx, name)

    def format_commands(self, ctx, formatter):
        limit = formatter.width - 6 - max(len(n) for n in self.list_commands(ctx))
        rows = []
        for name in self.list_commands(ctx):
            cmd = self.commands.get(name) or click.Command(name, help=source_help(self.lazy[name], name))
            if not cmd.hidden:
                rows.append((name, cmd.get_short_help_str(limit)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def _stdout_closed() -> bool:
    """Standard output is not open (``>&-``); a stream without a descriptor (a test's) is open."""
    if sys.stdout is None:
        return True
    try:
        fd = sys.stdout.fileno()
    except (OSError, ValueError):
        return False
    try:
        os.fstat(fd)
    except OSError:
        return True
    return False


def _written_to_stdout(exc: BaseException) -> bool:
    """Did ``exc`` come from printing (``click.echo``, which every result and help text goes
    through) rather than from a file?"""
    tb = exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_name == "echo" and code.co_filename == click.utils.__file__:
            return True
        tb = tb.tb_next
    return False


def _discard_stdout() -> None:
    """Point standard output at the null device, so what is still buffered is not retried at exit."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError, AttributeError):
        pass
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass


def _raise_terminate(signum, frame):
    raise Terminate()


def _on_sigterm(handler):
    """Install ``handler`` for SIGTERM (main thread only); returns the one it replaces."""
    import signal
    import threading
    if handler is None or threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGTERM, handler)


class ModeGroup(click.Group):
    """A command split into subcommands, one job each, that still reads the
    form it had before the split: arguments that name no subcommand run
    ``default`` (``sponsio odds --hand ...`` is ``sponsio odds hand --hand
    ...``). Such arguments holding an option only another subcommand takes,
    or a flag of ``flags`` (a flag that chose a mode -> the subcommand it
    became), are one line naming that subcommand's form, exit 2 (the old
    form of that mode)."""

    def __init__(self, *args, default: str, flags: dict[str, str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.default = default
        self.flags = dict(flags or {})

    def parse_args(self, ctx, args):
        if args and args[0] not in self.commands and args[0] not in ctx.help_option_names:
            flag = next((a for a in args if a in self.flags), None)
            if flag is not None:
                raise _moved(ctx, flag, self.flags[flag], [a for a in args if a != flag], keep=False)
            ctx.meta[(self, "unnamed")] = list(args)
            args = [self.default, *args]
        return super().parse_args(ctx, args)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except click.NoSuchOption as exc:
            unnamed = ctx.meta.get((self, "unnamed"))
            moved = next((name for name, cmd in self.commands.items() if unnamed is not None and name != self.default
                          and any(exc.option_name in p.opts + p.secondary_opts for p in cmd.params)), None)
            if moved is None:
                raise
            raise _moved(ctx, exc.option_name, moved, unnamed, keep=True) from None


def _moved(ctx, option: str, command: str, args: list[str], *, keep: bool) -> UserError:
    """The one line for an old form: ``option`` (kept in the new form, or a flag the subcommand
    replaces) is now subcommand ``command``; ``args``: the rest of the old form."""
    import shlex
    path = ctx.command_path
    return UserError(f"`{path} {option} ...` is now `{path} {command}{' ' + option if keep else ''} ...`, the same "
                     f"options{'' if keep else ' without ' + option}: {path} {command} {shlex.join(args)}")


def gather(name: str, make, *params: str):
    """A decorator: the command's click parameters ``params`` reach it as
    one argument ``name``, ``make(**those)``, so a command of many options
    takes a few objects. Click has parsed them already: ``ctx.params``, and
    with it the JSON ``meta``'s options, still name each one."""
    import functools

    def decorate(f):
        @functools.wraps(f)
        def command(**kwargs):
            kwargs[name] = make(**{p: kwargs.pop(p) for p in params})
            return f(**kwargs)
        return command
    return decorate


def game_cli(prog: str, help: str, lazy: dict[str, str], warm=None) -> LazyGroup:
    """A game's root command ``prog``: ``-h``/``--help``, ``--version``, and the
    commands of ``lazy`` (name -> module, ``LazyGroup``; ``warm``: its compile helper hook)."""
    group = LazyGroup(prog, lazy=lazy, warm=warm, help=help,
                      context_settings={"help_option_names": ["-h", "--help"]})
    return click.version_option(package_name=DIST_NAME, prog_name=prog, message="%(prog)s %(version)s")(group)


def source_help(module: str, name: str) -> str:
    """The docstring of command ``name`` in ``module``, read from its source
    (not imported): the function decorated ``@<group>.command(...)`` or
    ``@<group>.group(...)`` that click names ``name``."""
    import ast
    import importlib.util
    from pathlib import Path

    tree = ast.parse(Path(importlib.util.find_spec(module).origin).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            for dec in node.decorator_list:
                if (isinstance(dec, ast.Call) and isinstance(dec.func, ast.Attribute)
                        and dec.func.attr in ("command", "group") and _click_name(dec, node.name) == name):
                    return ast.get_docstring(node) or ""
    raise LookupError(f"{module} defines no command {name!r}")


def _click_name(decorator, function: str) -> str:
    """The name click gives the command a ``command``/``group`` decorator call makes of ``function``."""
    import ast
    for arg in decorator.args[:1] + [k.value for k in decorator.keywords if k.arg == "name"]:
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            return arg.value

    def fn():
        pass

    fn.__name__ = function   # click's own naming (dashes, suffixes such as _cmd dropped)
    return click.command()(fn).name


def _ignore_further_interrupts() -> None:
    """A second Ctrl-C while exiting (clean-up, atexit hooks) must not print a traceback."""
    import signal
    import threading
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)


def _fail(message: str, status: int = 2) -> None:
    message = " ".join(str(message).split())
    click.echo(f"error: {message}", err=True)
    sys.exit(status)


def _set_progress(ctx, param, value):
    """--progress / --quiet: how progress shows on stderr (``tabletop_mc.progress.MODE``)."""
    from tabletop_mc import progress
    if value is not None:
        progress.set_mode(value)
    return value


def common_options(func=None, *, set_example: str = "multiplier.last=3",
                   rules_default: str = "the standard set for --players"):
    """Add the options every simulation command shares; ``set_example`` is the
    game's own ``--set`` example (use as ``@common_options`` or ``@common_options(set_example=...)``)."""
    def decorate(f):
        options = [
            click.option("--seed", type=seed_type(), default=1, show_default=True,
                         help="Random seed, any integer; the same seed gives the same numbers on any "
                              "thread count."),
            click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
                         help="Output format."),
            click.option("--rules", "rules", default=None,
                         help=f"Rule set: a shipped name or a TOML file (default: {rules_default})."),
            click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE",
                         help=f"Override a rule-set field, e.g. --set {set_example} (repeatable)."),
            click.option("--threads", type=positive_int(), default=None,
                         help="Worker threads (default: all cores; more than the cores count as all)."),
            click.option("--progress", "progress_mode", flag_value="on", default=None, expose_value=False,
                         callback=_set_progress, is_eager=True,
                         help="Progress lines on stderr every few seconds even when it is not a terminal "
                              "(on a terminal: a bar)."),
            click.option("--quiet", "-q", "progress_mode", flag_value="off", expose_value=False,
                         callback=_set_progress, is_eager=True, help="No progress bar or notes on stderr."),
        ]
        for opt in reversed(options):
            f = opt(f)
        return f
    return decorate(func) if func is not None else decorate


def emit(text: str) -> None:
    """Write a finished result to stdout in one go (never a partial table)."""
    click.echo(text)


def _check_scheduler(ctx, param, value):
    """--scheduler: the address parsed and a Dask scheduler found there before any work runs."""
    if value is not None:
        from tabletop_mc.backend import probe_scheduler
        probe_scheduler(value)
    return value


def scale_options(func):
    """Add --scheduler / --workers: run the batches on a Dask cluster."""
    options = [
        click.option("--scheduler", default=None, metavar="tcp://HOST:PORT", callback=_check_scheduler,
                     help="Run the batches on this Dask distributed scheduler (same numbers as locally); "
                          "checked before any work."),
        click.option("--workers", type=StrictInt(1, 256), default=None,
                     help="Start a local Dask cluster with this many worker processes."),
    ]
    for opt in reversed(options):
        func = opt(func)
    return func
