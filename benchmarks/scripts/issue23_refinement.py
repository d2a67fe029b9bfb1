#!/usr/bin/env python3
"""Issue #23 item 2: adaptive refinement on an nlsat sample (every EVERY-th MANIFEST row,
default 300) at 3 s per file: the fixed width (`--msw 0.01`, the behaviour before) and
adaptive refinement (the default) with one binary in one run, each file in both configs
back to back. Usage: issue23_refinement.py BINARY [EVERY] > results.csv, then
issue23_refinement.py --summary results.csv for the table rows and the changed files.

Expected answers: Z3_BOUNDED.tsv (Z3 on the bounded problems), else the source status when
it is `unsat`."""
import subprocess, sys, time, csv
import os

if sys.argv[1] == "--summary":
    rows=list(csv.DictReader(open(sys.argv[2])))
    by={}
    for r in rows: by.setdefault(r['config'],[]).append(r)
    m={'SATISFIABLE':'sat','UNSATISFIABLE':'unsat'}
    for c,rs in by.items():
        dec=sum(1 for r in rs if r['result'] in m)
        sat=sum(1 for r in rs if r['result']=='SATISFIABLE'); uns=sum(1 for r in rs if r['result']=='UNSATISFIABLE')
        cand=sum(1 for r in rs if r['result']=='CANDIDATE SOLUTION')
        unk=sum(1 for r in rs if r['result'] not in m and r['result']!='CANDIDATE SOLUTION')
        wrong=[r['file'] for r in rs if r['result'] in m and r['expected'] and m[r['result']]!=r['expected']]
        noor=sum(1 for r in rs if r['result'] in m and not r['expected'])
        t=sum(float(r['seconds']) for r in rs)
        tdec=sum(float(r['seconds']) for r in rs if r['result'] in m)
        print(f"| {c} | {len(rs)} | {dec} | {sat} | {uns} | {len(wrong)} | {noor} | {cand} | {unk} | {t:.2f} | {tdec:.2f} |")
    f=by['fixed']; a=by['adaptive']
    for x,y in zip(f,a):
        if x['result']!=y['result']: print(x['file'],'expected',x['expected'] or '-',':',x['result'],'->',y['result'],y['seconds'],'s')
    both=[(float(x['seconds']),float(y['seconds'])) for x,y in zip(f,a) if x['result'] in m and y['result'] in m]
    print('both decided',len(both),'time ratio adaptive/fixed on them %.3f'%(sum(b for _,b in both)/sum(a for a,_ in both)))

    sys.exit(0)

root = os.environ.get("ICPIC3_NLSAT", os.path.join(os.path.dirname(__file__), "../../../shared/benchmarks/hys-public/nlsat-dreal3"))
binary = sys.argv[1]
every = int(sys.argv[2]) if len(sys.argv) > 2 else 300
rows = [l.rstrip("\n").split("\t") for l in open(f"{root}/MANIFEST.tsv") if not l.startswith("#")]
z3 = {l.split("\t")[0]: l.rstrip("\n").split("\t")[1] for l in open(f"{root}/Z3_BOUNDED.tsv") if not l.startswith("#")}
sample = rows[::every]
configs = {"fixed": ["--msw", "0.01"], "adaptive": []}
out = csv.writer(sys.stdout)
out.writerow(["file", "expected", "config", "result", "seconds"])
for r in sample:
    f, src = r[0], r[5]
    exp = z3.get(f, "")
    if exp not in ("sat", "unsat"):
        exp = "unsat" if src == "unsat" else ""
    for name, extra in configs.items():
        t = time.monotonic()
        p = subprocess.run([binary, "solve", "--timeout", "3", *extra, f"{root}/{f}"], capture_output=True, text=True, timeout=60)
        dt = time.monotonic() - t
        res = (p.stdout.splitlines() or ["(none)"])[0]
        out.writerow([f, exp, name, res, f"{dt:.3f}"])
        sys.stdout.flush()
