"""Double-dummy answers for known deals: the `sponsio dd` job.

A deal lists the remaining hands of seats 0..n-1, separated by ``|``
(``"R9 R7 | B8 B5 | G6 G1 | Y3 Y2"``). Two questions, alone or together:

- ``coalition`` (e.g. ``[0, 2]``): the most tricks those seats take of the
  tricks left against the other seats (column ``tricks``);
- ``seat`` + ``bets`` (e.g. ``"tricks=2,last"``): can the seat win all those
  bets when every other seat plays to defeat them (``worst``), and when all
  seats cooperate (``best``)? Other seats' bets (``others``) matter only
  through ``fail`` bets.

``trick`` lists cards already played to the current trick, from ``lead`` on.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from tabletop_mc.errors import UserError
from tabletop_mc.runner import set_threads
from tabletop_mc.workshare import new_ticket
import sponsio_sim.standing as standing
from sponsio_sim.analysis.odds.dd import check_nines_scope
from sponsio_sim.bets import encode_table, parse_bet_set, parse_others
from sponsio_sim.cards import card_name, mask_of, parse_cards
from sponsio_sim.kernels.bits import colour_masks, nines_mask
from sponsio_sim.kernels.dd.context import BetAnswers, CoalitionAnswers, Positions
from sponsio_sim.kernels.dd.solve import batch_bets, batch_coalition
from sponsio_sim.rules import RANKS, RuleSet, load_rules


def parse_deal(text: str, rules: RuleSet, where: str = "--deal") -> list[int]:
    """Hand masks of a ``|``-separated deal; every problem is one line."""
    parts = str(text).split("|")
    if len(parts) != rules.players:
        raise UserError(f"{where}: {len(parts)} hands given; rule set {rules.name} has "
                        f"{rules.players} players (separate hands with '|')")
    seen: dict[int, int] = {}
    hands = []
    for s, part in enumerate(parts):
        ids = parse_cards(part, rules, f"{where} seat {s}")
        for c in ids:
            if c in seen:
                raise UserError(f"{where}: card {card_name(c, rules)} is in seats {seen[c]} and {s}")
            seen[c] = s
        hands.append(mask_of(ids))
    return hands


def _parse_trick(text, hands, lead, rules, where):
    """Card ids of the current trick; checks the cards and colour following."""
    ids = parse_cards(text, rules, f"{where} --trick") if text else []
    players = rules.players
    if len(ids) >= players:
        raise UserError(f"{where}: --trick holds {len(ids)} cards; a trick in progress has at most "
                        f"{players - 1}")
    owned = 0
    for h in hands:
        owned |= h
    for j, c in enumerate(ids):
        seat = (lead + j) % players
        if (owned >> c) & 1:
            raise UserError(f"{where}: --trick card {card_name(c, rules)} is also in a hand")
        led = ids[0] // RANKS
        if j > 0 and c // RANKS != led and (hands[seat] >> (led * RANKS)) & 0x1FF:
            raise UserError(f"{where}: seat {seat} played {card_name(c, rules)} but holds "
                            f"{rules.colours[led]} (must follow colour)")
    return ids


def _check_sizes(hands, lead, trick, rules, where):
    players = rules.players
    sizes = [bin(h).count("1") + (1 if (s - lead) % players < len(trick) else 0)
             for s, h in enumerate(hands)]
    if len(set(sizes)) != 1:
        shown = ", ".join(f"seat {s}: {n}" for s, n in enumerate(sizes))
        extra = " counting --trick" if trick else ""
        raise UserError(f"{where}: hands must have equal sizes{extra} ({shown})")
    if sizes[0] == 0:
        raise UserError(f"{where}: the hands are empty")
    if sizes[0] > rules.hand_size:
        raise UserError(f"{where}: hands of {sizes[0]} cards; rule set {rules.name} deals {rules.hand_size}")


def _seat(value, rules, what):
    return None if value is None else standing.seat(value, rules, what)


def parse_coalition(value, rules: RuleSet) -> int | None:
    """``"0,2"`` or ``[0, 2]`` -> seat mask; must leave at least one seat out."""
    if value is None:
        return None
    items = value.split(",") if isinstance(value, str) else list(value)
    mask = 0
    for item in items:
        mask |= 1 << _seat(item, rules, "--coalition")
    if mask == 0 or mask == (1 << rules.players) - 1:
        raise UserError("--coalition must name some seats but not all, e.g. 0,2")
    return mask


@dataclass(frozen=True)
class Question:
    """What is asked of every deal: from ``lead`` (the first trick's leader; with ``trick``, the cards
    already played to it, e.g. "R9 R2"), the most tricks the ``coalition`` seats (e.g. "0,2") take
    against the rest, and/or whether ``seat`` can make all its ``bets`` ("tricks=2,last") in the worst
    and best case, the ``others``' bets ("1:tricks=3") mattering through fail bets."""
    lead: int = 0
    trick: str | None = None
    coalition: str | None = None
    seat: int | None = None
    bets: str | None = None
    others: str | None = None


@dataclass(frozen=True)
class DDResult:
    """What ``solve`` answers: ``table``, one row per deal (``solve``'s docstring), and ``rules``, the summary of
    the rule set the deals were solved under (the text table's title). A typed result, not pandas' experimental
    ``attrs``: the summary cannot be lost by a pandas operation on the table."""
    table: pd.DataFrame
    rules: str


