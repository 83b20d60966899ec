"""Check the double-dummy solver's answers against a saved reference set.

    python scripts/check_dd_answers.py            # compare with the saved set
    python scripts/check_dd_answers.py --save     # (re)write the saved set

Every change to the solver's bounds, ordering or table must leave every
answer unchanged; this script is the regression check for that (answers,
not speed: node counts are printed for information only). The positions are
generated from fixed seeds: full deals of 4 x 8 and 3 x 8 cards, a random
leader, and for about half of them one to ``players - 1`` random legal
cards already played to the first trick. Questions:

- coalition maximum tricks for several seat sets;
- worst and best case of every catalogue bet of the asking seat (seats 0
  and 1), alone, and of a few bet sets (several bets together, fail bets on
  a seat holding bets, fail chains back onto the asking seat).

The saved answers live in ``tests/sponsio/dd_answers.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from sponsio_sim.bets import catalogue, encode_table, parse_bet_set
from sponsio_sim.kernels.bits import colour_masks, nines_mask
from sponsio_sim.kernels.dd.context import BetAnswers, CoalitionAnswers, Positions
from sponsio_sim.kernels.dd.solve import batch_bets, batch_coalition
from tabletop_mc.workshare import new_ticket
from sponsio_sim.rules import RANKS, load_rules

SAVED = Path(__file__).resolve().parent.parent / "tests" / "sponsio" / "dd_answers.json"
# (players, deals, coalitions)
CONFIGS = [(4, 240, ("0,2", "0", "1,2,3")), (3, 160, ("0", "0,1"))]
EXTRA_SETS = ["tricks=0,colour:R=0", "tricks=1,last", "colour:B=1,last", "nines,colour:G=0",
              "tricks=2,colour:R=1", "tricks=0,nines", "colour:G=2,last,nines"]
# (asking seat's bets, other seats' bets)
FAIL_SETS = [("fail:1", "1:tricks=2"), ("tricks=1,fail:1", "1:colour:R=0"),
             ("colour:B=0,fail:1", "1:tricks=2,fail:0"), ("fail:2", "2:last;1:fail:2")]


def positions(players, n, seed):
    """(hands, leaders, tricks, trick_len) of ``n`` deals; about half start
    mid-trick (random legal cards of the first trick already played)."""
    rng = np.random.default_rng(seed)
    deck = players * RANKS
    hand = 8
    hands = np.zeros((n, players), dtype=np.uint64)
    leaders = rng.integers(0, players, n).astype(np.int64)
    tricks = np.zeros((n, players - 1), dtype=np.int64)
    trick_len = np.zeros(n, dtype=np.int64)
    for i in range(n):
        cards = rng.permutation(deck)[:players * hand]
        hs = [set(int(c) for c in cards[s * hand:(s + 1) * hand]) for s in range(players)]
        k = int(rng.integers(1, players)) if rng.random() < 0.5 else 0
        for j in range(k):
            seat = (int(leaders[i]) + j) % players
            h = sorted(hs[seat])
            if j > 0:
                led = int(tricks[i, 0]) // RANKS
                follow = [c for c in h if c // RANKS == led]
                h = follow or h
            c = h[int(rng.integers(0, len(h)))]
            hs[seat].remove(c)
            tricks[i, j] = c
        trick_len[i] = k
        for s in range(players):
            hands[i, s] = np.uint64(sum(1 << c for c in hs[s]))
    return hands, leaders, tricks, trick_len


def answers():
    """{question: answer string, one character per deal}, total nodes."""
    out = {}
    nodes_total = 0
    for players, n, coalitions in CONFIGS:
        rules = load_rules(players=players)
        deals = Positions(*positions(players, n, 17 + players))
        colmask = colour_masks(rules.n_colours)
        nines = np.uint64(nines_mask(rules.n_colours))
        max_cards = np.int64(players * rules.hand_size)
        for coal_text in coalitions:
            coal = sum(1 << int(s) for s in coal_text.split(","))
            res = np.zeros(n, dtype=np.int64)
            nodes = np.zeros(n, dtype=np.int64)
            batch_coalition(deals, colmask, nines, np.int64(coal), max_cards, new_ticket(),
                            CoalitionAnswers(res, nodes, np.zeros(n)))
            out[f"{players}p coalition {coal_text}"] = "".join(str(int(v)) for v in res)
            nodes_total += int(nodes.sum())
        questions = []
        for ask in (0, 1):
            for bet in catalogue(rules, ask):
                if bet.kind != "fail":
                    questions.append((ask, bet.notation(rules), None))
            for text in EXTRA_SETS:
                questions.append((ask, text, None))
        for mine, others in FAIL_SETS:
            questions.append((0, mine, others))
        for ask, text, others in questions:
            table = {ask: parse_bet_set(text, rules, ask)}
            for part in (others or "").split(";"):
                if part:
                    seat, bets = part.split(":", 1)
                    table[int(seat)] = parse_bet_set(bets, rules, int(seat))
            codes, counts = encode_table(table, players)
            worst = np.zeros(n, dtype=np.bool_)
            best = np.zeros(n, dtype=np.bool_)
            nodes = np.zeros(n, dtype=np.int64)
            batch_bets(deals, colmask, nines, codes, counts, np.int64(ask), max_cards, new_ticket(),
                       BetAnswers(worst, best, nodes, np.zeros(n)))
            key = f"{players}p seat {ask} {text}" + (f" others {others}" if others else "")
            out[key] = "".join(str(int(w) + int(b)) for w, b in zip(worst, best))
            nodes_total += int(nodes.sum())
    return out, nodes_total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--save", action="store_true", help="write the saved set instead of checking")
    args = ap.parse_args()
    t0 = time.perf_counter()
    got, nodes = answers()
    n_answers = sum(len(v) for v in got.values())
    print(f"{len(got)} questions, {n_answers} answers, {nodes} nodes, {time.perf_counter() - t0:.1f} s")
    if args.save:
        SAVED.write_text(json.dumps(got, indent=0, sort_keys=True) + "\n")
        print(f"saved to {SAVED}")
        return 0
    saved = json.loads(SAVED.read_text())
    bad = 0
    for key in sorted(set(saved) | set(got)):
        a, b = saved.get(key), got.get(key)
        if a != b:
            if a is None or b is None:
                print(f"{key}: {'missing in the saved set' if a is None else 'no longer asked'}")
                bad += 1
                continue
            diff = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
            print(f"{key}: {len(diff)} answers differ (deals {diff[:10]})")
            bad += len(diff)
    print("all answers unchanged" if bad == 0 else f"{bad} answers CHANGED")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
