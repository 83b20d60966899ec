"""The play policies: one row per policy that chooses a seat's card in the trick phase.

A row says what a policy is: its name (the PLAY part of a strategy such as
``ev:goal:cash4``, and ``sponsio odds --policy``), its kernel code and how it
plays. From the rows comes the one table of names every layer accepts
(``PLAY``: ``analysis.game.strategy`` and ``analysis.odds.job`` read it).

The codes below ``kernels.play.tricks.HOOKED`` are the rows'. Codes from
``HOOKED`` on choose through ``choose_hooked`` (``kernels.play.pimc.PIMC``,
the double-dummy player behind ``sponsio odds --policy dd``, is ``HOOKED``).
A code lives only in memory: every file the tool writes or reads names a
policy by its name (strategies, fields, success models and their
``play_policy``, narrations), and the result cache is keyed by the kernels'
sources, so a new row that raises ``HOOKED`` (and so PIMC's code) moves no
saved file.

Adding a play policy (``tests/test_registries.py`` checks steps 1 and 2,
the help texts and docstring of step 3 and both docs pages of step 4, each
failure naming its step; it cannot see ``GOAL_DEPENDENT``, the fitted model
or the ``RANDOM`` test of step 2; ARCHITECTURE.md numbers the docs step 5):

1. its code in ``kernels.play.policies`` (the next one; raise ``HOOKED`` in
   ``kernels.play.tricks`` to stay above every row's code) with a line for
   it in that module's docstring (its name in double backticks), its card
   choice beside ``choose_random`` there, and a row at the end of
   ``POLICIES``;
2. a branch of its own in each per-policy kernel function (each raises for a
   code it does not know):

   - ``kernels.play.tricks``: ``play_scripted`` (the card it plays).

   A policy that draws random numbers also joins ``RANDOM`` in
   ``kernels.odds.simulate.odds_span``'s test (a seat that draws turns off
   a goal row's early stop), which the test does not see;
3. the docstring that lists the names by hand (``analysis.game.strategy``'s;
   ``STRATEGY_HELP`` there and ``--policy`` in ``cli/odds.py`` build their
   lists from ``PLAY`` through ``in_words``), and
   ``analysis.odds.query.GOAL_DEPENDENT`` if each bet's odds row must be
   its own simulation;
4. an ``ev`` seat that plays it needs a success model fitted under it
   (``sponsio fit --policy NAME``); docs/sponsio-odds.md and the strategy
   syntax in docs/sponsio-games.md describe each policy in words.
"""

from __future__ import annotations

from dataclasses import dataclass

from sponsio_sim.kernels.play.policies import GOAL, GREEDY, RANDOM


@dataclass(frozen=True)
class PlayPolicy:
    name: str
    code: int      # the kernels' code (``kernels.play.policies``)
    plays: str     # how it chooses its card, in words


POLICIES = (
    PlayPolicy("random", RANDOM, "a uniformly random legal card"),
    PlayPolicy("greedy", GREEDY, "maximises its chance of winning the trick, cheapest card first"),
    PlayPolicy("goal", GOAL, "scores each legal card by its holder's bets and the bets it plays against"),
)
PLAY = {p.name: p.code for p in POLICIES}   # name -> kernel code, for every layer


def in_words(*extra: str) -> str:
    """The policies' names as a help text lists them, ``extra`` names after
    the rows': "random, greedy or goal" (with ``"pimc"``: "random, greedy,
    goal or pimc")."""
    names = [*PLAY, *extra]
    return ", ".join(names[:-1]) + " or " + names[-1]
