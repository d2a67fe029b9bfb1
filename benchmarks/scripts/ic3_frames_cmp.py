#!/usr/bin/env python3
# IC3 frame modes side by side on examples/ts-suite and examples/ic3-suite (10 s per model):
# models answered and total time on the models both answer. Run from the repository root
# after `cargo build --release`.
import json,subprocess,sys
def run(frames):
    out={}
    for suite in ['examples/ts-suite','examples/ic3-suite']:
        for line in open(suite+'/expected.csv').read().splitlines()[1:]:
            f=line.split(',')[0]
            p=subprocess.run(['target/release/icpic3','solve','--engine','ic3','--frames',frames,'--timeout','10','--format','json',suite+'/'+f],capture_output=True,text=True)
            j=json.loads(p.stdout)
            if j['result'] in ('SAFE','UNSAFE'): out[f]=j['time_s']
    return out
a=run('single'); b=run('per-frame')
common=[f for f in a if f in b]
sa=sum(a[f] for f in common); sb=sum(b[f] for f in common)
print('single',len(a),'per-frame',len(b),'common',len(common),'single %.2f s per-frame %.2f s ratio per-frame/single %.2f'%(sa,sb,sb/sa))
print('only single',[f for f in a if f not in b],'only per-frame',[f for f in b if f not in a])
