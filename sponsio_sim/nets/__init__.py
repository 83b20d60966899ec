"""The shipped networks of the ``net`` betting policy (``net-<players>p.npz``, ``sponsio train``)."""
