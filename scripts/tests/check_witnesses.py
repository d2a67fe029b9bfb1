"""Checks icpic3's SV-COMP witnesses (format 2.0) independently of icpic3's own answers.

Usage: check_witnesses.py ICPIC3 DATA_DIR FLOAT_TASK [--self-test]

DATA_DIR holds witness-2.0.schema.json and the C programs (loop_*.c: `true`,
viol_*.c: `false`); FLOAT_TASK is an SV-COMP task (ILP32) that icpic3 answers `true`.

Every witness must validate against the schema (Python's jsonschema, PyYAML to read it) and:
- violation witnesses: each function_return waypoint sits on the closing parenthesis of a
  `__VERIFIER_nondet_*` call of the program, and the program compiled by gcc, fed exactly
  the witness's `\\result == v` values in order, reaches reach_error(); the target waypoint
  sits on a reach_error call; segments are one `follow` waypoint each, the target last.
- correctness witnesses: each loop_invariant sits on a `while`/`for` keyword; a copy of the
  program that checks the invariant before every evaluation of the loop condition is run,
  compiled by gcc, on random inputs and never finds it false; a second copy in which a false
  invariant calls reach_error() is answered `true` by icpic3's default portfolio (its
  engines on a different program: the invariant's check, not the original property; the
  witness itself comes from IC3 alone).

--self-test: the same checks on wrong witnesses (a bound tightened by one, a
function_return value off by one, the old `c_expression` format): each must be caught.

Prints one line per check and `N failure(s)`; exit status 1 on any failure.
"""

import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

import jsonschema
import yaml

ICPIC3, DATA, FLOAT_TASK = sys.argv[1], sys.argv[2], sys.argv[3]
SELF_TEST = "--self-test" in sys.argv[4:]
SCHEMA = json.load(open(os.path.join(DATA, "witness-2.0.schema.json")))
failures = []
TMP = tempfile.mkdtemp(prefix="icpic3-witness-")

# the C type of each __VERIFIER_nondet_X function
NONDET_TYPES = {
    "int": "int", "uint": "unsigned int", "char": "char", "uchar": "unsigned char",
    "short": "short", "ushort": "unsigned short", "long": "long", "ulong": "unsigned long",
    "float": "float", "double": "double", "bool": "_Bool",
}


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)
    return ok


def run_icpic3(prog, args, witness):
    if os.path.exists(witness):
        os.remove(witness)
    p = subprocess.run([ICPIC3, "solve", *args, "--witness", witness, prog],
                       capture_output=True, text=True, timeout=120)
    return p.stdout.split("\n")[0], p.stderr


def load_witness(path):
    with open(path) as f:
        return yaml.safe_load(f)


def schema_errors(doc):
    v = jsonschema.Draft7Validator(SCHEMA)
    return sorted(str(list(e.absolute_path)) + " " + e.message for e in v.iter_errors(doc))


def source_lines(prog):
    with open(prog) as f:
        return f.read().split("\n")


def char_at(lines, line, col):
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return text[col - 1] if 0 < col <= len(text) else ""


def nondet_call_closing_at(lines, line, col):
    """The X of the `__VERIFIER_nondet_X(...)` call whose `)` is at line:col, else None."""
    if char_at(lines, line, col) != ")":
        return None
    before = lines[line - 1][: col - 1]
    m = re.search(r"__VERIFIER_nondet_(\w+)\s*\(\s*$", before)
    return m.group(1) if m else None


def gcc(sources, out):
    p = subprocess.run(["gcc", "-O0", "-w", "-o", out, *sources, "-lm"],
                       capture_output=True, text=True)
    return p.returncode == 0, p.stderr


def replay_values(prog, waypoints, lines):
    """Compiles PROG with nondet functions that return the waypoints' values in order and
    runs it: did it reach reach_error()?"""
    cases = {}
    for k, (kind, value) in enumerate(waypoints):
        cases.setdefault(kind, []).append((k, value))
    harness = ["#include <stdlib.h>", "static int next_input;"]
    for kind, vals in cases.items():
        ty = NONDET_TYPES[kind]
        harness.append(f"{ty} __VERIFIER_nondet_{kind}(void) {{ switch (next_input++) {{")
        for k, v in vals:
            harness.append(f"  case {k}: return ({ty})({v});")
        harness.append("  default: abort(); } }")
    h = os.path.join(TMP, "replay_harness.c")
    with open(h, "w") as f:
        f.write("\n".join(harness) + "\n")
    exe = os.path.join(TMP, "replay")
    ok, err = gcc([prog, h], exe)
    if not ok:
        return False, "gcc: " + err
    p = subprocess.run([exe], capture_output=True, text=True, timeout=20)
    reached = p.returncode != 0 and "reach_error" in p.stderr
    return reached, f"exit {p.returncode} {p.stderr.strip()}"


