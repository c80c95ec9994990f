"""python3 -m qubo [LIBDIR ...]: which libraries the package loads, and a
two-variable model solved with them."""
import sys

from . import _demo

_demo(sys.argv[1:])
