#!/usr/bin/env python3
"""icpic3's bit-blasting SAT solver next to CaDiCaL, MiniSat and Glucose on the same CNFs.

For each .hys problem, `icpic3 dump --format dimacs` writes the bit-blasted CNF (the encoder's
clauses before variable elimination); then `sat_dimacs` (solver/examples/sat_dimacs.rs:
elimination + CDCL, the path `icpic3 solve --engine bitblast` takes) and the PySAT solvers
(`pip install python-sat`) decide it, one at a time, each with the same time limit.

    python3 benchmarks/scripts/sat_compare.py [--timeout 120] [FILE.hys ...]

Without files: the float-suite problems whose CNF takes a SAT solver more than a moment.
Prints a Markdown table (seconds, `-` = over the limit) and the geometric mean of icpic3's
time over each peer's on the CNFs both decided. Exit code 1 if two solvers disagree.
"""

import argparse
import math
import multiprocessing as mp
import os
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT = [
    "examples/floats/sterbenz.hys",
    "examples/floats/accumulate_fifths.hys",
    "examples/floats/twosum_binade_pair.hys",
    "examples/floats/twosum_cancellation.hys",
    "examples/floats/assoc_unit_interval.hys",
    "examples/floats/poly_near_one.hys",
]
PEERS = ["cadical195", "minisat22", "glucose4"]


def pysat_run(name, path, queue):
    from pysat.formula import CNF
    from pysat.solvers import Solver

    f = CNF(from_file=path)
    t = time.time()
    with Solver(name=name, bootstrap_with=f.clauses) as s:
        r = s.solve()
    queue.put((r, time.time() - t))


def peer(name, path, timeout):
    q = mp.Queue()
    p = mp.Process(target=pysat_run, args=(name, path, q))
    p.start()
    p.join(timeout)
    if p.is_alive():
        p.kill()
        p.join()
        return None, None
    r, secs = q.get()
    return r, secs


def ours(path, timeout):
    exe = os.path.join(REPO, "target/release/examples/sat_dimacs")
    t = time.time()
    try:
        out = subprocess.run([exe, path], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, None
    secs = time.time() - t
    if "Unsat" in out.stdout:
        return False, secs
    if "Sat" in out.stdout and "VIOLATES" not in out.stdout:
        return True, secs
    sys.exit(f"sat_dimacs: {out.stdout}{out.stderr}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    subprocess.run(
        ["cargo", "build", "--release", "-q", "-p", "solver", "--example", "sat_dimacs"],
        cwd=REPO,
        check=True,
    )
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "frontend"], cwd=REPO, check=True)
    files = args.files or [os.path.join(REPO, f) for f in DEFAULT]
    tmp = tempfile.mkdtemp(prefix="sat_compare_")
    names = ["icpic3"] + PEERS
    print("| problem | vars | clauses | answer | " + " | ".join(names) + " |")
    print("|---|---:|---:|---|" + "---:|" * len(names))
    ratios = {p: [] for p in PEERS}
    disagree = False
    for f in files:
        cnf = os.path.join(tmp, os.path.basename(f) + ".cnf")
        with open(cnf, "w") as fh:
            subprocess.run(
                [os.path.join(REPO, "target/release/icpic3"), "dump", "--format", "dimacs", f],
                stdout=fh,
                check=True,
            )
        header = next(l for l in open(cnf) if l.startswith("p "))
        nv, nc = header.split()[2:4]
        results = {"icpic3": ours(cnf, args.timeout)}
        for p in PEERS:
            results[p] = peer(p, cnf, args.timeout)
        answers = {r for r, _ in results.values() if r is not None}
        if len(answers) > 1:
            disagree = True
        answer = {True: "sat", False: "unsat"}.get(answers.pop() if len(answers) == 1 else None, "?")
        cells = ["-" if s is None else f"{s:.2f}" for _, s in (results[n] for n in names)]
        print(f"| {os.path.basename(f)} | {nv} | {nc} | {answer} | " + " | ".join(cells) + " |")
        sys.stdout.flush()
        o = results["icpic3"][1]
        for p in PEERS:
            s = results[p][1]
            if o is not None and s is not None:
                ratios[p].append(max(o, 1e-3) / max(s, 1e-3))
    for p in PEERS:
        if ratios[p]:
            g = math.exp(sum(math.log(r) for r in ratios[p]) / len(ratios[p]))
            print(f"icpic3 / {p}: geometric mean {g:.2f} on {len(ratios[p])} CNFs both decided")
    if disagree:
        print("DISAGREEMENT between solvers", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
