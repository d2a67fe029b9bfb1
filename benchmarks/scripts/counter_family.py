#!/usr/bin/env python3
"""The scaled counter family of issue #22 item 2: two counters `a`, `b` with `a + b = N` as the
invariant that proves the system safe, and box IC3 has to learn it value by value.

    python3 benchmarks/scripts/counter_family.py --out DIR [N ...]     # writes DIR/counter_N.hys
    python3 benchmarks/scripts/counter_family.py --time [--timeout 60] [--bin target/release/icpic3]
        [--configs ind0,ind0+rel] [N ...]                              # also runs them

`a` starts at N and counts down while `b` counts up; at `a = 0` both reset (a = N, b = 0). The
target `a = 0 and b != N` is unreachable because `a + b = N` holds in every reachable state;
`not TARGET` alone is not inductive (`a = 1, b = N - 2` steps into the target), so IC3 must
learn the invariant. A box lemma excludes bad points of one value of `a` (`a = 1 -> b = N - 1`
as `a != 1 or b <= N - 2`-style boxes), so box IC3 needs lemmas for every value of `a`; the
relational lemmas `a + b <= N` and `a + b >= N` exclude all of them at once.

With `--time` prints one CSV row per (N, configuration): N,config,answer,time_s. The default
sizes are 10, 20, 40, ..., 640. Configurations alternate per N, so machine load hits them alike.
"""

import argparse
import os
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def system(n):
    return f"""-- counter family, N = {n}: a + b = {n} in every reachable state
DECL
  int [0, {n}] a;
  int [0, {2 * n}] b;

INIT
  a = {n};
  b = 0;

TRANS
  a > 0 -> (a' = a - 1 and b' = b + 1);
  a = 0 -> (a' = {n} and b' = 0);

TARGET
  a = 0 and b != {n};
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=None, help="directory for the .hys files")
    ap.add_argument("--time", action="store_true", help="run icpic3 on each file")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--bin", default=os.path.join(REPO, "target", "release", "icpic3"))
    ap.add_argument("--configs", default="ind0,ind0+rel")
    ap.add_argument("sizes", nargs="*", type=int)
    a = ap.parse_args()
    sizes = a.sizes or [10 * 2**k for k in range(7)]
    out = a.out or "/tmp/counter_family"
    os.makedirs(out, exist_ok=True)
    paths = {}
    for n in sizes:
        p = os.path.join(out, f"counter_{n}.hys")
        with open(p, "w") as f:
            f.write(system(n))
        paths[n] = p
    if not a.time:
        print("\n".join(paths[n] for n in sizes))
        return 0
    print("N,config,answer,time_s")
    for n in sizes:
        for c in a.configs.split(","):
            cmd = [a.bin, "solve", "--engine", "ic3", "--config", c, "--timeout", str(a.timeout), paths[n]]
            t0 = time.monotonic()
            try:
                r = subprocess.run(cmd, capture_output=True, text=True, timeout=a.timeout + 10)
                ans = (r.stdout.splitlines() or ["?"])[0].strip()
            except subprocess.TimeoutExpired:
                ans = "TIMEOUT"
            print(f"{n},{c},{ans},{time.monotonic() - t0:.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
