#!/usr/bin/env python3
"""Independent oracle for `icpic3 deadcode --step`: checks DEAD answers on the real-c units
against random runs of the real gcc-compiled unit.

usage:
  real_c_step_oracle.py run-icpic3 --out DIR [--only UNIT] [--timeout 2] [--jobs 1]
      runs `icpic3 deadcode FILES -I.. -D.. --data-model M --step S [--init I] --tests DIR/tests/UNIT/S
      --timeout T --jobs J --undefined-functions nondet --format json` for every `steps` entry of
      benchmarks/real-c.json, one at a time, and keeps the raw JSON (goals with line/column/kind/
      status, summary.environment) with the command, time and standard error in DIR/UNIT__STEP.json.
      (real_c.py --step-mode --json keeps only counts per run, not the goals, hence this runner.)
  real_c_step_oracle.py check --icpic3 DIR [--seeds 1-32] [--steps 10000] [--replay] [--json OUT]
      checks every DEAD goal of DIR/UNIT__STEP.json against the gcc build of the unit driven by the
      hand-written driver benchmarks/real-c-oracle/UNIT__STEP.c.

Independence. The drivers are written from ../shared/benchmarks/real-c/SOURCES.md (entry/step and
init functions, the documented inputs, types and word size) and the unit's headers, not from
icpic3's output or its harness/environment construction: each driver seeds a PRNG (splitmix64)
from argv, sets up the context (calloc'd struct for acc/bms/betaflight; init with random
arguments where the init function takes some), calls INIT once, then per step assigns fresh
random values to every documented input and calls STEP (see oracle.h: doubles over mixed scales
0, -0, +-1, small integers, +-1e3, +-1e6, 2^-40..2^80, DBL_MAX/denormal, NaN/inf; the input's
plausible range; numeric literals of the unit's own source (+-, next float, +-1%) as a dictionary;
integers at and next to their limits; booleans 0/1 only; values held ("sticky") for 1..60 or
1..800 steps; the mix depends on seed % 4). The only use of icpic3 here is to read the goals it
reports (and its test-case CSVs for the optional replay).

Method.
* Build: the unit directory (and benchmarks/real-c-standins) is copied to a temporary directory;
  the copy is instrumented at each branch goal's line:column (all goals, whatever their status),
  then compiled with the driver and oracle_rt.c: gcc -std=gnu11 -O0 -g -fno-inline
  -ffp-contract=off, -m32 -msse2 -mfpmath=sse for the ilp32 units (the gcc-multilib 32-bit
  headers and libraries are installed here; SSE instead of the x87 unit, whose excess precision
  would not be IEEE float/double arithmetic as on the targets), and
  -fsanitize=undefined,float-cast-overflow,float-divide-by-zero,address -fsanitize-recover=all.
  The example mains (ert_main.c, acc's src/main.c) are not linked (they define main).
* Columns (checked on a small example): the `then` goal's column is the start of the then-
  statement; `else` is the start of the else-statement, or, for an `if` without `else`, the
  start of the condition (just after `if (`); `loop-body` is the start of the body; `case`/
  `default` the label keyword. Instrumentation (on a copy where comments, strings and
  preprocessor lines are blanked for scanning; no newline is added, so line numbers stay):
    `{`-block            ->  `{ __oracle_hit(ID); ...`
    simple statement     ->  `{ __oracle_hit(ID); stmt; }` (end = the first `;` at depth 0)
    if/while/switch stmt ->  `if ((__oracle_hit(ID), (cond)))` (the condition is evaluated
                             exactly when the statement starts)
    else without else    ->  `if (__oracle_cond(-1, ID, !!(cond)))` (hit when cond is false)
    case/default label   ->  `case K: __oracle_hit(ID);`
  Every instrumented position is checked first (the token before a then-statement must be `)`,
  before an else-statement `else`, before a condition start `(` after `if`, a loop body after `)`
  or `do`, a label must start with case/default); a goal that fails the check, or a statement
  starting with for/do, is "undecided" (with the reason).
* A run: the driver for SEED and STEPS; oracle_rt.c appends the first hit of every marker with
  the step number (0 = during init) to a file, flushed at once (a crash loses nothing).
* Verdict for a DEAD branch goal: marker hit in any run = CONTRADICTED (a wrong DEAD; printed
  with `!!!`, the seed and the step); no hit = checked, not contradicted. A case label whose
  previous statement is not break/return/goto/continue (or `{`) can also be reached by fall-
  through: a hit there is reported as undecided, not as a contradiction.
* UB goals (signed-overflow, division-by-zero, invalid-shift, invalid-pointer-access,
  array-index-out-of-bounds, float-to-int conversions): the UBSan `FILE:LINE:COL: runtime error`
  lines and the first unit frame of every AddressSanitizer report are matched by file, line and
  kind (UB_PATTERNS). One goal of that kind on the line: a report contradicts it. Several: a
  report at sanitizer column C (the operator) is attributed to the goal with the largest column
  <= C (icpic3 gives the expression's start) -- flagged "column heuristic" in the output;
  ambiguous cases are undecided. Kinds without a sanitizer check are undecided.
* --replay: for every REACHABLE branch goal with a CSV test case (header `step,<input names>`, one
  row per step), the driver replays the CSV (`DRIVER --csv FILE`: init, then per row store the
  named inputs and call step) on the instrumented build; the goal's own marker must be hit. CSV
  columns must be driver inputs (or names the driver accepts for replay only, e.g. state that
  icpic3 treats as an input); otherwise the test case is counted as unreplayable.
* Inputs: the driver's input list (`DRIVER --list`) is compared with icpic3's
  summary.environment[].inputs (step entry); both differences are printed and stored.

Limits.
* Random testing: "not contradicted" is no proof; the fraction of branch goals hit by the random
  runs ("branch goals hit X/Y") shows how strong the check is per unit. Narrow windows (equality on
  doubles, long sequences of held inputs, large step counters) may be missed.
* The drivers' environment is chosen from SOURCES.md; where icpic3's environment is narrower (e.g.
  it starts a struct without init from zero, or keeps a global that the driver writes), a
  contradiction must be checked against the assumptions (acc: odd seeds start from a random
  Vehicle_t; bms: odd seeds of bms_soc_update run bms_init_config before bms_soc_reset; bms
  k_uptime_get jumps arbitrarily on some steps of seeds with seed%4 in {0,3}).
* Float UB: float division by zero is reported by -fsanitize=float-divide-by-zero and matched to
  division-by-zero goals only when icpic3 has such a goal on that line.
* Sanitizers see out-of-bounds accesses of arrays with known bounds and of whole objects
  (ASan redzones); an access that stays inside another object/field may go unseen.
* icpic3 reports columns after macro expansion (a `then` after `if (x > M_PIf)` is given the
  column it has in the expanded line): such positions fail the token check and are counted as
  "not instrumentable" (for DEAD goals: undecided); UB goals are matched by line, and by column
  only when a line holds several of one kind.
* gcov is not used: gcc 12 has no condition coverage and gcov's branch arcs carry no columns, so
  markers at the goals' columns are used instead (exact per goal).
"""
import argparse, json, os, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
PROJ = os.path.abspath(os.path.join(HERE, "..", ".."))
BENCH = os.environ.get("ICPIC3_BENCHMARKS") or os.path.join(PROJ, "..", "shared", "benchmarks")
ROOT = os.environ.get("ORACLE_ROOT") or os.path.abspath(os.path.join(BENCH, "real-c"))
STANDINS = os.path.join(PROJ, "benchmarks", "real-c-standins")
MANIFEST = os.environ.get("ORACLE_MANIFEST") or os.path.join(PROJ, "benchmarks", "real-c.json")
DRIVERS = os.environ.get("ORACLE_DRIVERS") or os.path.join(PROJ, "benchmarks", "real-c-oracle")


