"""hb_nmodl: translates NMODL (.mod) membrane mechanisms into hinesbatch's generated kernels (docs/mechanisms.md)."""
from .errors import NmodlError, Unsupported  # noqa: F401
from .model import Mechanism, load, loads  # noqa: F401

__all__ = ["NmodlError", "Unsupported", "Mechanism", "load", "loads", "translate"]


def translate(path, source_name=None):
    """(generated text, JSON text, Mechanism) of one .mod file."""
    from .codegen import dumps_json, generate
    mech = load(path)
    name = source_name or path
    return generate(mech, name), dumps_json(mech, name), mech
