"""Numba kernels: plain arrays in and out (layouts in ``layout``)."""
