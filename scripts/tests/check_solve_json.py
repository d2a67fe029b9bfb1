#!/usr/bin/env python3
"""Validates real `icpic3 solve --format json` outputs of every input kind (.hys formula and
transition system, .smt2, .vmt, .c, and bad input of each) against docs/solve-json.schema.json
with the `jsonschema` package, independently of the Rust code that prints them.

Usage: check_solve_json.py PATH/TO/icpic3   (run by frontend/tests/solve_json.rs)
"""
import json
import os
import subprocess
import sys
import tempfile

import jsonschema

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

COUNTER_VMT = """(declare-fun x () Int)
(declare-fun xn () Int)
(declare-fun inp () Bool)
(define-fun sv () Int (! x :next xn))
(define-fun init () Bool (! (= x 0) :init true))
(define-fun tr () Bool (! (= xn (ite inp (+ x 1) x)) :trans true))
(define-fun p () Bool (! PROP :invar-property 0))
"""

FALSE_C = """extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x == 42) reach_error();
  return 0;
}
"""

STEP_C = """extern void reach_error(void);
unsigned char in;
int count;
void step(void) {
  count += in;
  if (count == 7) reach_error();
}
"""

TRUE_C = """extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 5 && x < 3) reach_error();
  return 0;
}
"""

# (name, file contents or None for a bundled example path, extra args,
#  expected exit code, expected "input", expected "result")
def cases(tmp):
    ex = lambda p: os.path.join(ROOT, "examples", p)

    def write(name, text):
        p = os.path.join(tmp, name)
        with open(p, "w") as f:
            f.write(text)
        return p

    return [
        (ex("tank_design.hys"), [], 10, "hys-expr", "SATISFIABLE"),
        (write("unsat.hys", "DECL\n  int [0, 3] x;\nEXPR\n  x > 5;\n"), [], 20,
         "hys-expr", "UNSATISFIABLE"),
        (ex("launch_angle.hys"), ["--timeout", "20"], None, "hys-expr", None),
        (write("irrational.hys", "DECL\n  float [-10, 10] x;\nEXPR\n  x * x = 3;\n  x > 0;\n"),
         [], 10, "hys-expr", "SATISFIABLE"),
        # a candidate after every round of adaptive refinement: the `refinement` object
        (write("touch.hys", "DECL\n  float [-10, 10] x0, x1, x2;\nEXPR\n  x2 > x0;\n"
               "  x0 >= 0;\n  x1^2 + x2^2 <= x0^2;\n"), ["--timeout", "5"], 0, "hys-expr",
         "CANDIDATE SOLUTION"),
        (ex("thermostat.hys"), [], 20, "hys-transition", "SAFE"),
        (ex("ts-suite/u_manual_sample2.hys"), [], 10, "hys-transition", "UNSAFE"),
        (ex("thermostat.hys"), ["--engine", "ic3", "--check-certificate"], 20,
         "hys-transition", "SAFE"),
        (write("s.smt2", "(set-logic QF_LIA)\n(declare-const x Int)\n(assert (> x 2))\n"
               "(check-sat)\n(get-value (x))\n(assert (< x 0))\n(check-sat)\n"), [], 20,
         "smtlib", "unsat"),
        (write("none.smt2", "(set-logic QF_LIA)\n"), [], 0, "smtlib", "none"),
        (write("unsafe.vmt", COUNTER_VMT.replace("PROP", "(< x 3)")), ["--timeout", "30"], 10,
         "vmt", "UNSAFE"),
        (write("safe.vmt", COUNTER_VMT.replace("PROP", "(>= x 0)")), ["--timeout", "30"], 20,
         "vmt", "SAFE"),
        (write("live.vmt", COUNTER_VMT.replace("PROP", "(< x 3)").replace(":invar-property", ":live-property")), [], 0,
         "vmt", "UNKNOWN"),
        (write("false.c", FALSE_C), ["--timeout", "30"], 10, "c", "false"),
        (write("true.c", TRUE_C), ["--timeout", "30"], 20, "c", "true"),
        # the C trace of the confirmed run (c_trace, with steps under --step)
        (write("trace.c", FALSE_C), ["--timeout", "30", "--trace"], 10, "c", "false"),
        (write("trace_step.c", STEP_C), ["--timeout", "30", "--trace", "--step", "step"], 10,
         "c", "false"),
        # bad input of every kind: exit 1, the error document
        (write("bad.hys", "DECL\n  int [0, 1] x;\nEXPR\n  x > y;\n"), [], 1, None, "error"),
        (write("bad.smt2", "(declare-const x Int)\n(assert (> x y))\n"), [], 1, None, "error"),
        (write("bad.vmt", COUNTER_VMT.replace("PROP", "(>= zz 0)")), [], 1, None, "error"),
        (write("bad.c", "int main(void) { int x = ; }\n"), [], 1, None, "error"),
        (os.path.join(tmp, "missing.hys"), [], 1, None, "error"),
    ]


