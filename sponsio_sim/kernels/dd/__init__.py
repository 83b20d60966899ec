"""The double-dummy solver, laid out like DDS: search, move ordering, bounds, transposition table.

``solve`` is the entry point; every other module serves it.
"""
