"""_errors.py: hinesbatch.Error and one subclass per library status; the binding raises them with the library's code and message."""
from __future__ import annotations

from typing import Dict, Type

from . import _core

__all__ = [
    "Error", "InvalidArgumentError", "InvalidTreeError", "NumericalError",
    "OutOfMemoryError", "BackendUnavailableError", "BackendError", "FileError",
    "ParseError", "BusyError",
]


class Error(Exception):
    """A failed hinesbatch call.

    Attributes:
        status: the library's status code (an ``hb_status`` value, e.g. 1).
        name: its name, e.g. ``"HB_ERR_INVALID_ARGUMENT"``.
        message: the library's message (``hb_last_error()``), naming the
            argument, system or row at fault.
    """

    status: int = -1

    def __init__(self, message: str, status: int | None = None, name: str | None = None):
        if status is None:
            status = type(self).status
        self.status = status
        self.name = name if name is not None else _core.status_name(status)
        self.message = message
        super().__init__(f"{self.name}: {message}")


class InvalidArgumentError(Error, ValueError):
    """A bad argument (shape, dtype, option, offsets...): HB_ERR_INVALID_ARGUMENT."""
    status = 1


class InvalidTreeError(Error, ValueError):
    """A parent array that is no tree in Hines order: HB_ERR_INVALID_TREE."""
    status = 2


class NumericalError(Error, ArithmeticError):
    """A non-finite input or solution (zero pivot, NaN): HB_ERR_NUMERICAL."""
    status = 3


class OutOfMemoryError(Error, MemoryError):
    """Host or device memory exhausted: HB_ERR_OUT_OF_MEMORY."""
    status = 4


class BackendUnavailableError(Error):
    """A backend not compiled in or without a device: HB_ERR_BACKEND_UNAVAILABLE."""
    status = 5


class BackendError(Error):
    """The CUDA or OpenCL runtime failed: HB_ERR_BACKEND."""
    status = 6


class FileError(Error, OSError):
    """A file could not be read: HB_ERR_IO."""
    status = 7


class ParseError(Error, ValueError):
    """A malformed SWC file or text: HB_ERR_PARSE."""
    status = 8


class BusyError(Error):
    """The object is in use by another thread: HB_ERR_BUSY."""
    status = 9


_BY_STATUS: Dict[int, Type[Error]] = {
    c.status: c for c in (InvalidArgumentError, InvalidTreeError, NumericalError,
                          OutOfMemoryError, BackendUnavailableError, BackendError,
                          FileError, ParseError, BusyError)
}


def _make(status: int, name: str, message: str) -> Error:
    """The exception the binding raises for a failed call."""
    cls = _BY_STATUS.get(status, Error)
    return cls(message, status, name)


def invalid(message: str) -> InvalidArgumentError:
    """An InvalidArgumentError of the Python layer's own checks."""
    return InvalidArgumentError(message)


_core._set_error_factory(_make)
