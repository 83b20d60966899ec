"""Sponsio: Monte Carlo bet odds, strategy analysis and balance testing.

``odds(Query(hand, talon, ...))`` answers the odds of every bet for a hand
(see ``sponsio_sim.analysis.odds.query.odds``; ``OddsPlay`` says how the
round is played, ``Run`` the seed, threads and progress); the ``sponsio``
command wraps it.
"""

__all__ = ["odds", "Query", "OddsPlay", "Run", "load_rules"]


def __getattr__(name):
    # Imported on first use, so `sponsio --help` does not load numpy, numba and pandas.
    if name in ("odds", "Query", "OddsPlay"):
        from sponsio_sim.analysis.odds import query
        return getattr(query, name)
    if name == "Run":
        from sponsio_sim.analysis.settings import Run
        return Run
    if name == "load_rules":
        from sponsio_sim.rules import load_rules
        return load_rules
    raise AttributeError(name)
