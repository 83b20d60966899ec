"""Shared Monte Carlo plumbing for the game packages.

One place for what every simulation needs: counter-seeded random streams
that numba kernels own per chunk (`rng`), confidence intervals (`stats`),
chunked parallel runs with adaptive stopping and progress (`runner`),
rule files as TOML with `--set` overrides (`rulefile`), and the CLI's
error and output conventions (`errors`, `output`, `clitools`).
"""

from tabletop_mc.errors import UserError

__all__ = ["UserError", "wilson", "mean_ci"]


def __getattr__(name):
    # numpy is imported only when a statistic is asked for (keeps CLI start-up quick)
    if name in ("wilson", "mean_ci"):
        from tabletop_mc import stats
        return getattr(stats, name)
    raise AttributeError(name)
