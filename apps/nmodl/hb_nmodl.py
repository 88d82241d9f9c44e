#!/usr/bin/env python3
"""hb_nmodl.py: runs the NMODL translator (the hb_nmodl package beside this file) from a checkout: python3 apps/nmodl/hb_nmodl.py FILE.mod ..."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hb_nmodl.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
