"""The one exception type that means "the user's input is wrong"."""


class UserError(ValueError):
    """Bad input: the CLI prints ``error: <message>`` on one line and exits 2."""


class OutputError(RuntimeError):
    """The work is done but a file could not be written at the end: the CLI prints
    ``error: <message>`` on one line (saying where the result went) and exits 1."""


class RunError(RuntimeError):
    """A run could not finish for a reason outside the input (a lost Dask cluster):
    the CLI prints ``error: <message>`` on one line and exits 1."""
