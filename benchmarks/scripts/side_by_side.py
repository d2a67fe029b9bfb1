#!/usr/bin/env python3
"""icpic3 next to Z3, cvc5 and Bitwuzla (SMT-LIB suites) or Z3 Spacer (CHC forms of the
transition systems), in one run of the benchmark runner: same machine, same time limit, same
parallelism, same scoring (a wrong answer of any solver makes the exit code 1).

    python3 benchmarks/scripts/side_by_side.py smtlib [--timeout 10] [--jobs 2]
        [--solvers z3,cvc5,bitwuzla] [--out DIR] [--filter P]
    python3 benchmarks/scripts/side_by_side.py ts [--timeout 60] [--jobs 2] [--out DIR]

`smtlib` runs the `smtlib-status` suite (260 files) and prints, per declared logic, the
number of decided problems (correct sat/unsat answers) of every solver. `ts` runs icpic3 on
the VMT files of `transition-systems` and Spacer on the CHC file of every row (the 50 with a
VMT form and the 36 CHC-only ones), one runner call each (results in `--out`/icpic3 and
`--out`/spacer), and prints decided counts per family.

Peers run through `benchmarks/scripts/peer_solve.py` with the PyPI packages `z3-solver`,
`cvc5` and `bitwuzla` (`pip install z3-solver cvc5 bitwuzla`); a solver whose package is
missing is left out with a note. The runner's own tables land in `--out` (`summary.md`,
`results.csv`).
"""

import argparse
import collections
import csv
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PEER = os.path.join(REPO, "benchmarks", "scripts", "peer_solve.py")
MODULES = {"z3": "z3", "spacer": "z3", "cvc5": "cvc5", "bitwuzla": "bitwuzla"}


def bench_dir():
    return os.environ.get("ICPIC3_BENCHMARKS", os.path.join(os.path.dirname(REPO), "shared", "benchmarks"))


def available(solver):
    r = subprocess.run([sys.executable, "-c", f"import {MODULES[solver]}"], capture_output=True)
    return r.returncode == 0


def run_runner(suites, configs, timeout, jobs, out, filt, with_icpic3=True):
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "frontend", "-p", "benchmarks"], cwd=REPO, check=True)
    icpic3 = os.path.join(REPO, "target", "release", "icpic3")
    cmd = [os.path.join(REPO, "target", "release", "runner")]
    for s in suites:
        cmd += ["--suite", s]
    if with_icpic3:
        cmd += ["--config", f"icpic3={icpic3} solve {{file}}"]
    for name in configs:
        cmd += ["--config", f"{name}={sys.executable} {PEER} {name} {{file}}"]
    cmd += ["--timeout", str(timeout), "--jobs", str(jobs), "--out", out, "--no-build"]
    if filt:
        cmd += ["--filter", filt]
    print("#", " ".join(cmd), file=sys.stderr)
    return subprocess.run(cmd, cwd=REPO).returncode


def read_results(out):
    with open(os.path.join(out, "results.csv")) as fh:
        return list(csv.DictReader(fh))


def table(title, groups, solvers, counts, totals):
    print(f"\n{title}\n")
    print("| group | problems | " + " | ".join(solvers) + " |")
    print("|---|---:|" + "---:|" * len(solvers))
    for g in groups:
        cells = []
        for s in solvers:
            c = counts[(g, s)]
            cells.append(f"{c['correct']}" + (f" ({c['wrong']} WRONG)" if c["wrong"] else ""))
        print(f"| {g} | {totals[g]} | " + " | ".join(cells) + " |")


def smtlib(args):
    solvers = [s for s in args.solvers.split(",") if s]
    peers = []
    for s in solvers:
        if available(s):
            peers.append(s)
        else:
            print(f"# {s}: Python package missing, left out", file=sys.stderr)
    code = run_runner(["smtlib-status"], peers, args.timeout, args.jobs, args.out, args.filter)
    logic = {}
    with open(os.path.join(bench_dir(), "smtlib-status", "expected.csv")) as fh:
        for r in csv.DictReader(fh):
            logic["smtlib-status/" + r["file"]] = r["declared_logic"]
    counts = collections.defaultdict(lambda: collections.Counter())
    totals = collections.Counter()
    seen = set()
    names = ["icpic3"] + peers
    for r in read_results(args.out):
        g = logic.get(r["file"], "?")
        if (r["file"]) not in seen:
            seen.add(r["file"])
            totals[g] += 1
            totals["all"] += 1
        for key in (g, "all"):
            counts[(key, r["config"])][r["status"]] += 1
    groups = sorted(k for k in totals if k != "all") + ["all"]
    table(f"Decided (correct sat/unsat) per declared logic, {args.timeout} s", groups, names, counts, totals)
    return code


def ts(args):
    peers = ["spacer"] if available("spacer") else []
    if not peers:
        print("# z3-solver missing: Spacer left out", file=sys.stderr)
    # icpic3 on the VMT forms and Spacer on the CHC forms, in two runs of the runner (one
    # run with both suites made each solver also read the other's format: Z3 reads a VMT
    # file as an SMT-LIB script and answers `sat`, which the runner scored as wrong)
    outs = [os.path.join(args.out, "icpic3")]
    code = run_runner(["transition-systems"], [], args.timeout, args.jobs, outs[0], args.filter)
    if peers:
        outs.append(os.path.join(args.out, "spacer"))
        code = max(code, run_runner(["transition-systems-chc"], peers, args.timeout, args.jobs, outs[1], args.filter, with_icpic3=False))
    counts = collections.defaultdict(lambda: collections.Counter())
    totals = collections.Counter()

    def family(f):
        p = f.split("/")
        if p[1] == "vmt":
            return p[2]
        return p[3] if p[2] == "vmt-chc-benchmarks" else p[2]

    for r in [r for o in outs for r in read_results(o)]:
        for key in (family(r["file"]), "all"):
            counts[(key, r["config"])][r["status"]] += 1
    for (k, c), v in list(counts.items()):
        totals[k] = max(totals[k], sum(v.values()))
    groups = sorted(k for k in totals if k != "all") + ["all"]
    table(
        f"Decided (correct SAFE/UNSAFE) per family, {args.timeout} s: icpic3 on the VMT files, "
        f"Spacer on the CHC files (families without VMT form: CHC only)",
        groups,
        ["icpic3"] + peers,
        counts,
        totals,
    )
    return code


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["smtlib", "ts"])
    ap.add_argument("--timeout", type=float)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--solvers", default="z3,cvc5,bitwuzla")
    ap.add_argument("--out")
    ap.add_argument("--filter", default="")
    args = ap.parse_args()
    if args.timeout is None:
        args.timeout = 10 if args.what == "smtlib" else 60
    if args.out is None:
        args.out = os.path.join(REPO, "benchmarks", "results", f"side_by_side_{args.what}")
    return smtlib(args) if args.what == "smtlib" else ts(args)


if __name__ == "__main__":
    sys.exit(main())
