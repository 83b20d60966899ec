"""Sponsio: Monte Carlo bet odds, strategy analysis and balance testing.

``odds(hand, talon, ...)`` answers the odds of every bet for a hand (see
``sponsio_sim.analysis.odds.odds``); the ``sponsio`` command wraps it.
"""

from sponsio_sim.analysis.odds import odds
from sponsio_sim.rules import load_rules

__all__ = ["odds", "load_rules"]
