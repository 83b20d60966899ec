"""The betting phase: turn order and actions, the ev model's features, the betting policies and mc.

``phase`` runs a betting phase; ``mc`` and ``rollout`` are the search policy.
"""
