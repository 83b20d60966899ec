"""`sponsio advise`: the best action at the table (``state`` reads the
table, ``ranking`` ranks every legal action, ``infer`` weights the hidden
cards by what the other seats did)."""