def unit_flags(u):
    d = os.path.join(ROOT, u["dir"])
    flags = []
    for i in u.get("include", []):
        p = os.path.join(STANDINS, i[len("@standins/"):]) if i.startswith("@standins/") else os.path.join(d, i)
        flags.append("-I" + os.path.abspath(p))
    flags += ["-D" + x for x in u.get("defines", [])]
    return [os.path.join(d, f) for f in u["files"]], flags


def step_runs(only=""):
    for u in json.load(open(MANIFEST))["units"]:
        if only and only not in u["name"]:
            continue
        for r in u.get("steps", []):
            yield u, r


def run_icpic3(a):
    """Runs icpic3 deadcode --step for every manifest step run, one at a time; keeps the raw JSON."""
    os.makedirs(a.out, exist_ok=True)
    for u, r in step_runs(a.only):
        files, flags = unit_flags(u)
        key = f"{u['name']}__{r['step']}"
        dst = os.path.join(a.out, key + ".json")
        if os.path.exists(dst) and not a.force:
            continue
        sel = ["--step", r["step"]] + (["--init", r["init"]] if r.get("init") else [])
        tests = os.path.join(a.out, "tests", u["name"], r["step"])
        cmd = [a.bin, "deadcode", *files, *flags, "--data-model", u["data_model"], *sel,
               "--tests", tests, "--timeout", str(a.timeout), "--jobs", str(a.jobs),
               "--undefined-functions", "nondet", "--format", "json"]
        t0 = time.time()
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=a.fn_timeout)
            out, err, rc = p.stdout, p.stderr, p.returncode
        except subprocess.TimeoutExpired:
            out, err, rc = "", f"took longer than {a.fn_timeout} s", -1
        dt = time.time() - t0
        try:
            data = json.loads(out)
        except Exception:
            data = None
        rec = {"unit": u["name"], "step": r["step"], "init": r.get("init"), "command": " ".join(cmd),
               "time_s": round(dt, 1), "exit_code": rc, "stderr": err[-4000:], "result": data}
        json.dump(rec, open(dst, "w"), indent=1)
        n = len(data["goals"]) if data else 0
        nd = sum(g["status"] == "DEAD" for g in data["goals"]) if data else 0
        print(f"{key:50} rc={rc} {dt:7.1f}s goals={n} dead={nd}", flush=True)



