"""The betting phase: turn order and actions, the ev model's features, the betting policies and mc.

``phase`` runs a betting phase; ``mc`` and ``rollout`` are the search policy.
The small helpers every decision calls many times (``leader_of``,
``row_prob``, the feature functions, ...) are ``inline="always"``: as numba
calls they slowed whole ``ev`` games markedly. The larger
ones (``cell_of``, ``kind_best``, ``held_value``) stay calls, because
inlining them made games slower and compiles longer
(``scripts/ab_game_speed.py``).
"""
