#!/usr/bin/env python3
"""hb_cardiac.py: runs the cardiac model translator (the hb_cardiac package beside this file) from a checkout: python3 apps/cardiac/hb_cardiac.py --catalogue DIR FILE.mmt ..."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hb_cardiac.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
