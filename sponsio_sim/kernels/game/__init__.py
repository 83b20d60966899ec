"""The whole game: rounds, the narration log, the model-fitting rounds, exploit runs and mc's audit.

``engine`` plays games; each round's betting and its end (scoring, cash-in,
the end check) come from ``kernels.betting``, which never imports this
folder (``tests/test_layers.py``).
"""
