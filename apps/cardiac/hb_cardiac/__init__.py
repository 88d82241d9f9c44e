"""hb_cardiac: cardiac cell models (Myokit .mmt or CellML, read through Myokit) translated into hinesbatch kernels; reuses hb_nmodl's numerics, singularity removal and printer."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "nmodl"))

from .errors import CardiacError, Unsupported  # noqa: E402,F401
from .loader import load  # noqa: E402,F401
