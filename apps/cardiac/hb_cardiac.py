#!/usr/bin/env python3
"""hb_cardiac.py: runs the cardiac model translator (the hb_cardiac package beside this file) from a checkout: python3 apps/cardiac/hb_cardiac.py --catalogue DIR FILE.mmt ..."""
import os
import sys

# One output for one input: sympy's choices follow Python's string hashing,
# so the hash is fixed (the committed catalogue is compared with a fresh one).
if os.environ.get("PYTHONHASHSEED") != "0":
    os.execve(sys.executable, [sys.executable] + sys.argv, dict(os.environ, PYTHONHASHSEED="0"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hb_cardiac.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
