"""Fitted success models of the `ev` betting policy, one ``.npz`` per standard
rule set (regenerate with ``sponsio fit --rules standard-4p --out ...``)."""
