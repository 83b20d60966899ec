"""Balance of the rules: the same games under alternative rule numbers (``sweep``), lever-to-effect
tables (``levers``), and the field re-solved for each rule set a lever plays (``adapt``).

Built on ``analysis.game``.
"""
