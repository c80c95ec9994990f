"""The binding's first name: `import qubo_ctypes` gives the package qubo.

The examples and tests of this directory import the package from here, the
source tree, without installing it. Run as a program it is `python3 -m qubo`:
python3 qubo_ctypes.py [LIBDIR ...].
"""
import os
import sys

_here = os.path.dirname(os.path.abspath(__file__))
if os.path.isdir(os.path.join(_here, "qubo")) and _here not in sys.path:
    sys.path.insert(0, _here)
import qubo  # noqa: E402

if __name__ == "__main__":
    qubo._demo(sys.argv[1:])
else:
    sys.modules[__name__] = qubo
