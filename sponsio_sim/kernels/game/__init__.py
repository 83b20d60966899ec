"""The whole game: rounds, scoring, cash-in, the narration log, the model-fitting rounds and exploit runs.

``engine`` plays games; betting decisions come from ``kernels.betting``.
"""
