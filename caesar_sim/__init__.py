"""Circus Maximus Monte Carlo analyser: rules -> kernels -> analysis -> cli."""
