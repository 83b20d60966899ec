"""Numba kernels: plain arrays in and out (layouts in ``layout``)."""

from pathlib import Path

from tabletop_mc.jitcache import configure

CACHE_DIR = configure("caesar_sim", Path(__file__).parent)
