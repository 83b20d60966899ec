"""Whole games: profiles and state (``setup``), the ev model, batches of games, tournaments, exploit, fitting.

``runs.run_games`` is the one place games are simulated for the analysis layer.
"""
