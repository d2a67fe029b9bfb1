#!/usr/bin/env python3
# IC3 statistics over examples/ts-suite and examples/ic3-suite: usage ic3_stats.py CONFIG FRAMES
# (e.g. ind0 single). Prints models answered and the mean reduction rate (ic3_red_rate_litdrop)
# and bound-generalization rate (ic3_impr_boundgen) over the runs that blocked a cube.
import json,subprocess,sys,time,os
cfg=sys.argv[1]; frames=sys.argv[2]
tot=0; red=[]; bg=[]; n=0; solved=0
for suite in ['examples/ts-suite','examples/ic3-suite']:
    for line in open(suite+'/expected.csv').read().splitlines()[1:]:
        f,v=line.split(',')[:2]
        t=time.time()
        p=subprocess.run(['target/release/icpic3','solve','--engine','ic3','--config',cfg,'--frames',frames,'--timeout','10','--format','json',suite+'/'+f],capture_output=True,text=True)
        try: j=json.loads(p.stdout)
        except Exception: continue
        es=j.get('engine_stats',{})
        if j['result'] in ('SAFE','UNSAFE'):
            solved+=1; tot+=j['time_s']
            if es.get('ic3_blocked_cubes',0)>0:
                red.append(es['ic3_red_rate_litdrop']); bg.append(es['ic3_impr_boundgen'])
print(cfg,frames,'solved',solved,'time_solved %.2f'%tot,'runs_with_blocking',len(red),'red_rate %.3f'%(sum(red)/len(red)),'boundgen %.3f'%(sum(bg)/len(bg)))
