#!/usr/bin/env python3
"""Runs `icpic3 solve TASK.c` on the svcomp-floats benchmark set and scores the answers.

usage: svcomp_floats.py [--bin target/release/icpic3] [--timeout 20] [--dir BENCH_DIR]
                        [--only SUBSTRING] [--jobs 1] [--witness-dir DIR]

The data model comes from each task's .yml (`data_model: ILP32` or LP64). A `true` on a task
listed in DISPUTED.md counts as wrong (its official `true` does not hold under exact
semantics); `false` or `unknown` there is correct/undecided. Prints one line per task and a
summary: decided (correct true / correct false), unknown, wrong. Exit code 1 if any answer is
wrong.
"""
import argparse, csv, os, re, subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor

DISPUTED = {"c/loop-floats-scientific-comp/loop1-1.c", "c/loop-floats-scientific-comp/loop3.c"}

def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.abspath(os.path.join(here, "..", ".."))
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(root, "target", "release", "icpic3"))
    ap.add_argument("--timeout", type=float, default=20.0)
    bench = os.environ.get("ICPIC3_BENCHMARKS") or os.path.join(root, "..", "shared", "benchmarks")
    ap.add_argument("--dir", default=os.path.abspath(os.path.join(bench, "svcomp-floats")))
    ap.add_argument("--only", default="")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--witness-dir", default="")
    a = ap.parse_args()
    rows = list(csv.DictReader(open(os.path.join(a.dir, "expected.csv"))))
    rows = [r for r in rows if a.only in r["program"]]

    def run(r):
        prog = os.path.join(a.dir, r["program"])
        # svcomp-floats names the column task_yml, svcomp-floats-2 names it yml
        yml = open(os.path.join(a.dir, r.get("task_yml") or r["yml"])).read()
        m = re.search(r"data_model:\s*(\w+)", yml)
        dm = (m.group(1) if m else "ILP32").lower()
        cmd = [a.bin, "solve", "--timeout", str(a.timeout), "--data-model", dm, prog]
        if a.witness_dir:
            os.makedirs(a.witness_dir, exist_ok=True)
            cmd += ["--witness", os.path.join(a.witness_dir, os.path.basename(prog) + ".yml")]
        t0 = time.time()
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=a.timeout * 3 + 30)
            out = p.stdout.splitlines()
            ans = out[0].strip() if out else "error"
            detail = out[1] if len(out) > 1 else p.stderr.strip().splitlines()[0] if p.stderr.strip() else ""
            if p.returncode not in (0, 1, 10, 20):
                ans, detail = "error", f"exit code {p.returncode}: {p.stderr.strip()[-300:]}"
        except subprocess.TimeoutExpired:
            ans, detail = "unknown", "hard timeout"
        return r, ans, detail, time.time() - t0

    with ThreadPoolExecutor(max_workers=a.jobs) as ex:
        results = list(ex.map(run, rows))
    stats = {"true": 0, "false": 0, "unknown": 0, "wrong": 0, "error": 0}
    wrong_true = 0
    for r, ans, detail, dt in results:
        exp = r["expected_unreach_call"]
        disputed = r["program"] in DISPUTED
        if ans in ("true", "false"):
            ok = (ans == exp) and not (disputed and ans == "true")
            if disputed and ans == "false":
                ok = True
            if ok:
                stats[ans] += 1
                mark = "ok"
            else:
                stats["wrong"] += 1
                wrong_true += ans == "true"
                mark = "WRONG"
        elif ans == "unknown":
            stats["unknown"] += 1
            mark = "-"
        else:
            stats["error"] += 1
            mark = "ERROR"
        print(f"{mark:5} {r['program']:60} expected {exp:5} got {ans:7} {dt:6.1f}s  {detail[:110]}")
    dec = stats["true"] + stats["false"]
    print(f"summary: {len(results)} tasks, {dec} decided correctly ({stats['true']} true, {stats['false']} false), "
          f"{stats['unknown']} unknown, {stats['wrong']} wrong, {stats['error']} errors; timeout {a.timeout} s")
    # SV-COMP scoring: +2 correct true, +1 correct false, -32 wrong true, -16 wrong false
    score = 2 * stats["true"] + stats["false"] - 32 * wrong_true - 16 * (stats["wrong"] - wrong_true)
    print(f"SV-COMP score: {score}")
    sys.exit(1 if stats["wrong"] or stats["error"] else 0)

if __name__ == "__main__":
    main()
