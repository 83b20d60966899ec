"""Small policy-value networks for the games' learned `net` policies (both games).

A network maps what a seat knows (a fixed-length input vector, encoded by the
game's own kernel) to a value per action of a fixed action list (``q``, in the
game's units: coins gained over passing) and one value of the position
(``v``, the seat's expected win share). The pieces:

- ``spec.NetSpec``: the feature specification (named input blocks, the action
  list, the encoder version) and its digest; a weights file made for another
  specification is refused;
- ``weights.NetWeights``: the trained layers (float32), saved and loaded as one
  ``.npz`` file with its specification and how it was made, packed into a flat
  vector for the kernels, and a plain numpy forward pass (the reference);
- ``forward``: the numba forward pass the kernels call, one per decision;
- ``train``: fitting with JAX and optax (the optional ``[train]`` extra).
"""

from tabletop_mc.net.spec import NetSpec
from tabletop_mc.net.weights import NetWeights, load_weights

__all__ = ["NetSpec", "NetWeights", "load_weights"]
