#!/usr/bin/env python3
"""Checks the engines' DEAD answers on real-c against gcc runs: each function once with the
concrete-run prepass off (ICPIC3_NO_CONCRETE_RUNS=1: every DEAD comes from an engine) and once
with it on (REACHABLE only when a gcc-compiled run passed the goal); a goal DEAD in the first
and REACHABLE in the second is a wrong DEAD. Run from the project root after cargo build --release.
(control_step/control_step1 of hyperloop and fcu-anode/tl-rtblogic are left out: long runs.)"""
# DEAD answers of the engines (concrete prepass off) against gcc-confirmed runs (prepass on)
import json, subprocess, sys, os
man = json.load(open('benchmarks/real-c.json'))
root = '../shared/benchmarks/real-c'; st = 'benchmarks/real-c-standins'
sel = {'gt3-drs-aero','throttle-valve-ctl','hyperloop-lcu-control','libresolar-bms','betaflight-filter','acc-cruise-control'}
tot_dead = 0; wrong = 0; checked = 0
for u in man['units']:
    if u['name'] not in sel: continue
    d = os.path.join(root, u['dir'])
    flags = []
    for i in u.get('include', []):
        flags.append('-I' + os.path.abspath(os.path.join(st, i[len('@standins/'):]) if i.startswith('@standins/') else os.path.join(d, i)))
    flags += ['-D' + x for x in u.get('defines', [])]
    files = [os.path.join(d, f) for f in u['files']]
    for fn in u['entries']:
        if fn in ('control_step', 'control_step1'): continue
        base = ['target/release/icpic3', 'deadcode', '--format', 'json', '--timeout', '2', '--jobs', '2', '--undefined-functions', 'nondet', '--data-model', u.get('data_model','lp64'), '--function', fn] + flags + files
        res = {}
        for mode in ('engines', 'runs'):
            env = dict(os.environ)
            if mode == 'engines': env['ICPIC3_NO_CONCRETE_RUNS'] = '1'
            try:
                p = subprocess.run(base, capture_output=True, text=True, env=env, timeout=900)
                res[mode] = {(g['file'], g['line'], g['column'], g['kind']): g['status'] for g in json.loads(p.stdout)['goals']}
            except Exception as e:
                res[mode] = {}
        dead = [k for k, s in res['engines'].items() if s == 'DEAD']
        bad = [k for k in dead if res['runs'].get(k) == 'REACHABLE']
        tot_dead += len(dead); wrong += len(bad)
        checked += sum(1 for k in dead if k in res['runs'])
        print(f"{u['name']:24} {fn:28} engine DEAD {len(dead):4}  contradicted by a gcc run: {len(bad)} {bad[:3]}", flush=True)
print(f"total: {tot_dead} engine DEAD answers, {checked} compared, {wrong} contradicted by confirmed gcc runs")
