"""Odds of bets for a hand: the query (``query.odds``), the engines' shared job, DD and PIMC, grading.

``job.OddsJob`` runs any odds kernel, locally or on Dask, with the result cache.
"""
