"""Balance of the rules: the same games under alternative rule numbers (``sweep``), lever-to-effect
tables (``levers``), the field re-solved for each rule set a lever plays (``adapt``), and that
re-solved field checked against every-seat `mc` (``check``).

Built on ``analysis.game``.
"""
