"""Kernels of `sponsio advise`: a table decision's legal actions
(``actions``), the hidden cards' worlds weighted by what the other seats
did (``infer``), and every action played out in those worlds (``evaluate``)."""
