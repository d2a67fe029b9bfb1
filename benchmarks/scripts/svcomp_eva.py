#!/usr/bin/env python3
"""Runs Frama-C Eva (Debian `frama-c-base`) on the svcomp-floats tasks as a peer of
`svcomp_floats.py` and scores `unreach-call` the way SV-COMP does.

usage: svcomp_eva.py [--timeout 60] [--jobs 2] [--precision N] [--dir BENCH_DIR] [--only S]

Eva over-approximates, so it can only answer `true`: a task is `true` when Eva finishes,
raises no alarm at all, and lists the task's error function (`reach_error` or
`__VERIFIER_error`, from expected.csv) among the functions it never reached
(`-metrics -metrics-eva-cover`); anything else (an alarm, the error function reached, a
time-out, a crash) is `unknown`. Machine model from the task's .yml (ILP32 -> x86_32,
LP64 -> x86_64). Score: +2 correct true, +1 correct false, -32 wrong true, -16 wrong false.
"""
import argparse, csv, os, re, subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor

def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.abspath(os.path.join(here, "..", ".."))
    ap = argparse.ArgumentParser()
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--precision", type=int, default=-1, help="-eva-precision (default: Eva's)")
    bench = os.environ.get("ICPIC3_BENCHMARKS") or os.path.join(root, "..", "shared", "benchmarks")
    ap.add_argument("--dir", default=os.path.abspath(os.path.join(bench, "svcomp-floats")))
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    rows = [r for r in csv.DictReader(open(os.path.join(a.dir, "expected.csv"))) if a.only in r["program"]]

    def run(r):
        prog = os.path.join(a.dir, r["program"])
        yml = open(os.path.join(a.dir, r.get("task_yml") or r["yml"])).read()
        m = re.search(r"data_model:\s*(\w+)", yml)
        machdep = "x86_64" if (m and m.group(1).upper() == "LP64") else "x86_32"
        err_fn = r.get("error_function") or "reach_error"
        cmd = ["frama-c", "-machdep", machdep, "-eva", "-metrics", "-metrics-eva-cover"]
        if a.precision >= 0:
            cmd += ["-eva-precision", str(a.precision)]
        cmd.append(prog)
        t0 = time.time()
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=a.timeout)
            out = p.stdout + p.stderr
            m = re.search(r"(\d+) alarms? generated", out)
            alarms = int(m.group(1)) if m else None
            u = re.search(r"Unreached functions \(\d+\) =\s*\n(.*?)\n\[", out, re.S)
            unreached = set(re.findall(r":\s*(\w+);", u.group(1))) if u else set()
            done = "done for function main" in out
            if p.returncode != 0 or alarms is None or not done:
                ans, detail = "unknown", f"Eva did not finish (exit {p.returncode})"
            elif alarms > 0:
                ans, detail = "unknown", f"{alarms} alarm(s)"
            elif err_fn in unreached:
                ans, detail = "true", f"0 alarms, {err_fn} not reached"
            else:
                ans, detail = "unknown", f"0 alarms but {err_fn} reached"
        except subprocess.TimeoutExpired:
            ans, detail = "unknown", "timeout"
        return r, ans, detail, time.time() - t0

    with ThreadPoolExecutor(max_workers=a.jobs) as ex:
        results = list(ex.map(run, rows))
    st = {"true": 0, "false": 0, "unknown": 0, "wrong_true": 0, "wrong_false": 0}
    for r, ans, detail, dt in results:
        exp = r["expected_unreach_call"]
        if ans in ("true", "false"):
            if ans == exp:
                st[ans] += 1
                mark = "ok"
            else:
                st["wrong_" + ans] += 1
                mark = "WRONG"
        else:
            st["unknown"] += 1
            mark = "-"
        print(f"{mark:5} {r['program']:60} expected {exp:5} got {ans:7} {dt:6.1f}s  {detail[:100]}")
    score = 2 * st["true"] + st["false"] - 32 * st["wrong_true"] - 16 * st["wrong_false"]
    print(f"summary: {len(results)} tasks, {st['true']} correct true, {st['false']} correct false, "
          f"{st['unknown']} unknown, {st['wrong_true'] + st['wrong_false']} wrong "
          f"({st['wrong_true']} wrong true); SV-COMP score {score}; timeout {a.timeout} s")

if __name__ == "__main__":
    main()
