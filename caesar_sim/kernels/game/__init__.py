"""Whole games: batches of games and one logged game (``engine``), `mc`'s decisions recorded for
`distilled` (``distill``) and labelled for `caesar train` (``netrecord``).

Every decision comes from ``kernels.play``, which never imports this folder (``tests/test_layers.py``).
"""
