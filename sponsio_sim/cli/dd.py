"""`sponsio dd`: double-dummy answers for known deals."""

import click

from tabletop_mc.clitools import common_options, emit, gather
from tabletop_mc.output import render
from tabletop_mc.errors import UserError
from sponsio_sim.analysis.dd import Question, read_deals, solve
from sponsio_sim.cli.root import main


@main.command("dd")
@click.option("--deal", default=None,
              help='Every seat\'s hand, seats 0..n-1 separated by "|", e.g. "R9 R7 | B8 B5 | G6 G1 | Y3 Y2".')
@click.option("--deals", "deals_file", default=None, type=click.Path(dir_okay=False),
              help="A file with one deal per line, solved as a batch in parallel.")
@click.option("--lead", type=int, default=0, show_default=True, help="Seat on lead (of the current trick).")
@click.option("--trick", default=None,
              help='Cards already played to the current trick, from --lead on, e.g. "R5 R9" (single --deal).')
@click.option("--coalition", default=None, help="Seats playing together, e.g. 0,2: their most tricks against the rest.")
@click.option("--seat", type=int, default=None, help="The bettor for --bets.")
@click.option("--bets", default=None, help='Bets to test for --seat, e.g. "tricks=2,last".')
@click.option("--others", default=None,
              help='Other seats\' bets, e.g. "1:tricks=3" (they matter only through fail bets).')
@click.option("--players", type=int, default=None, help="Number of players (default: the number of hands in the deal).")
@common_options
@gather("question", Question, "lead", "trick", "coalition", "seat", "bets", "others")
def dd_cmd(deal, deals_file, question, players, seed, fmt, rules, overrides, threads):
    """Exact (double-dummy) results with every hand known.

    --coalition S,T: the most tricks those seats take against the others
    (column tricks). --seat S --bets B: can S win all of B when every other
    seat plays to defeat it (worst) / when all seats cooperate (best).
    Each row also gives the nodes searched and ms, the deal's solve time
    (wall clock, milliseconds). --seed is accepted for uniformity; the
    answers involve no randomness.

    \b
    Examples:
      sponsio dd --deal "R9 R7 R2 B8 B5 G6 G1 Y3 | R8 R6 B9 B7 G9 G5 Y9 Y1 | R5 R4 B6 B4 G8 G4 Y8 Y6 | R3 R1 B3 B2 G7 G3 Y5 Y4" \\
          --lead 0 --coalition 0,2 --seat 0 --bets "tricks=2,last"
      sponsio dd --deals deals.txt --lead 0 --coalition 0,2 --format json
    """
    if (deal is None) == (deals_file is None):
        raise UserError("give exactly one of --deal and --deals FILE")
    if deal is not None:
        texts, lines = deal, None
    else:
        texts, lines = read_deals(deals_file)
    solved = solve(texts, question, players=players, rules=rules,
                   overrides=overrides, threads=threads, lines=lines)
    title = solved.rules if fmt == "table" else None
    emit(render(solved.table, fmt, title=title))
