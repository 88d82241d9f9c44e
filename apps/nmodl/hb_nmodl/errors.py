"""errors.py: the translator's two errors: bad input (exit 1) and input outside the supported subset (exit 2)."""


class NmodlError(Exception):
    """A .mod file that cannot be translated; str() is 'file:line:column: message'."""

    exit_code = 1

    def __init__(self, message, file="<input>", line=0, col=0):
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.col = col

    def __str__(self):
        return "%s:%d:%d: %s" % (self.file, self.line, self.col, self.message)


class Unsupported(NmodlError):
    """Valid NMODL outside the subset hinesbatch translates (message 'unsupported <what>')."""

    exit_code = 2

    def __init__(self, what, file="<input>", line=0, col=0):
        super().__init__("unsupported " + what, file, line, col)
        self.what = what
