"""Shipped strategy populations and equilibrium fields (``tabletop_mc.field``)."""