def check_violation(prog, doc, lines, name, expect_reach=True):
    entry = doc[0]
    segments = entry["content"]
    wps = [s["segment"] for s in segments]
    check(all(len(s) == 1 and s[0]["waypoint"]["action"] == "follow" for s in wps),
          f"{name}: every segment is one `follow` waypoint")
    types = [s[-1]["waypoint"]["type"] for s in wps]
    check(types.count("target") == 1 and types[-1] == "target",
          f"{name}: one target waypoint, in the final segment")
    target = wps[-1][-1]["waypoint"]["location"]
    t_line = lines[target["line"] - 1]
    check(t_line[target["column"] - 1:].startswith("reach_error"),
          f"{name}: the target waypoint is on a reach_error call ({target['line']}:{target['column']})")
    values = []
    for s in wps[:-1]:
        w = s[-1]["waypoint"]
        loc = w["location"]
        kind = nondet_call_closing_at(lines, loc["line"], loc["column"])
        ok = check(kind is not None,
                   f"{name}: waypoint {loc['line']}:{loc['column']} is the `)` of a nondet call")
        m = re.match(r"^\\result == (.+)$", w["constraint"]["value"])
        check(m is not None and w["constraint"]["format"] == "acsl_expression",
              f"{name}: `{w['constraint']['value']}` is an ACSL \\result constraint")
        if ok and m:
            values.append((kind, m.group(1)))
    if expect_reach:
        reached, how = replay_values(prog, values, lines)
        check(reached, f"{name}: gcc run fed the witness values reaches reach_error ({how})")
    return values


LOOP_KEYWORDS = ("while", "for")


def instrument(lines, invariants, on_fail):
    """A copy of the program that evaluates `on_fail` when an invariant is false, before
    every evaluation of its loop's condition (the format's loop head)."""
    out = list(lines)
    # right to left within a line, so earlier columns stay valid
    for inv in sorted(invariants, key=lambda i: (i["location"]["line"], -i["location"]["column"])):
        loc = inv["location"]
        ln = out[loc["line"] - 1]
        col = loc["column"] - 1
        kw = "while" if ln.startswith("while", col) else "for"
        open_paren = ln.index("(", col + len(kw))
        test = f"(({inv['value']}) ? (void)0 : {on_fail}), "
        if kw == "while":
            ln = ln[: open_paren + 1] + test + ln[open_paren + 1:]
        else:
            # after the first `;` at depth 1 of the for header: the condition
            depth, i = 0, open_paren
            while True:
                c = ln[i]
                depth += c == "("
                depth -= c == ")"
                if c == ";" and depth == 1:
                    break
                i += 1
            rest = ln[i + 1:]
            cond_empty = rest.lstrip().startswith(";")
            ln = ln[: i + 1] + " " + test + ("1" if cond_empty else "") + rest
        out[loc["line"] - 1] = ln
    return out


RANDOM_HARNESS = r"""
#include <stdlib.h>
#include <string.h>
#include <math.h>
static unsigned long long s;
static int calls;
static unsigned long long rnd(void) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s; }
/* a value near 0, in a small range, or anything: loops run, stop, and meet the edges */
static long long pick(long long lo, long long hi) {
  unsigned long long r = rnd();
  if (r % 4 == 0) return lo + (long long)(rnd() % (unsigned long long)(hi - lo + 1));
  return (long long)(rnd() % 41) - 20;
}
#define LIMIT 300
_Bool __VERIFIER_nondet_bool(void) { return ++calls < LIMIT && rnd() % 10 != 0; }
int __VERIFIER_nondet_int(void) { return ++calls < LIMIT ? (int)pick(-2147483647 - 1, 2147483647) : 0; }
unsigned int __VERIFIER_nondet_uint(void) { return ++calls < LIMIT ? (unsigned)rnd() : 0; }
unsigned char __VERIFIER_nondet_uchar(void) { return ++calls < LIMIT ? (unsigned char)rnd() : 0; }
float __VERIFIER_nondet_float(void) {
  ++calls;
  switch (rnd() % 6) {
  case 0: return NAN;
  case 1: return (float)(rnd() % 2001) / 1000.0f - 1.0f;
  case 2: { unsigned u = (unsigned)rnd(); float f; memcpy(&f, &u, 4); return f; }
  default: return (float)(rnd() % 1001) / 1000.0f;
  }
}
double __VERIFIER_nondet_double(void) { ++calls; return (double)(rnd() % 2001) / 1000.0 - 1.0; }
void __witness_failed(void) { exit(77); }
int witness_seed(const char *a) { s = strtoull(a, 0, 10) * 2654435761ULL + 1; return 0; }
"""


