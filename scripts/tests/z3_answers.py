#!/usr/bin/env python3
"""Z3's answer for each SMT-LIB file given: one line `FILE ANSWER` (sat, unsat or unknown).

The independent oracle of frontend/tests/simplex_z3.rs. Needs the PyPI package z3-solver
(scripts/setup.sh installs it into target/pyenv).
"""

import sys

import z3

for path in sys.argv[1:]:
    s = z3.Solver()
    s.set("timeout", 10000)
    s.from_file(path)
    print(path, s.check())
