"""__main__.py: `python3 -m hb_nmodl` runs the command line (cli.py)."""
import sys

from .cli import main

sys.exit(main())