def gcc_random_runs(prog, lines, invariants, runs):
    body = instrument(lines, invariants, "__witness_failed()")
    copy = os.path.join(TMP, "inv_gcc.c")
    with open(copy, "w") as f:
        f.write("extern void __witness_failed(void);\n"
                "extern int witness_seed(const char *);\n"
                "#define main witness_main\n" + "\n".join(body) + "\n#undef main\n"
                "int main(int argc, char **argv) { witness_seed(argv[1]); return witness_main(); }\n")
    h = os.path.join(TMP, "random_harness.c")
    with open(h, "w") as f:
        f.write(RANDOM_HARNESS)
    exe = os.path.join(TMP, "inv_gcc")
    ok, err = gcc([copy, h], exe)
    if not ok:
        return None, "gcc: " + err
    for seed in range(runs):
        p = subprocess.run([exe, str(seed)], capture_output=True, text=True, timeout=20)
        if p.returncode == 77:
            return False, f"the invariant is false in the run with seed {seed}"
        if "reach_error" in p.stderr:
            return False, f"the run with seed {seed} reaches reach_error (program not safe?)"
    return True, f"{runs} runs"


def icpic3_proves(prog, lines, invariants, args):
    body = instrument(lines, invariants, "reach_error()")
    copy = os.path.join(TMP, "inv_icpic3.c")
    with open(copy, "w") as f:
        f.write("\n".join(body) + "\n")
    p = subprocess.run([ICPIC3, "solve", *args, copy], capture_output=True, text=True,
                       timeout=120)
    return p.stdout.split("\n")[0], p.stderr.strip()


def check_correctness(prog, doc, lines, name, args, expect_invariants):
    entry = doc[0]
    invs = [c["invariant"] for c in entry["content"]]
    if expect_invariants:
        check(len(invs) > 0, f"{name}: the witness states loop invariants ({len(invs)})")
    for inv in invs:
        loc = inv["location"]
        check(inv["type"] == "loop_invariant"
              and any(lines[loc["line"] - 1].startswith(k, loc["column"] - 1) for k in LOOP_KEYWORDS),
              f"{name}: {loc['line']}:{loc['column']} is a loop keyword; invariant `{inv['value']}`")
    if not invs:
        return
    ok, how = gcc_random_runs(prog, lines, invs, 300)
    check(ok is True, f"{name}: gcc runs on random inputs never find an invariant false ({how})")
    verdict, err = icpic3_proves(prog, lines, invs, args)
    check(verdict == "true", f"{name}: icpic3 proves the invariant-checking copy ({verdict} {err[-200:]})")
    return invs


def tighten(value):
    """The invariant with its first constant bound tightened by one (a wrong invariant)."""
    m = re.search(r"<= (\d+)", value)
    if m:
        return value[: m.start()] + f"<= {int(m.group(1)) - 1}" + value[m.end():]
    m = re.search(r">= (\d+)", value)
    return value[: m.start()] + f">= {int(m.group(1)) + 1}" + value[m.end():]


# the witnesses come from IC3 with suffix 0 (its certificates with a suffix are mostly
# `not TARGET` alone, with no lemma to state); the copies are checked by the default portfolio
IC3 = ["--engine", "ic3", "--config", "ind0", "--timeout", "60"]
PORTFOLIO = ["--timeout", "60"]
loops = sorted(f for f in os.listdir(DATA) if f.startswith("loop_") and f.endswith(".c"))

