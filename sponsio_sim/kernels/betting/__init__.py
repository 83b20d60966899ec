"""A round's betting and its end: turn order and actions, the ev model's features, the betting
policies, mc, and the round's scoring.

``phase`` runs a betting phase; ``mc`` and ``rollout`` are the search policy;
``scoring`` ends a round, for whole games (``kernels.game``, the floor
above) and for mc's rollouts alike.
The small helpers every decision calls many times (``leader_of``,
``row_prob``, the feature functions, ...) are ``inline="always"``: as numba
calls they slowed whole ``ev`` games markedly. The larger
ones (``cell_of``, ``kind_best``, ``held_value``) stay calls, because
inlining them made games slower and compiles longer
(``scripts/ab_game_speed.py``).
"""
