"""The one exception type that means "the user's input is wrong"."""


class UserError(ValueError):
    """Bad input: the CLI prints ``error: <message>`` on one line and exits 2."""
