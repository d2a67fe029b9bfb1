#!/usr/bin/env python3
"""Runs `icpic3 deadcode` on the real-c benchmark units (manifest: benchmarks/real-c.json).

usage: real_c.py [--bin target/release/icpic3] [--timeout 5] [--fn-timeout 600] [--jobs 2]
                 [--only UNIT-SUBSTRING] [--data-model ilp32|lp64] [--check-syntax]
                 [--json OUT.json]

For every unit and every entry function of the manifest: `icpic3 deadcode FILES... -I DIR...
-D NAME=VALUE... --data-model M --function F --timeout T --undefined-functions nondet
--format json`. Prints one line per function: analysed (goal counts DEAD / REACHABLE /
UNKNOWN and the time) or skipped (the reason icpic3 gave on standard error, with its
FILE:LINE:COL), then a summary. `--data-model` overrides the manifest's model for every unit
(the 32-bit C headers `cpp -m32` needs are not installed here). `--check-syntax` only runs
`gcc -fsyntax-only` with the same flags (the reference: every unit must pass it).

The benchmark root is ../shared/benchmarks/real-c (or $ICPIC3_BENCHMARKS/real-c); the
stand-in headers are in benchmarks/real-c-standins/.
"""
import argparse, json, os, subprocess, sys, time


def unit_flags(u, root, standins):
    d = os.path.join(root, u["dir"])
    flags = []
    for i in u.get("include", []):
        if i.startswith("@standins/"):
            p = os.path.join(standins, i[len("@standins/"):])
        else:
            p = os.path.join(d, i)
        flags.append("-I" + os.path.abspath(p))
    for x in u.get("defines", []):
        flags.append("-D" + x)
    files = [os.path.join(d, f) for f in u["files"]]
    return files, flags


def first_error(stderr):
    """The first FILE:LINE:COL message of icpic3's standard error (or its first line)."""
    lines = [l for l in stderr.splitlines() if l.strip()]
    for l in lines:
        parts = l.split(":")
        if len(parts) > 3 and parts[1].isdigit() and parts[2].isdigit():
            return l
    return lines[0] if lines else ""


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    proj = os.path.abspath(os.path.join(here, "..", ".."))
    bench = os.environ.get("ICPIC3_BENCHMARKS") or os.path.join(proj, "..", "shared", "benchmarks")
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(proj, "target", "release", "icpic3"))
    ap.add_argument("--manifest", default=os.path.join(proj, "benchmarks", "real-c.json"))
    ap.add_argument("--root", default=os.path.abspath(os.path.join(bench, "real-c")))
    ap.add_argument("--timeout", type=float, default=5.0, help="seconds per goal")
    ap.add_argument("--fn-timeout", type=float, default=600.0, help="seconds per function")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default="")
    ap.add_argument("--data-model", default="", choices=["", "ilp32", "lp64"])
    ap.add_argument("--check-syntax", action="store_true")
    ap.add_argument("--json", default="")
    ap.add_argument("--step-mode", action="store_true",
                    help="run the manifest's `steps` with deadcode --step/--init instead of --function")
    ap.add_argument("--tests", default="", help="with --step-mode: write test-case CSVs under DIR/UNIT/STEP")
    a = ap.parse_args()
    standins = os.path.join(proj, "benchmarks", "real-c-standins")
    units = [u for u in json.load(open(a.manifest))["units"] if a.only in u["name"]]

    if a.check_syntax:
        bad = 0
        for u in units:
            files, flags = unit_flags(u, a.root, standins)
            cmd = ["gcc", "-fsyntax-only", "-std=gnu11"] + flags + files
            r = subprocess.run(cmd, capture_output=True, text=True)
            ok = r.returncode == 0
            bad += not ok
            print(f"{u['name']:24} {'ok' if ok else 'FAILS'}  gcc -fsyntax-only -std=gnu11 {' '.join(flags)} {' '.join(u['files'])}")
            if not ok:
                print("    " + first_error(r.stderr))
        sys.exit(1 if bad else 0)

    rows = []
    tot = {"DEAD": 0, "REACHABLE": 0, "UNKNOWN": 0}
    t_all = time.time()
    for u in units:
        files, flags = unit_flags(u, a.root, standins)
        model = a.data_model or u["data_model"]
        runs = u.get("steps", []) if a.step_mode else [{"function": f} for f in u["entries"]]
        for run in runs:
            if "step" in run:
                f = run["step"]
                sel = ["--step", f] + (["--init", run["init"]] if run.get("init") else [])
                if run.get("inputs"):
                    sel += ["--inputs", ",".join(run["inputs"])]
                if run.get("params"):
                    sel += ["--params", ",".join(run["params"])]
                if a.tests:
                    sel += ["--tests", os.path.join(a.tests, u["name"], f)]
            else:
                f = run["function"]
                sel = ["--function", f]
            cmd = [a.bin, "deadcode", *files, *flags, "--data-model", model, *sel,
                   "--timeout", str(a.timeout), "--jobs", str(a.jobs),
                   "--undefined-functions", "nondet", "--format", "json"]
            t0 = time.time()
            try:
                r = subprocess.run(cmd, capture_output=True, text=True, timeout=a.fn_timeout)
                out, err, rc = r.stdout, r.stderr, r.returncode
            except subprocess.TimeoutExpired as e:
                out, err, rc = "", f"the function took longer than {a.fn_timeout} s", -1
            dt = time.time() - t0
            row = {"unit": u["name"], "function": f, "model": model, "time_s": round(dt, 2)}
            data = None
            try:
                data = json.loads(out) if out.strip() else None
            except json.JSONDecodeError:
                data = None
            goals = data["goals"] if data else []
            if data and not data["summary"].get("skipped_functions"):
                c = {"DEAD": 0, "REACHABLE": 0, "UNKNOWN": 0}
                for g in goals:
                    c[g["status"]] += 1
                for k in c:
                    tot[k] += c[k]
                row.update(status="analysed", goals=len(goals), **{k.lower(): v for k, v in c.items()},
                           undefined_nondet=data["summary"].get("undefined_functions_nondet", []),
                           environment=data["summary"].get("environment", []))
                und = data["summary"].get("undefined_functions_nondet", [])
                print(f"{u['name']:24} {f:34} analysed  {len(goals):4} goals: {c['DEAD']} DEAD, "
                      f"{c['REACHABLE']} REACHABLE, {c['UNKNOWN']} UNKNOWN  ({dt:.1f} s)"
                      + (f"  [nondet: {', '.join(und)}]" if und else ""))
            else:
                why = first_error(err)
                row.update(status="skipped", reason=why, exit_code=rc)
                print(f"{u['name']:24} {f:34} skipped   ({dt:.1f} s)  {why}")
            rows.append(row)
    an = [r for r in rows if r["status"] == "analysed"]
    print(f"summary: {len(rows)} function(s) in {len(units)} unit(s): {len(an)} analysed, "
          f"{len(rows) - len(an)} skipped; goals: {tot['DEAD']} DEAD, {tot['REACHABLE']} REACHABLE, "
          f"{tot['UNKNOWN']} UNKNOWN; {time.time() - t_all:.1f} s")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"rows": rows, "totals": tot}, fh, indent=1)


if __name__ == "__main__":
    main()