def solve(deals, question: Question = Question(), *, players: int | None = None, rules=None, overrides=None,
          threads: int | None = None, lines=None) -> DDResult:
    """Answer ``question`` for each deal (a string or a list of strings).

    One row per deal in input order: ``deal`` (1-based), ``lead``, then
    ``tricks`` (coalition question) and/or ``worst``, ``best`` (bet
    question), ``nodes`` searched and ``ms``, the wall time of the deal's
    solves (milliseconds; deals run in parallel, each timed on its thread). ``lines`` (file line numbers) only
    label error messages.
    """
    lead, trick, coalition, seat, bets, others = (question.lead, question.trick, question.coalition, question.seat,
                                                  question.bets, question.others)
    single = isinstance(deals, str)
    texts = [deals] if single else list(deals)
    if players is None and rules is None and texts:
        players = len(str(texts[0]).split("|"))
        if players not in (3, 4):
            players = None
    ruleset = load_rules(rules, players, overrides)
    lead = _seat(lead, ruleset, "--lead")
    coal = parse_coalition(coalition, ruleset)
    seat = _seat(seat, ruleset, "--seat")
    if seat is None and bets:
        raise UserError("--bets needs --seat (the bettor)")
    if seat is not None and not bets:
        raise UserError("--seat needs --bets (the bets to test)")
    if coal is None and seat is None:
        raise UserError("nothing to solve: give --coalition SEATS and/or --seat S --bets BETS")
    if others and seat is None:
        raise UserError("--others needs --seat and --bets")
    if trick and not single:
        raise UserError("--trick applies to a single --deal")
    if not texts:
        raise UserError("no deals to solve")
    n = len(texts)
    P = ruleset.players
    hands = np.zeros((n, P), dtype=np.uint64)
    tricks = np.zeros((n, max(P - 1, 1)), dtype=np.int64)
    trick_len = np.zeros(n, dtype=np.int64)
    for i, text in enumerate(texts):
        where = "--deal" if single else f"deal {i + 1}" + (f" (line {lines[i]})" if lines else "")
        hs = parse_deal(text, ruleset, where)
        ids = _parse_trick(trick, hs, lead, ruleset, where)
        _check_sizes(hs, lead, ids, ruleset, where)
        hands[i] = hs
        tricks[i, :len(ids)] = ids
        trick_len[i] = len(ids)
    set_threads(threads)
    colmask = colour_masks(ruleset.n_colours)
    nines = np.uint64(nines_mask(ruleset.n_colours))
    leaders = np.full(n, lead, dtype=np.int64)
    positions = Positions(hands, leaders, tricks, trick_len)
    max_cards = ruleset.players * ruleset.hand_size
    df = pd.DataFrame({"deal": np.arange(1, n + 1), "lead": leaders})
    total_nodes = np.zeros(n, dtype=np.int64)
    total_ms = np.zeros(n, dtype=np.float64)
    if coal is not None:
        out = np.zeros(n, dtype=np.int64)
        nodes = np.zeros(n, dtype=np.int64)
        ms = np.zeros(n, dtype=np.float64)
        batch_coalition(positions, colmask, nines, np.int64(coal), np.int64(max_cards), new_ticket(),
                        CoalitionAnswers(out, nodes, ms))
        df["coalition"] = ",".join(str(s) for s in range(P) if (coal >> s) & 1)
        df["tricks"] = out
        total_nodes += nodes
        total_ms += ms
    if seat is not None:
        my_bets = parse_bet_set(bets, ruleset, seat)
        table = {s: b for s, b in parse_others(others, ruleset, seat).items()}
        table[seat] = my_bets
        check_nines_scope(ruleset, table)
        codes, counts = encode_table(table, P)
        worst = np.zeros(n, dtype=np.bool_)
        best = np.zeros(n, dtype=np.bool_)
        nodes = np.zeros(n, dtype=np.int64)
        ms = np.zeros(n, dtype=np.float64)
        batch_bets(positions, colmask, nines, codes, counts, np.int64(seat), np.int64(max_cards), new_ticket(),
                   BetAnswers(worst, best, nodes, ms), ruleset.nines_scope == "own")
        df["seat"] = seat
        df["bets"] = ",".join(b.notation(ruleset) for b in my_bets)
        df["worst"] = worst
        df["best"] = best
        total_nodes += nodes
        total_ms += ms
    df["nodes"] = total_nodes
    # Wall time of the deal's solves, to 0.001 ms (the clock's useful
    # precision here; a shared machine's noise is larger).
    df["ms"] = np.round(total_ms, 3)
    return DDResult(df, ruleset.summary())


def read_deals(path: str) -> tuple[list[str], list[int]]:
    """(deals, their line numbers) from a file, one deal per line; blank
    lines and ``#`` comments are skipped."""
    try:
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except OSError as exc:
        raise UserError(f"--deals {path}: cannot read ({exc.strerror or exc})") from None
    kept = [(ln.split("#", 1)[0].strip(), i + 1) for i, ln in enumerate(lines)]
    kept = [(d, i) for d, i in kept if d]
    if not kept:
        raise UserError(f"--deals {path}: no deals in the file")
    return [d for d, _ in kept], [i for _, i in kept]