# ---------------------------------------------------------------------------------------
# instrumentation of goals at their line:column
# ---------------------------------------------------------------------------------------

def blank_comments(t):
    """The text with comments and string/char literal contents replaced by spaces (same
    length, newlines kept), so that scanning for tokens is not fooled by them."""
    out = list(t)
    i, n = 0, len(t)
    while i < n:
        c = t[i]
        if c == '/' and i + 1 < n and t[i + 1] == '*':
            j = t.find('*/', i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if out[k] != '\n':
                    out[k] = ' '
            i = j
        elif c == '/' and i + 1 < n and t[i + 1] == '/':
            j = t.find('\n', i)
            j = n if j < 0 else j
            for k in range(i, j):
                out[k] = ' '
            i = j
        elif c in '"\'':
            j = i + 1
            while j < n and t[j] != c and t[j] != '\n':
                j += 2 if t[j] == '\\' else 1
            for k in range(i + 1, min(j, n)):
                out[k] = ' '
            i = j + 1
        elif c == '#' and (i == 0 or t[:i].rstrip(' \t').endswith('\n') or t[:i].strip(' \t') == ''):
            # preprocessor line (with continuations): blank it
            j = i
            while True:
                e = t.find('\n', j)
                if e < 0:
                    e = n
                    break
                if t[e - 1] == '\\':
                    j = e + 1
                    continue
                break
            for k in range(i, e):
                if out[k] != '\n':
                    out[k] = ' '
            i = e
        else:
            i += 1
    return ''.join(out)


IDENT = set('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_')


def prev_token(b, pos):
    """(token, start) of the token before pos in blanked text b."""
    i = pos - 1
    while i >= 0 and b[i].isspace():
        i -= 1
    if i < 0:
        return '', 0
    if b[i] in IDENT:
        j = i
        while j >= 0 and b[j] in IDENT:
            j -= 1
        return b[j + 1:i + 1], j + 1
    return b[i], i


def word_at(b, pos):
    j = pos
    while j < len(b) and b[j] in IDENT:
        j += 1
    return b[pos:j]


def match_paren(b, pos):
    """pos is at '(' / '[' / '{': the offset of the matching closer."""
    depth = 0
    for i in range(pos, len(b)):
        if b[i] in '([{':
            depth += 1
        elif b[i] in ')]}':
            depth -= 1
            if depth == 0:
                return i
    return -1


def stmt_end(b, pos):
    """end (offset after ';') of a simple statement starting at pos, or -1."""
    depth = 0
    for i in range(pos, len(b)):
        c = b[i]
        if c in '([{':
            depth += 1
        elif c in ')]}':
            depth -= 1
            if depth < 0:
                return -1
        elif c == ';' and depth == 0:
            return i + 1
    return -1


def plan_statement(b, pos, gid):
    """Insertions that call __oracle_hit(gid) exactly when the statement at pos starts to run."""
    if b[pos] == '{':
        return [(pos + 1, f' __oracle_hit({gid}); ')], None
    w = word_at(b, pos)
    if w in ('if', 'while', 'switch'):
        p = pos + len(w)
        while p < len(b) and b[p].isspace():
            p += 1
        if p < len(b) and b[p] == '(':
            q = match_paren(b, p)
            if q > 0:
                return [(p + 1, f'(__oracle_hit({gid}), ('), (q, '))')], None
        return None, f'statement `{w}` without a parenthesised condition'
    if w in ('for', 'do', 'else', 'case', 'default'):
        return None, f'statement starts with `{w}` (not instrumented)'
    e = stmt_end(b, pos)
    if e < 0:
        return None, 'end of the statement not found'
    return [(pos, f'{{ __oracle_hit({gid}); '), (e, ' }')], None


def plan_goal(b, pos, kind, gid):
    """(insertions, None) or (None, reason)."""
    if pos >= len(b):
        return None, 'column beyond the line'
    tok, tpos = prev_token(b, pos)
    if kind == 'then':
        if tok != ')':
            return None, f'then column not after `)` (after `{tok}`)'
        return plan_statement(b, pos, gid)
    if kind == 'else':
        if tok == 'else':
            return plan_statement(b, pos, gid)
        if tok == '(' and prev_token(b, tpos)[0] == 'if':
            q = match_paren(b, tpos)
            if q < 0:
                return None, 'condition end not found'
            return [(tpos + 1, f'__oracle_cond(-1, {gid}, !!('), (q, '))')], None
        return None, f'else column neither after `else` nor a condition start (after `{tok}`)'
    if kind == 'loop-body':
        if tok not in (')', 'do'):
            return None, f'loop body not after `)`/`do` (after `{tok}`)'
        return plan_statement(b, pos, gid)
    if kind in ('case', 'default'):
        w = word_at(b, pos)
        if w != kind:
            return None, f'`{kind}` goal column is at `{w or b[pos]}`'
        # the marker after the label's ':' also runs on a fall-through from the previous
        # case: only a label reached with a break/return/goto/continue (or `{`) before it is exact
        fall = True
        if tok == '{':
            fall = False
        elif tok == ';':
            # last statement before the label
            k = tpos - 1
            depth = 0
            while k >= 0:
                if b[k] in ')]':
                    depth += 1
                elif b[k] in '([':
                    depth -= 1
                elif depth == 0 and b[k] in ';{}:':
                    break
                k -= 1
            first = b[k + 1:tpos].strip().split('(')[0].split()
            if first and first[0] in ('break', 'return', 'goto', 'continue'):
                fall = False
        depth = 0
        for i in range(pos, len(b)):
            if b[i] in '([':
                depth += 1
            elif b[i] in ')]':
                depth -= 1
            elif b[i] == ':' and depth == 0:
                ins = [(i + 1, f' __oracle_hit({gid}); ')]
                return ins, ('fall-through possible' if fall else None)
        return None, 'label colon not found'
    return None, f'kind {kind} not instrumented'


BRANCH_KINDS = ('then', 'else', 'loop-body', 'case', 'default')

# UBSan / ASan message -> icpic3 goal kinds it witnesses
UB_PATTERNS = [
    ('signed integer overflow', ('signed-overflow',)),
    ('negation of', ('signed-overflow',)),
    ('cannot be represented in type', ('signed-overflow',)),
    ('integer divide by zero', ('division-by-zero',)),
    ('division by zero', ('division-by-zero',)),
    ('shift exponent', ('invalid-shift',)),
    ('left shift of', ('invalid-shift',)),
    ('index', ('array-index-out-of-bounds', 'invalid-pointer-access')),
    ('null pointer', ('invalid-pointer-access',)),
    ('misaligned address', ('invalid-pointer-access',)),
    ('insufficient space for an object', ('invalid-pointer-access', 'array-index-out-of-bounds')),
    ('pointer overflow', ('invalid-pointer-access',)),
    ('is outside the range of representable values', ('float-to-int-out-of-range', 'float-to-int-overflow', 'float-conversion-overflow',
                                                       'conversion-overflow', 'float-cast-overflow')),
    ('AddressSanitizer', ('invalid-pointer-access', 'array-index-out-of-bounds')),
]


def ub_kinds(msg):
    for pat, kinds in UB_PATTERNS:
        if pat in msg:
            return kinds
    return ()


def parse_sanitizer(stderr, copy2orig):
    """[(orig_file, line, col, message)] of UBSan `file:line:col: runtime error:` lines and the
    first frame in the unit of every AddressSanitizer report."""
    out = []
    lines = stderr.splitlines()
    i = 0
    while i < len(lines):
        l = lines[i]
        if ': runtime error: ' in l:
            loc, msg = l.split(': runtime error: ', 1)
            parts = loc.rsplit(':', 2)
            if len(parts) == 3 and parts[1].isdigit():
                f = copy2orig.get(os.path.realpath(parts[0]))
                if f:
                    out.append((f, int(parts[1]), int(parts[2]) if parts[2].isdigit() else 0, msg.strip()))
        elif 'ERROR: AddressSanitizer' in l:
            msg = l.split('ERROR: ', 1)[1]
            for j in range(i + 1, min(i + 60, len(lines))):
                m = lines[j].strip()
                if m.startswith('#') and ' in ' in m:
                    loc = m.rsplit(' ', 1)[-1]
                    parts = loc.rsplit(':', 2)
                    if len(parts) == 3 and parts[1].isdigit():
                        f = copy2orig.get(os.path.realpath(parts[0]))
                        if f:
                            out.append((f, int(parts[1]), int(parts[2]) if parts[2].isdigit() else 0,
                                        'AddressSanitizer: ' + msg))
                            break
        i += 1
    return out


def build_unit(u, run, goals, work, m32, log):
    """Copies the unit (and its stand-ins) to `work`, instruments every branch goal, builds the
    driver with gcc. Returns (binary, ids: gid -> goal, undecidable: gid -> reason, copy2orig)."""
    import shutil
    udir = os.path.join(ROOT, u["dir"])
    cu = os.path.join(work, "unit")
    cs = os.path.join(work, "standins")
    shutil.copytree(udir, cu, symlinks=False)
    shutil.copytree(STANDINS, cs)
    def to_copy(p):
        p = os.path.realpath(p)
        if p.startswith(os.path.realpath(udir) + os.sep):
            return os.path.join(cu, os.path.relpath(p, os.path.realpath(udir)))
        if p.startswith(os.path.realpath(STANDINS) + os.sep):
            return os.path.join(cs, os.path.relpath(p, os.path.realpath(STANDINS)))
        return None
    copy2orig = {}
    ids, reasons = {}, {}
    byfile = {}
    for gid, g in enumerate(goals):
        ids[gid] = g
        if g["kind"] not in BRANCH_KINDS:
            continue
        byfile.setdefault(g["file"], []).append(gid)
    for f in set(g["file"] for g in goals):
        c = to_copy(f)
        if c:
            copy2orig[os.path.realpath(c)] = f
    for f, gids in byfile.items():
        c = to_copy(f)
        if not c:
            for gid in gids:
                reasons[gid] = 'goal file outside the unit'
            continue
        t = open(c, 'rb').read().decode('latin-1')
        b = blank_comments(t)
        starts = [0]
        for k, ch in enumerate(t):
            if ch == '\n':
                starts.append(k + 1)
        ins = []
        for gid in gids:
            g = ids[gid]
            if g["line"] - 1 >= len(starts):
                reasons[gid] = 'line beyond the file'
                continue
            pos = starts[g["line"] - 1] + g["column"] - 1
            plan, why = plan_goal(b, pos, g["kind"], gid)
            if plan is None:
                reasons[gid] = why
                continue
            if why:
                reasons[gid] = why  # instrumented, but a hit is not decisive
            ins += [(o, k2, s) for k2, (o, s) in enumerate(plan)]
        # apply from the end; at one offset, the later-planned text first
        for o, _, s in sorted(ins, key=lambda x: (x[0], x[1]), reverse=True):
            t = t[:o] + s + t[o:]
        open(c, 'wb').write(t.encode('latin-1'))
    decl = os.path.join(work, "oracle_decl.h")
    open(decl, "w").write("void __oracle_hit(int);\nint __oracle_cond(int, int, int);\n")
    files, flags = unit_flags(u)
    cfiles = [to_copy(f) for f in files if os.path.basename(f) not in ("ert_main.c", "main.c")]
    skipped = [os.path.relpath(f, udir) for f in files if os.path.basename(f) in ("ert_main.c", "main.c")]
    cflags = []
    for fl in flags:
        if fl.startswith("-I"):
            cflags.append("-I" + (to_copy(fl[2:] + os.sep + "x")[:-2] if to_copy(fl[2:] + os.sep + "x") else fl[2:]))
        else:
            cflags.append(fl)
    odir = os.path.join(PROJ, "benchmarks", "real-c-oracle")
    drv = os.path.join(DRIVERS, f"{u['name']}__{run['step']}.c")
    exe = os.path.join(work, "driver")
    cmd = ["gcc", "-std=gnu11", "-O0", "-g", "-fno-inline", "-w"] + (["-m32", "-msse2", "-mfpmath=sse"] if m32 else []) + ["-ffp-contract=off",
        "-fsanitize=undefined,float-cast-overflow,float-divide-by-zero,address",
        "-fsanitize-recover=all", "-fno-omit-frame-pointer",
        "-include", decl, "-I" + odir] + cflags + [drv, os.path.join(odir, "oracle_rt.c")] + cfiles + ["-lm", "-o", exe]
    p = subprocess.run(cmd, capture_output=True, text=True)
    log.append({"build": " ".join(cmd), "rc": p.returncode, "stderr": p.stderr[-3000:], "not_linked": skipped})
    if p.returncode != 0:
        return None, ids, reasons, copy2orig
    return exe, ids, reasons, copy2orig


def literal_dict(u, path):
    """Numeric literals of the unit's .c/.h files (the drivers' ORACLE_DICT)."""
    import re
    nums = set()
    d = os.path.join(ROOT, u["dir"])
    for dp, _, fs in os.walk(d):
        for f in fs:
            if f.endswith((".c", ".h")):
                t = blank_comments(open(os.path.join(dp, f), 'rb').read().decode('latin-1'))
                for m in re.finditer(r'(?<![\w.])(\d+\.\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+|\d+)[fFuUlL]*(?![\w.])', t):
                    try:
                        v = float(m.group(1))
                    except ValueError:
                        continue
                    if abs(v) < 1e300:
                        nums.add(v)
    with open(path, "w") as fh:
        for v in sorted(nums)[:4000]:
            fh.write(repr(v) + "\n")
    return len(nums)


def check(a):
    import tempfile
    results = []
    for u, run in step_runs(a.only):
        key = f"{u['name']}__{run['step']}"
        src = os.path.join(a.icpic3, key + ".json")
        rec = {"unit": u["name"], "step": run["step"], "init": run.get("init")}
        if not os.path.exists(src):
            rec["error"] = "no icpic3 result (run `run-icpic3` first)"
            results.append(rec); print(f"{key:50} no icpic3 result"); continue
        ic = json.load(open(src))
        rec["icpic3_command"] = ic["command"]
        res = ic["result"]
        if not res or res["summary"].get("skipped_functions"):
            why = ic["stderr"].strip().splitlines()[-1] if ic["stderr"].strip() else f"exit {ic['exit_code']}"
            rec["error"] = "icpic3 skipped the step run: " + why
        goals = res["goals"] if res else []
        rec["environment"] = res["summary"].get("environment", []) if res else []
        work = tempfile.mkdtemp(prefix=key + ".", dir=a.work)
        log = []
        exe, ids, reasons, copy2orig = build_unit(u, run, goals, work, u["data_model"] == "ilp32", log)
        rec["build"] = log
        if not exe:
            rec["error"] = (rec.get("error", "") + "; gcc build failed").strip("; ")
            results.append(rec); print(f"{key:50} BUILD FAILED\n{log[-1]['stderr']}"); continue
        # input lists: the driver's (from SOURCES.md) against icpic3's environment
        lst = subprocess.run([exe, "--list"], capture_output=True, text=True).stdout.split("\n")
        mine = [l.split(" ", 1)[1] for l in lst if l.startswith("input ")]
        ic_inputs = [x for e in rec["environment"] if e.get("step") for x in e.get("inputs", [])]
        ic_params = [x for e in rec["environment"] if e.get("step") for x in e.get("parameters", [])]
        def norm(x):
            return x.replace("(*bms).", "bms->").replace("(*v).", "v->").replace(" ", "")
        m_n = set(norm(x) for x in mine)
        i_n = set(norm(x) for x in ic_inputs)
        # the column names of icpic3's test-case CSVs (they also name step-function parameters)
        tdir0 = os.path.join(a.icpic3, "tests", u["name"], run["step"])
        csv_cols = set()
        if os.path.isdir(tdir0):
            for fn in os.listdir(tdir0):
                if fn.endswith(".csv"):
                    csv_cols |= set(open(os.path.join(tdir0, fn)).readline().strip().split(",")[1:])
        rec["inputs"] = {"driver": mine, "icpic3_inputs": ic_inputs, "icpic3_parameters": ic_params,
                         "icpic3_only": sorted(i_n - m_n), "driver_only": sorted(m_n - i_n),
                         "csv_columns": sorted(csv_cols),
                         "csv_only": sorted(set(norm(x) for x in csv_cols) - m_n),
                         "driver_not_in_csv": sorted(m_n - set(norm(x) for x in csv_cols)) if csv_cols else []}
        dic = os.path.join(work, "dict.txt")
        literal_dict(u, dic)
        hits = {}      # gid -> (seed, step)
        san = []       # (seed, file, line, col, msg)
        runs = []
        for seed in a.seeds:
            hf = os.path.join(work, f"hits.{seed}")
            env = dict(os.environ, ORACLE_HITS=hf, ORACLE_DICT=dic,
                       ASAN_OPTIONS="halt_on_error=0:detect_leaks=0:print_summary=0",
                       UBSAN_OPTIONS="print_stacktrace=0:halt_on_error=0")
            t0 = time.time()
            try:
                p = subprocess.run([exe, str(seed), str(a.steps)], capture_output=True, env=env, timeout=a.run_timeout)
                rc, err = p.returncode, p.stderr.decode('latin-1')
            except subprocess.TimeoutExpired as e:
                rc, err = 'timeout', (e.stderr or b'').decode('latin-1')
            last = 0
            if os.path.exists(hf):
                for l in open(hf):
                    gid, st = map(int, l.split())
                    last = max(last, st)
                    if gid not in hits:
                        hits[gid] = (seed, st)
            for f, line, col, msg in parse_sanitizer(err, copy2orig):
                san.append((seed, f, line, col, msg))
            runs.append({"seed": seed, "rc": rc, "time_s": round(time.time() - t0, 1)})
        rec["runs"] = runs
        # verdicts on DEAD goals
        dead = [gid for gid, g in ids.items() if g["status"] == "DEAD"]
        checked, contradicted, undecided = [], [], []
        for gid in dead:
            g = ids[gid]
            desc = {"file": os.path.relpath(g["file"], ROOT), "line": g["line"], "column": g["column"],
                    "kind": g["kind"], "function": g.get("function")}
            if g["kind"] in BRANCH_KINDS:
                if gid in reasons and gid not in hits and reasons[gid] != 'fall-through possible':
                    undecided.append(dict(desc, why=reasons[gid])); continue
                if gid in hits:
                    if reasons.get(gid) == 'fall-through possible':
                        undecided.append(dict(desc, why='label reached, but maybe by fall-through', seed=hits[gid][0], step=hits[gid][1]))
                    else:
                        contradicted.append(dict(desc, seed=hits[gid][0], step=hits[gid][1]))
                else:
                    checked.append(desc)
            else:
                same = [ids[o] for o in ids if ids[o]["file"] == g["file"] and ids[o]["line"] == g["line"]
                        and ids[o]["kind"] == g["kind"]]
                wit = [s for s in san if s[1] == g["file"] and s[2] == g["line"] and g["kind"] in ub_kinds(s[4])]
                known = any(g["kind"] in ks for _, ks in UB_PATTERNS)
                if not known:
                    undecided.append(dict(desc, why=f"kind {g['kind']} has no sanitizer check")); continue
                if wit:
                    if len(same) == 1:
                        contradicted.append(dict(desc, seed=wit[0][0], sanitizer=wit[0][4][:200], sanitizer_col=wit[0][3]))
                        continue
                    # several goals of this kind on the line: the sanitizer gives the operator's
                    # column, icpic3 the expression's start; a report at column C is attributed to
                    # the goal with the largest column <= C (a heuristic: flagged as such)
                    cols = sorted(set(o["column"] for o in same))
                    mine = [w for w in wit if max([c for c in cols if c <= w[3]] or [None]) == g["column"]
                            and sum(1 for o in same if o["column"] == g["column"]) == 1]
                    if mine:
                        contradicted.append(dict(desc, seed=mine[0][0], sanitizer=mine[0][4][:200], sanitizer_col=mine[0][3],
                                                 attribution="column heuristic (several goals of this kind on the line)"))
                    elif any(o["status"] != "DEAD" for o in same):
                        undecided.append(dict(desc, why=f"sanitizer report(s) on the line at column(s) {sorted(set(w[3] for w in wit))}, attributed to other goals of this kind there"))
                    else:
                        undecided.append(dict(desc, why="sanitizer report on the line, goal column ambiguous", seed=wit[0][0], sanitizer=wit[0][4][:200]))
                else:
                    checked.append(dict(desc, note="sanitizer silent"))
        noins = [gid for gid in reasons if reasons[gid] != 'fall-through possible']
        rec["not_instrumentable"] = [dict(line=ids[g]["line"], column=ids[g]["column"], kind=ids[g]["kind"],
                                          status=ids[g]["status"], file=os.path.relpath(ids[g]["file"], ROOT),
                                          why=reasons[g]) for g in noins]
        rec.update(dead=len(dead), checked=len(checked) + len(contradicted), contradicted=contradicted,
                   undecided=undecided, not_contradicted=checked,
                   branch_goals_hit=sum(1 for gid in hits), branch_goals=sum(1 for g in ids.values() if g["kind"] in BRANCH_KINDS),
                   sanitizer_reports=sorted(set((os.path.relpath(s[1], ROOT), s[2], s[4][:120]) for s in san)))
        # replay of icpic3's CSV test cases of REACHABLE branch goals through the instrumented build
        if a.replay:
            tdir = os.path.join(a.icpic3, "tests", u["name"], run["step"])
            rp = {"replayed": 0, "reached": 0, "not_reached": [], "failed": [],
                  "with_csv_only_columns": 0, "reached_without_csv_only_columns": 0,
                  "reached_only_with_csv_only_columns": []}
            extra = set(l.split(" ", 1)[1] for l in lst if l.startswith("csv-only "))
            if os.path.isdir(tdir):
                for gid, g in ids.items():
                    if g["status"] != "REACHABLE" or g["kind"] not in BRANCH_KINDS or gid in reasons:
                        continue
                    base = os.path.splitext(os.path.basename(g["file"]))[0]
                    ext = os.path.splitext(g["file"])[1][1:]
                    csv = os.path.join(tdir, f"{base}_{ext}_{g['line']}_{g['column']}_{g['kind']}.csv")
                    if not os.path.exists(csv):
                        continue
                    def replay(ignore):
                        hf = os.path.join(work, f"replay.{gid}.{ignore}")
                        env = dict(os.environ, ORACLE_HITS=hf, ORACLE_IGNORE_EXTRA=str(ignore),
                                   ASAN_OPTIONS="halt_on_error=0:detect_leaks=0")
                        p = subprocess.run([exe, "--csv", csv], capture_output=True, env=env, timeout=120)
                        got = os.path.exists(hf) and any(int(l.split()[0]) == gid for l in open(hf))
                        return p.returncode, p.stderr.decode('latin-1'), got
                    rc, err, got = replay(0)
                    if rc == 3:
                        rp["failed"].append((os.path.basename(csv), err.strip()[:200]))
                        continue
                    rp["replayed"] += 1
                    if got:
                        rp["reached"] += 1
                    else:
                        rp["not_reached"].append(os.path.basename(csv))
                    header = open(csv).readline().strip().split(",")[1:]
                    if extra & set(header):
                        rp["with_csv_only_columns"] += 1
                        _, _, got2 = replay(1)
                        if got2:
                            rp["reached_without_csv_only_columns"] += 1
                        elif got:
                            rp["reached_only_with_csv_only_columns"].append(os.path.basename(csv))
            rec["replay"] = rp
        results.append(rec)
        print(f"{key:50} DEAD {len(dead):3}  checked {rec['checked']:3}  CONTRADICTED {len(contradicted):2}  "
              f"undecided {len(undecided):3}  (branch goals hit {rec['branch_goals_hit']}/{rec['branch_goals']}; "
              f"not instrumentable {len(rec['not_instrumentable'])})"
              + (f"  replay {rec['replay']['reached']}/{rec['replay']['replayed']} (unreplayable {len(rec['replay']['failed'])}"
                 + (f"; {rec['replay']['with_csv_only_columns']} set CSV-only columns, {len(rec['replay']['reached_only_with_csv_only_columns'])} reach the goal only with them" if rec['replay']['with_csv_only_columns'] else "") + ")" if a.replay and 'replay' in rec else ""), flush=True)
        if rec["inputs"]["csv_columns"] and (rec["inputs"]["csv_only"] or rec["inputs"]["driver_not_in_csv"]):
            print(f"  CSV columns: not driver inputs {rec['inputs']['csv_only'][:12]}{' ...' if len(rec['inputs']['csv_only']) > 12 else ''}; "
                  f"driver inputs not in any CSV {rec['inputs']['driver_not_in_csv']}")
        if rec["inputs"]["icpic3_only"] or rec["inputs"]["driver_only"]:
            print(f"  inputs: icpic3 only {rec['inputs']['icpic3_only']}; driver only {rec['inputs']['driver_only']}"
                  + (f"; icpic3 parameters {ic_params}" if ic_params else ""))
        for c in contradicted:
            print(f"  !!! WRONG DEAD: {c}", flush=True)
    if a.json:
        json.dump(results, open(a.json, "w"), indent=1)
    if a.markdown:
        with open(a.markdown, "w") as md:
            md.write("| unit | step (init) | icpic3: goals D/R/U, time | DEAD | checked (decided) | contradicted | undecided | branch goals hit by random runs (not instrumentable) | CSV replays reaching their goal | input differences (icpic3 only / driver only) |\n")
            md.write("|---|---|---|---|---|---|---|---|---|---|\n")
            for r in results:
                ic = json.load(open(os.path.join(a.icpic3, f"{r['unit']}__{r['step']}.json")))
                res = ic.get("result") or {}
                gs = res.get("goals", [])
                cnt = "/".join(str(sum(g["status"] == k for g in gs)) for k in ("DEAD", "REACHABLE", "UNKNOWN"))
                if r.get("error") and not gs:
                    md.write(f"| {r['unit']} | {r['step']} ({r.get('init') or '-'}) | {r['error']} | - | - | - | - | - | - | - |\n")
                    continue
                rp = r.get("replay")
                rps = f"{rp['reached']}/{rp['replayed']}" + (f" (+{len(rp['failed'])} unreplayable)" if rp and rp["failed"] else "") if rp else "-"
                inp = r.get("inputs", {})
                diff = f"{', '.join(inp.get('icpic3_only', [])) or '-'} / {', '.join(inp.get('driver_only', [])) or '-'}"
                md.write(f"| {r['unit']} | {r['step']} ({r.get('init') or '-'}) | {cnt}, {ic['time_s']} s | {r.get('dead', 0)} | "
                         f"{r.get('checked', 0)} | {len(r.get('contradicted', []))} | {len(r.get('undecided', []))} | "
                         f"{r.get('branch_goals_hit', 0)}/{r.get('branch_goals', 0)} ({len(r.get('not_instrumentable', []))}) | {rps} | {diff} |\n")

def parse_seeds(s):
    out = []
    for part in s.split(","):
        if "-" in part:
            lo, hi = part.split("-")
            out += list(range(int(lo), int(hi) + 1))
        else:
            out.append(int(part))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run-icpic3", help="run icpic3 deadcode --step on every manifest step run")
    r.add_argument("--bin", default=os.path.join(PROJ, "target", "release", "icpic3"))
    r.add_argument("--out", required=True)
    r.add_argument("--only", default="")
    r.add_argument("--timeout", default="2")
    r.add_argument("--jobs", default="1")
    r.add_argument("--fn-timeout", type=float, default=1500)
    r.add_argument("--force", action="store_true")
    c = sub.add_parser("check", help="check icpic3's DEAD goals against random gcc runs of the drivers")
    c.add_argument("--icpic3", required=True, help="the --out directory of run-icpic3")
    c.add_argument("--only", default="")
    c.add_argument("--seeds", type=parse_seeds, default=list(range(1, 33)), help="e.g. 1,2,5 or 1-512")
    c.add_argument("--steps", type=int, default=10000)
    c.add_argument("--run-timeout", type=float, default=600)
    c.add_argument("--replay", action="store_true", help="also replay the CSV test cases of REACHABLE goals")
    c.add_argument("--work", default="/tmp")
    c.add_argument("--json", default="")
    c.add_argument("--markdown", default="", help="write a table of the results (for RESULTS.md)")
    a = ap.parse_args()
    if a.cmd == "run-icpic3":
        run_icpic3(a)
    else:
        check(a)


if __name__ == "__main__":
    main()
