"""errors.py: the cardiac loader's errors: bad input (exit 1) and a model outside the supported subset (exit 2), as the NMODL translator's."""
from hb_nmodl.errors import NmodlError


class CardiacError(NmodlError):
    """A model file that cannot be translated; str() is 'file: message'."""

    def __init__(self, message, file="<input>"):
        super().__init__(message, file, 0, 0)

    def __str__(self):
        return "%s: %s" % (self.file, self.message)


class Unsupported(CardiacError):
    """A construct the loader refuses; the message names the variable and the reason."""

    exit_code = 2

    def __init__(self, what, file="<input>"):
        super().__init__("unsupported " + what, file)
        self.what = what
