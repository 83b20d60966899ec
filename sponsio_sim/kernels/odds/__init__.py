"""Odds kernels: conditional deals played out (``simulate``), DD brackets and PIMC (``dd``), grading.

Each returns per-chunk success counts for ``analysis.odds.job``.
"""
