"""Shared Monte Carlo plumbing for the game packages.

One place for what every simulation needs: counter-seeded random streams
that numba kernels own per chunk (`rng`), confidence intervals (`stats`),
chunked parallel runs with adaptive stopping and progress (`runner`),
rule files as TOML with `--set` overrides (`rulefile`), and the CLI's
error and output conventions (`errors`, `output`, `clitools`).
"""

from mcsim.errors import UserError
from mcsim.stats import wilson, mean_ci

__all__ = ["UserError", "wilson", "mean_ci"]
