"""The meta-game over a population of strategies (empirical game theory), for any game.

A symmetric N-seat game over K named strategies, numpy only. One job per module:

- ``profiles``: the C(N+K-1, N) count vectors in canonical order (a new
  strategy appends profiles, never renumbers old ones); ``profile_index``;
- ``payoffs.PayoffTable``: per profile and seated strategy, the mean payoff
  of its seats, SE and n; tidy CSV (one count column per strategy, then
  strategy, payoff, se, n); partial tables allowed (``missing()``);
- ``build.play_table``: fills a table through the game's adapter
  ``play(counts, games, seed) -> (total, total_sq, n)`` (per strategy: sum
  of the samples' mean seat payoff, sum of its squares, samples), one seed
  for every profile (common random numbers); ``base=`` keeps a table's
  entries and plays only what it lacks (PSRO: new strategies appended);
- ``game.SymmetricGame``: focal-player payoffs u_j(x) against a mixture x,
  value u(x, x), regrets u_j(x) - u(x, x), Nash gap; ``restrict``;
  ``MissingProfileError`` (a ``UserError``) names a profile a computation
  needs and the table lacks;
- ``nash.solve_nash``: replicator dynamics from several starts with Newton
  refinement, every distinct equilibrium found (``Equilibrium``);
  ``support.support_enumeration``: the exhaustive cross-check for small K;
- ``bootstrap.bootstrap`` and ``verdict``: regret and weight intervals from
  the table's SEs, and the one-line verdict;
- ``alpharank.alpharank``: single-population alpha-Rank.

Typical use::

    table = play_table(names, 4, play, games=20_000, seed=1)
    table.to_csv("table.csv")                  # PayoffTable.read_csv to load
    game = table.game()
    eq = solve_nash(game)[0]                   # most-reached equilibrium
    result = bootstrap(game, eq.mixture, seed=2)
    print(verdict(result, margin=0.01))        # "equilibrium: 0.62 a + 0.38 b; no member gains > 0.01 (...)"
    result.frame()                             # weight and regret with 95 % intervals per strategy
    bigger = play_table(names + ["new"], 4, play, games=20_000, seed=1, base=table)   # PSRO step
"""

from tabletop_mc.metagame.alpharank import AlphaRank, alpharank
from tabletop_mc.metagame.bootstrap import Bootstrap, bootstrap, verdict
from tabletop_mc.metagame.build import Sample, play_table
from tabletop_mc.metagame.game import MissingProfileError, SymmetricGame
from tabletop_mc.metagame.nash import Equilibrium, equilibrium_at, local_equilibrium, replicator, solve_nash
from tabletop_mc.metagame.profiles import describe, n_profiles, profile_index, profiles
from tabletop_mc.metagame.support import support_enumeration
from tabletop_mc.metagame.payoffs import PayoffTable
from tabletop_mc.metagame.text import describe_mixture

__all__ = ["AlphaRank", "Bootstrap", "Equilibrium", "MissingProfileError", "PayoffTable", "Sample",
           "SymmetricGame", "alpharank", "bootstrap", "describe", "describe_mixture", "equilibrium_at",
           "local_equilibrium", "n_profiles", "play_table", "profile_index", "profiles", "replicator",
           "solve_nash", "support_enumeration", "verdict"]
