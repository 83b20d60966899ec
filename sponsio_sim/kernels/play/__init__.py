"""The trick phase: the one trick loop, the card-play policies and PIMC play.

Everything here plays cards; bets are read, never placed.
"""
