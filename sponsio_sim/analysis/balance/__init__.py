"""Balance of a game of chosen bets: the bet tables (``run``), choice balance under a profile (``choice``,
``plays``, ``measures``), its criterion (``criteria``, ``objective``), the multiplier search
(``recommend``), lever-to-effect tables (``sweep``) and plots.

Built on ``analysis.game``.
"""