if not SELF_TEST:
    for f in loops:
        prog = os.path.join(DATA, f)
        w = os.path.join(TMP, f + ".yml")
        verdict, err = run_icpic3(prog, IC3, w)
        if not check(verdict == "true" and os.path.exists(w), f"{f}: `true` with a witness ({verdict} {err})"):
            continue
        doc = load_witness(w)
        errs = schema_errors(doc)
        check(not errs, f"{f}: the witness validates against the 2.0 schema {errs[:3]}")
        check_correctness(prog, doc, source_lines(prog), f, PORTFOLIO, True)

    # an SV-COMP float task, as the default portfolio answers it
    w = os.path.join(TMP, "float_task.yml")
    verdict, err = run_icpic3(FLOAT_TASK, ["--data-model", "ilp32", "--timeout", "60"], w)
    if check(verdict == "true" and os.path.exists(w), f"{FLOAT_TASK}: `true` with a witness ({verdict})"):
        doc = load_witness(w)
        errs = schema_errors(doc)
        check(not errs, f"float task: the witness validates against the 2.0 schema {errs[:3]}")
        check(doc[0]["entry_type"] == "invariant_set", "float task: an invariant_set entry")
        check_correctness(FLOAT_TASK, doc, source_lines(FLOAT_TASK), "float task",
                          ["--data-model", "ilp32", "--timeout", "60"], False)
        if not doc[0]["content"]:
            check("states no loop invariant" in err, "float task: an empty set is said on stderr")

    for f, needs_nan in (("viol_inputs.c", False), ("viol_nan.c", True)):
        prog = os.path.join(DATA, f)
        w = os.path.join(TMP, f + ".yml")
        verdict, err = run_icpic3(prog, ["--timeout", "60"], w)
        if not check(verdict == "false" and os.path.exists(w), f"{f}: `false` with a witness ({verdict})"):
            continue
        doc = load_witness(w)
        errs = schema_errors(doc)
        check(not errs, f"{f}: the witness validates against the 2.0 schema {errs[:3]}")
        lines = source_lines(prog)
        values = check_violation(prog, doc, lines, f, expect_reach=not needs_nan)
        if needs_nan:
            # the NaN input has no waypoint (no ACSL constant equals NaN); the others do
            check(len(values) == 1 and "no waypoint" in err,
                  f"{f}: the NaN input gets no waypoint, and stderr says so")
            n = sum(len(re.findall(r"__VERIFIER_nondet_\w+\s*\(", l)) for l in lines
                    if "extern" not in l)
            # the program, fed the stated value and a NaN, reaches the error
            reached, how = replay_values(prog, values + [("double", "0.0/0.0")], lines)
            check(n == 2 and reached, f"{f}: the stated value and a NaN reach reach_error ({how})")
else:
    # wrong witnesses must be caught
    f = "loop_uchar_saturate.c"
    prog = os.path.join(DATA, f)
    w = os.path.join(TMP, "self.yml")
    verdict, _ = run_icpic3(prog, IC3, w)
    doc = load_witness(w)
    lines = source_lines(prog)
    invs = [c["invariant"] for c in doc[0]["content"]]
    wrong = [dict(i, value=tighten(i["value"])) for i in invs]
    ok, how = gcc_random_runs(prog, lines, wrong, 300)
    check(ok is False, f"self-test: gcc runs catch the tightened invariant `{wrong[0]['value']}` ({how})")
    v, _ = icpic3_proves(prog, lines, wrong, PORTFOLIO)
    check(v == "false", f"self-test: icpic3 refutes the tightened invariant ({v})")

    prog = os.path.join(DATA, "viol_inputs.c")
    verdict, _ = run_icpic3(prog, ["--timeout", "60"], w)
    doc = load_witness(w)
    lines = source_lines(prog)
    wp = doc[0]["content"][0]["segment"][0]["waypoint"]
    n = int(re.match(r"^\\result == (-?\d+)$", wp["constraint"]["value"]).group(1))
    values = [(nondet_call_closing_at(lines, s["segment"][0]["waypoint"]["location"]["line"],
                                      s["segment"][0]["waypoint"]["location"]["column"]),
               s["segment"][0]["waypoint"]["constraint"]["value"].split("== ", 1)[1])
              for s in doc[0]["content"][:-1]]
    values[0] = (values[0][0], str(n + 1))
    reached, how = replay_values(prog, values, lines)
    check(not reached, f"self-test: a value off by one does not reach reach_error ({how})")
    wp["constraint"]["format"] = "c_expression"
    check(bool(schema_errors(doc)), "self-test: the schema rejects a c_expression function_return")
    wp["constraint"]["format"] = "acsl_expression"
    wp["constraint"]["value"] = "\\result != \\result"
    check(bool(schema_errors(doc)), "self-test: the schema rejects `\\result != \\result`")
    wp["constraint"]["value"] = f"\\result == {n}"
    wp["location"]["column"] += 1
    check(nondet_call_closing_at(lines, wp["location"]["line"], wp["location"]["column"]) is None,
          "self-test: a column one off is not the call's `)`")

shutil.rmtree(TMP, ignore_errors=True)
print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
