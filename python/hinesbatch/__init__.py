from ._core import *
