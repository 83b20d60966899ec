"""Sponsio: Monte Carlo bet odds, strategy analysis and balance testing.

``odds(hand, talon, ...)`` answers the odds of every bet for a hand (see
``sponsio_sim.analysis.odds.query.odds``); the ``sponsio`` command wraps it.
"""

__all__ = ["odds", "load_rules"]


def __getattr__(name):
    # Imported on first use, so `sponsio --help` does not load numpy, numba and pandas.
    if name == "odds":
        from sponsio_sim.analysis.odds.query import odds
        return odds
    if name == "load_rules":
        from sponsio_sim.rules import load_rules
        return load_rules
    raise AttributeError(name)
