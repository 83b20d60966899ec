"""A seat's play: the rules of a day's bidding and every policy that bids (Circus has one kind of decision).

``setup`` lays out the game and each day, ``state`` runs the rules (``items``: what an item is worth
to a seat and which one it takes); ``policies`` (legal actions, `greedy`), ``scan`` (`value`,
`tuned`, `distilled`), ``net`` (`net`, over what a seat knows: ``encode``) and ``mc`` (the search)
choose a bid, and ``dispatch`` sends a seat to its policy.

Nothing here imports ``kernels.game`` (``tests/test_layers.py``).
"""
