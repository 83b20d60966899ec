"""Whole games: seeded batches of games (``runs``) and what is read from them: ``simulation`` (win
rates, scores, seat order), ``bids`` (the venue-bid values), ``compare`` (two profiles' verdicts), a
narrated game (``narrate``), ``exploit``, the meta-game (``meta``) and the policies fitted by play:
``tune`` (`tuned`), ``distill`` (`distilled`), ``netlabels`` and ``nettrain`` (`net`).

``runs.run_games`` and ``runs.run_field`` are where games are simulated for the analysis layer.
"""
