#!/usr/bin/env python3
"""Runs Z3 and Bitwuzla on the SMT-LIB form of every problem of a .hys suite.

The SMT-LIB script of each file is icpic3's *lowered* problem printed by
`frontend::smtlib_out` (`cargo run -p frontend --example to_smtlib -- FILE.hys`), so the
peers decide exactly what icpic3 decides. Needs the PyPI packages `z3-solver` and
`bitwuzla` (`pip install z3-solver bitwuzla`).

    python3 benchmarks/scripts/smt_peers.py [--suite examples/floats] [--timeout 20]
        [--solvers z3,bitwuzla] [--keep DIR] [--no-build]

Prints one CSV row per (file, solver) on stdout:
    file,expected,solver,answer,time_s,status
status is `ok` (agrees with the expected answer), `WRONG`, `timeout`, `unsupported`
(the solver rejects the script, e.g. Bitwuzla on Int/Real), `error` or `no-expectation`.
A summary (solved counts, wrong answers, total time of solved problems) goes to stderr.
Exit code 1 if any answer is wrong, else 0.
"""

import argparse
import csv
import os
import shutil
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Bitwuzla has a Python API only: a child process parses the script (which ends with
# `(check-sat)`, so the parser prints the answer), and the parent enforces the time limit.
BITWUZLA_WORKER = r"""
import sys, bitwuzla
tm = bitwuzla.TermManager()
opts = bitwuzla.Options()
p = bitwuzla.Parser(tm, opts)
p.parse(sys.argv[1], False, True)
"""


def z3_command(path):
    exe = shutil.which("z3") or os.path.join(os.path.dirname(sys.executable), "z3")
    if not os.path.exists(exe):
        # the z3-solver wheel always has the Python API; use it as the driver
        code = "import sys, z3; s = z3.Solver(); s.from_file(sys.argv[1]); print(s.check())"
        return [sys.executable, "-c", code, path]
    return [exe, path]


def bitwuzla_command(path):
    return [sys.executable, "-c", BITWUZLA_WORKER, path]


SOLVERS = {"z3": z3_command, "bitwuzla": bitwuzla_command}


def run(cmd, timeout):
    """(answer, seconds, status) of one run; the process group is killed at the limit."""
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, start_new_session=True)
    except subprocess.TimeoutExpired:
        return "timeout", time.monotonic() - start, "timeout"
    secs = time.monotonic() - start
    lines = [l.strip() for l in p.stdout.splitlines() if l.strip()]
    answer = lines[-1] if lines else ""
    if answer in ("sat", "unsat"):
        return answer, secs, "ok"
    if answer == "unknown":
        return "unknown", secs, "unknown"
    err = (p.stderr + p.stdout).lower()
    unsupported = any(
        w in err for w in ("unsupported", "not supported", "invalid sort", "logic", "unknown sort", "expected")
    )
    return "error", secs, "unsupported" if unsupported else "error"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--suite", default=os.path.join(REPO, "examples", "floats"))
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--solvers", default="z3,bitwuzla")
    ap.add_argument("--keep", help="directory for the printed .smt2 files (default: a temporary one)")
    ap.add_argument("--no-build", action="store_true", help="do not build the to_smtlib example first")
    ap.add_argument("--filter", default="", help="only files whose name contains this")
    args = ap.parse_args()

    solvers = [s for s in args.solvers.split(",") if s]
    for s in solvers:
        if s not in SOLVERS:
            sys.exit(f"unknown solver {s}; known: {', '.join(SOLVERS)}")
    if not args.no_build:
        subprocess.run(["cargo", "build", "-q", "-p", "frontend", "--example", "to_smtlib"], cwd=REPO, check=True)
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(REPO, "target"))
    printer = os.path.join(target, "debug", "examples", "to_smtlib")

    with open(os.path.join(args.suite, "expected.csv")) as fh:
        rows = [r for r in csv.DictReader(fh) if args.filter in r["file"]]
    outdir = args.keep or tempfile.mkdtemp(prefix="smt_peers_")
    os.makedirs(outdir, exist_ok=True)

    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["file", "expected", "solver", "answer", "time_s", "status"])
    summary = {s: {"solved": 0, "wrong": 0, "time": 0.0, "unsupported": 0, "timeout": 0, "other": 0} for s in solvers}
    wrong = []
    for r in rows:
        hys = os.path.join(args.suite, r["file"])
        smt = os.path.join(outdir, os.path.splitext(r["file"])[0] + ".smt2")
        p = subprocess.run([printer, hys], capture_output=True, text=True)
        if p.returncode != 0:
            for s in solvers:
                out.writerow([r["file"], r["answer"], s, "", "", "print-error: " + p.stderr.strip()])
                summary[s]["other"] += 1
            continue
        with open(smt, "w") as fh:
            fh.write(p.stdout)
        for s in solvers:
            answer, secs, status = run(SOLVERS[s](smt), args.timeout)
            expected = r["answer"]
            if status == "ok":
                if expected not in ("sat", "unsat"):
                    status = "no-expectation"
                elif answer != expected:
                    status = "WRONG"
                    wrong.append((r["file"], s, answer, expected))
            st = summary[s]
            if status in ("ok", "WRONG", "no-expectation"):
                st["solved"] += 1
                st["time"] += secs
                st["wrong"] += status == "WRONG"
            elif status in ("unsupported", "timeout"):
                st[status] += 1
            else:
                st["other"] += 1
            out.writerow([r["file"], expected, s, answer, f"{secs:.3f}", status])
            sys.stdout.flush()

    print(f"# {len(rows)} problems, timeout {args.timeout:g} s, scripts in {outdir}", file=sys.stderr)
    for s in solvers:
        st = summary[s]
        print(
            f"# {s}: solved {st['solved']}/{len(rows)} (wrong {st['wrong']}), "
            f"timeout {st['timeout']}, unsupported {st['unsupported']}, other {st['other']}, "
            f"time on solved {st['time']:.2f} s",
            file=sys.stderr,
        )
    for w in wrong:
        print(f"# WRONG: {w[0]}: {w[1]} says {w[2]}, expected {w[3]}", file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