def main():
    exe = sys.argv[1]
    with open(os.path.join(ROOT, "docs", "solve-json.schema.json")) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    failures = []
    seen_inputs = set()
    with tempfile.TemporaryDirectory() as tmp:
        for path, args, code, kind, result in cases(tmp):
            cmd = [exe, "solve", "--format", "json"] + args + [path]
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
            label = " ".join(cmd[1:])
            try:
                doc = json.loads(p.stdout)  # the whole of standard output: one document
            except ValueError as e:
                failures.append(f"{label}: stdout is not one JSON document ({e}): {p.stdout!r}")
                continue
            errors = sorted(validator.iter_errors(doc), key=str)
            if errors:
                failures.append(f"{label}: {errors[0].message} in {doc}")
            if code is not None and p.returncode != code:
                failures.append(f"{label}: exit {p.returncode}, expected {code}: {p.stderr}")
            if kind is not None and doc.get("input") != kind:
                failures.append(f"{label}: input {doc.get('input')!r}, expected {kind!r}")
            if result is not None and doc.get("result") != result:
                failures.append(f"{label}: result {doc.get('result')!r}, expected {result!r}")
            if "--trace" in args and not doc.get("c_trace"):
                failures.append(f"{label}: no c_trace: {doc}")
            if "--step" in args and not all("step" in e for e in doc.get("c_trace", [])):
                failures.append(f"{label}: a c_trace entry without its step: {doc}")
            if result == "error":
                if not p.stderr.strip():
                    failures.append(f"{label}: no diagnostic on standard error")
                if not path.endswith("missing.hys") and not (doc.get("line") and doc.get("column")):
                    failures.append(f"{label}: the error has no position: {doc}")
            seen_inputs.add(doc.get("input", doc.get("result")))
    expected = {"hys-expr", "hys-transition", "smtlib", "vmt", "c", "error"}
    if seen_inputs != expected:
        failures.append(f"input kinds seen {sorted(seen_inputs)}, expected {sorted(expected)}")
    # the schema is not vacuous: it rejects what the old output and typos look like
    bad_docs = [
        {"result": "SAFE", "engine": "bmc", "time_s": 0, "stats": {}},  # no format_version
        {"format_version": 2, "result": "error", "message": "m", "file": "f", "line": 1,
         "column": 1},
        {"format_version": 1, "input": "hys-expr", "result": "SAFE", "engine": "icp",
         "time_s": 0.1, "stats": {"solves": 1, "decisions": 0, "conflicts": 0,
                                  "propagations": 0}},
        {"format_version": 1, "result": "error", "message": "m", "file": "f", "line": 0,
         "column": 1},
        {"format_version": 1, "input": "c", "result": "maybe", "detail": "", "inputs": [],
         "undefined_functions_nondet": [], "assumptions": [], "time_s": 0},
    ]
    for d in bad_docs:
        if validator.is_valid(d):
            failures.append(f"the schema accepts an invalid document: {d}")
    for f in failures:
        print("FAIL:", f)
    print(f"{len(failures)} failure(s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
