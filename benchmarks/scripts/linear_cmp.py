#!/usr/bin/env python3
"""icpic3 with and without the simplex (`--linear simplex|icp`) next to Z3 on the QF_LIA and
QF_LRA files of `smtlib-status`, in one run: the configurations alternate file by file, so
machine load hits them alike (issue #22).

    python3 benchmarks/scripts/linear_cmp.py [--timeout 5] [--bin target/release/icpic3]
        [--logics QF_LIA,QF_LRA] [--no-z3]

Prints one CSV row per (file, configuration) on stdout: file,logic,expected,config,answer,
time_s,status (`ok`, `WRONG`, `unknown`), then a summary per logic on stderr: decided,
wrong, and the total time of the decided ones. Z3 runs through
benchmarks/scripts/peer_solve.py (PyPI z3-solver). Exit code 1 if any answer is wrong.
"""

import argparse
import collections
import csv
import os
import signal
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PEER = os.path.join(REPO, "benchmarks", "scripts", "peer_solve.py")


def bench_dir():
    return os.environ.get("ICPIC3_BENCHMARKS", os.path.join(os.path.dirname(REPO), "shared", "benchmarks"))


def run(cmd, timeout):
    t0 = time.monotonic()
    # a session of its own, so that the whole process group (a peer's child solver) dies
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout + 1)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return "timeout", time.monotonic() - t0
    dt = time.monotonic() - t0
    for line in out.splitlines():
        if line.strip() in ("sat", "unsat", "unknown"):
            return line.strip(), dt
    return "error", dt


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--timeout", type=float, default=5.0)
    ap.add_argument("--bin", default=os.path.join(REPO, "target", "release", "icpic3"))
    ap.add_argument("--logics", default="QF_LIA,QF_LRA")
    ap.add_argument("--no-z3", action="store_true")
    a = ap.parse_args()
    logics = set(a.logics.split(","))
    suite = os.path.join(bench_dir(), "smtlib-status")
    rows = []
    with open(os.path.join(suite, "expected.csv")) as f:
        for r in csv.DictReader(f):
            if r["declared_logic"] in logics:
                rows.append(r)
    configs = {
        "icpic3-icp": lambda p: [a.bin, "solve", "--linear", "icp", "--timeout", str(a.timeout), p],
        "icpic3-simplex": lambda p: [a.bin, "solve", "--linear", "simplex", "--timeout", str(a.timeout), p],
    }
    if not a.no_z3:
        configs["z3"] = lambda p: [sys.executable, PEER, "z3", p]
    w = csv.writer(sys.stdout)
    w.writerow(["file", "logic", "expected", "config", "answer", "time_s", "status"])
    summary = collections.defaultdict(lambda: [0, 0, 0.0])
    wrong = 0
    for r in rows:
        path = os.path.join(suite, r["file"])
        for name, cmd in configs.items():
            ans, dt = run(cmd(path), a.timeout)
            if ans in ("sat", "unsat") and dt > a.timeout + 0.5:
                ans = "timeout"
            if ans in ("sat", "unsat"):
                status = "ok" if ans == r["expected"] else "WRONG"
            else:
                status = "unknown"
            key = (r["declared_logic"], name)
            if status == "ok":
                summary[key][0] += 1
                summary[key][2] += dt
            elif status == "WRONG":
                summary[key][1] += 1
                wrong += 1
            w.writerow([r["file"], r["declared_logic"], r["expected"], name, ans, f"{dt:.2f}", status])
            sys.stdout.flush()
    for (logic, name), (ok, bad, t) in sorted(summary.items()):
        n = sum(1 for r in rows if r["declared_logic"] == logic)
        print(f"{logic} {name}: {ok}/{n} decided, {bad} wrong, {t:.2f} s solved time", file=sys.stderr)
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
