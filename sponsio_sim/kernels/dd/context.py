"""The double-dummy solver's contexts: numba named tuples of the arrays and
numbers that travel together, handed down instead of long signatures (numba
passes a named tuple as one argument, its fields flattened into the call).

- ``Workspace``: one thread's solver arrays (``dd.core``): the per-ply
  fields ``plies``, the per-ply card words ``ply_cards``, the per-trick
  counters ``tally`` and the transposition ``table``;
- ``TrickSoFar``: a trick under way as ``dd.bounds.forced_win`` reads it:
  the colour ``led``, its ``top`` card so far and that card's ``top_seat``
  (-1 before the lead), the ``next_seat`` to play, how many seats are still
  ``to_play`` and the ``cards`` played to it;
- ``BetQuestion``: what ``dd.solve.solve_bets`` asks: can seat ``ask`` win
  all its bets (``codes``/``bcounts``) when the seats of mask ``maxside``
  help it, the root's moves restricted to ``root_mask`` (0: none)?
- ``Positions``: the deals a batch solves (``dd.solve.batch_*``): deal i's
  ``hands[i]``, the current trick's leader ``leaders[i]`` and its cards so
  far ``tricks[i, :trick_len[i]]``;
- ``CoalitionAnswers``: what ``batch_coalition`` writes per deal: the
  coalition's ``tricks``, the ``nodes`` searched, the solve's wall time ``ms``;
- ``BetAnswers``: what ``batch_bets`` writes per deal: made in the ``worst``
  case, possible in the ``best`` case, the ``nodes`` of both solves and
  their wall time ``ms``.

The search's hot core (``dd.search.search`` and what it calls per node or
trick boundary) takes plain arguments: a context of the search (the deal,
the goal, the workspace) there made the solves measurably slower
(``dd.search``'s docstring; the figures are in ``scripts/README.md``).
"""

from collections import namedtuple

Workspace = namedtuple("Workspace", ["plies", "ply_cards", "tally", "table"])
TrickSoFar = namedtuple("TrickSoFar", ["led", "top", "top_seat", "next_seat", "to_play", "cards"])
BetQuestion = namedtuple("BetQuestion", ["codes", "bcounts", "ask", "maxside", "root_mask"])
Positions = namedtuple("Positions", ["hands", "leaders", "tricks", "trick_len"])
CoalitionAnswers = namedtuple("CoalitionAnswers", ["tricks", "nodes", "ms"])
BetAnswers = namedtuple("BetAnswers", ["worst", "best", "nodes", "ms"])
