"""Balance of the payout table: hit rates, RTP and verdicts (``run``), plots, recommended multipliers.

Built on ``analysis.game``.
"""
