#!/usr/bin/env python3
"""Runs one SMT-LIB peer solver on one file and prints its answers like an SMT-LIB solver.

    python3 benchmarks/scripts/peer_solve.py z3|cvc5|bitwuzla|spacer FILE.smt2

Uses the PyPI packages `z3-solver`, `cvc5`, `bitwuzla` (`pip install z3-solver cvc5
bitwuzla`) through their own SMT-LIB parsers, so the script is read exactly as the solver's
command-line front end would read it. `spacer` runs Z3's fixed-point engine Spacer on a CHC
file (`(set-logic HORN)`): Z3 answers `sat` (the clauses have a model: safe) or `unsat`.
There is no time limit here: the caller (the benchmark runner) kills the process group at its
limit. Exit code 0 whatever the answer; 2 on bad usage.
"""

import sys


def z3_run(path, spacer=False):
    import z3

    if spacer:
        z3.set_param("fixedpoint.engine", "spacer")
    # the z3 binary of the wheel reads the script exactly as `z3 FILE` does
    import os
    import shutil
    import subprocess

    exe = shutil.which("z3")
    if exe:
        args = [exe, path]
        if spacer:
            args = [exe, "fp.engine=spacer", path]
        p = subprocess.run(args, capture_output=True, text=True)
        # Z3 reports an input it cannot read (another solver's extension, dReal's `-2.5`)
        # with `(error ...)` and goes on without that command, so a later `sat` would be the
        # answer to another problem: any error before the answer makes the answer `unknown`
        out = []
        for line in p.stdout.splitlines():
            if line.startswith("(error"):
                sys.stderr.write(line + "\n")
                out.append("unknown")
                break
            out.append(line)
        sys.stdout.write("\n".join(out) + "\n")
        sys.stderr.write(p.stderr)
        return
    s = z3.SolverFor("HORN") if spacer else z3.Solver()
    s.from_file(path)
    print(s.check())
    _ = os


def cvc5_run(path):
    import cvc5

    tm = cvc5.TermManager()
    solver = cvc5.Solver(tm)
    sm = cvc5.SymbolManager(tm)
    parser = cvc5.InputParser(solver, sm)
    parser.setFileInput(cvc5.InputLanguage.SMT_LIB_2_6, path)
    while True:
        cmd = parser.nextCommand()
        if cmd.isNull():
            break
        out = cmd.invoke(solver, sm)
        if out:
            sys.stdout.write(out if out.endswith("\n") else out + "\n")
            sys.stdout.flush()


def bitwuzla_run(path):
    import bitwuzla

    tm = bitwuzla.TermManager()
    opts = bitwuzla.Options()
    p = bitwuzla.Parser(tm, opts)
    # Bitwuzla's own answers go to C++'s buffered stdout, which a pipe may lose at exit:
    # parse only, then ask for the answer of the script's (single) check-sat here
    p.parse(path, True, True)
    print(p.bitwuzla().check_sat())


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("z3", "cvc5", "bitwuzla", "spacer"):
        sys.stderr.write(__doc__)
        return 2
    solver, path = sys.argv[1], sys.argv[2]
    try:
        if solver == "z3":
            z3_run(path)
        elif solver == "spacer":
            z3_run(path, spacer=True)
        elif solver == "cvc5":
            cvc5_run(path)
        else:
            bitwuzla_run(path)
    except Exception as e:  # the solver refused the input: no answer
        sys.stdout.write("unknown\n")
        sys.stderr.write(f"{solver}: {e}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
