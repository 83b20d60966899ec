"""The `report` command both games share: build the designer report into a folder."""

from __future__ import annotations

import inspect
import json
from typing import Callable

import click

from tabletop_mc.cliparams import positive_int, seed_type
from tabletop_mc.clitools import emit
from tabletop_mc.cliparams import FORMATS
from tabletop_mc.plotfile import dir_target


def report_command(group: click.Group, prog: str, build: Callable[[], Callable], example: str,
                   folders: tuple[str, ...] = ()) -> None:
    """Register ``PROG report --out DIR [--scale S] [--seed N]`` on ``group``; ``build()``
    returns the game's ``build_reports`` (imported when the command runs); ``folders``: the
    sub-folders it writes pages into (checked before any work, ``plotfile.dir_target``)."""

    @group.command("report")
    @click.option("--out", required=True, metavar="DIR", help="Folder for index.html, its CSV and PNG files.")
    @click.option("--scale", type=click.FloatRange(min=0.001, max=100), default=1.0, show_default=True,
                  help="Multiply every sample size (0.02: a quick look, 1: the committed report).")
    @click.option("--mc-scale", type=click.FloatRange(min=0.001, max=100), default=None,
                  help="Multiply the strong-play rung's sample size (every seat mc) by this instead of --scale "
                       "(its full size is 5,000 games).")
    @click.option("--seed", type=seed_type(), default=1, show_default=True, help="Random seed, any integer.")
    @click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
                  help="Output format of the summary printed at the end.")
    @click.option("--threads", type=positive_int(), default=None, help="Worker threads (default: all cores).")
    @click.option("--band", "bands", multiple=True, metavar="MEASURE=LO..HI",
                  help="The healthy band of a first-screen measure, e.g. 'troll share=0.2..0.35' (repeatable).")
    def report_cmd(out, scale, mc_scale, seed, fmt, threads, bands):
        from tabletop_mc.firstscreen import parse_band
        chosen = dict(parse_band(b) for b in bands)
        folder = dir_target(out, "--out", folders=folders)
        command = (f"{prog} report --out {out} --scale {scale:g}"
                   + (f" --mc-scale {mc_scale:g}" if mc_scale is not None else "") + f" --seed {seed}"
                   + "".join(f" --band '{b}'" for b in bands))
        index, findings = build()(folder, seed=seed, scale=scale, threads=threads, progress=None,
                                  command=command, with_findings=True, bands=chosen, mc_scale=mc_scale)
        if fmt == "json":
            emit(json.dumps({"meta": {"command": f"{prog} report", "seed": seed, "scale": scale,
                                      "mc_scale": mc_scale},
                             "index": str(index), "findings": findings}, indent=2))
        elif fmt == "csv":
            emit("finding\n" + "\n".join('"' + f.replace('"', '""') + '"' for f in findings))
        else:
            emit(f"report: {index}\nfindings:\n" + "\n".join(f"- {f}" for f in findings))

    report_cmd.help = inspect.cleandoc(f"""Build the designer report: findings first, then the evidence.

    Every section with its tables (also CSV) and plots follows the findings;
    the rule set is printed in full in an appendix. Finished simulation
    batches are cached on disk, so a killed run resumes.

    \b
    Example:
      {example}
    """)
