#!/usr/bin/env python3
"""Tests of the BenchExec tool-info module benchmarks/benchexec/icpic3_tool/icpic3.py with
BenchExec itself (from PyPI, installed by scripts/setup.sh): the module loads by the route its
header documents, and `determine_result` reads real icpic3 outputs of every input kind.

Usage: ICPIC3=target/release/icpic3 PYTHONPATH=benchmarks/benchexec \
       python3 scripts/tests/test_benchexec_toolinfo.py     (run by frontend/tests/benchexec.rs)
"""
import os
import subprocess
import sys
import tempfile
import types
import unittest

import benchexec.model
import benchexec.result as result
from benchexec import util
from benchexec.tools.template import BaseTool2

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
EXE = os.environ.get("ICPIC3", os.path.join(ROOT, "target", "release", "icpic3"))
MODULE = "icpic3_tool.icpic3"
UNREACH = os.path.join(ROOT, "benchmarks", "benchexec", "properties", "unreach-call.prp")

VMT = """(declare-fun x () Int)
(declare-fun xn () Int)
(declare-fun inp () Bool)
(define-fun sv () Int (! x :next xn))
(define-fun init () Bool (! (= x 0) :init true))
(define-fun tr () Bool (! (= xn (ite inp (+ x 1) x)) :trans true))
(define-fun p () Bool (! PROP :invar-property 0))
"""
C = """extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (COND) reach_error();
  return 0;
}
"""


def load_tool():
    """The module as BenchExec's own loader finds it for `tool="icpic3_tool.icpic3"`."""
    name, tool = benchexec.model.load_tool_info(MODULE, types.SimpleNamespace(container=False))
    assert name == MODULE
    return tool


class ToolInfo(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tool = load_tool()
        cls.tmp = tempfile.TemporaryDirectory()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def write(self, name, text):
        p = os.path.join(self.tmp.name, name)
        with open(p, "w") as f:
            f.write(text)
        return p

    def run_tool(self, path, prop=None, options=()):
        """Runs icpic3 by the tool-info's command line; the result it determines."""
        task = BaseTool2.Task([path], None, prop, {"data_model": "LP64"})
        limits = BaseTool2.ResourceLimits(30, None, None, None, None)
        cmd = self.tool.cmdline(EXE, list(options), task, limits)
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                           cwd=self.tmp.name)
        lines = (p.stdout + p.stderr).splitlines(keepends=True)
        run = BaseTool2.Run(cmd, util.ProcessExitCode.create(value=p.returncode),
                            BaseTool2.RunOutput(lines), None)
        return self.tool.determine_result(run), p

    def check(self, path, want, prop=None):
        got, p = self.run_tool(path, prop)
        self.assertEqual(got, want, f"{path}: exit {p.returncode}\n{p.stdout}{p.stderr}")

    def test_executable_and_version(self):
        # the binary under test (a debug build in `cargo test`), not whatever target/release has
        locator = BaseTool2.ToolLocator(tool_directory=os.path.dirname(EXE))
        os.chdir(ROOT)
        self.assertTrue(self.tool.executable(locator).endswith("icpic3"))
        v = self.tool.version(EXE)
        self.assertRegex(v, r"^\d+\.\d+\.\d+ \((\w+)\)$")

    def test_hys_formulas(self):
        self.check(os.path.join(ROOT, "examples", "tank_design.hys"), result.RESULT_TRUE_PROP)
        unsat = self.write("u.hys", "DECL\n  int [0, 3] x;\nEXPR\n  x > 5;\n")
        self.check(unsat, result.RESULT_FALSE_PROP)

    def test_hys_transition_systems(self):
        self.check(os.path.join(ROOT, "examples", "thermostat.hys"), result.RESULT_TRUE_PROP)
        self.check(os.path.join(ROOT, "examples", "ts-suite", "u_manual_sample2.hys"),
                   result.RESULT_FALSE_PROP)

    def test_smtlib_the_last_answer_counts(self):
        s = self.write("s.smt2", "(declare-const x Int)\n(assert (> x 2))\n(check-sat)\n"
                                 "(assert (< x 0))\n(check-sat)\n")
        self.check(s, result.RESULT_FALSE_PROP)
        s = self.write("t.smt2", "(declare-const x Int)\n(assert (> x 2))\n(check-sat)\n"
                                 "(get-model)\n")
        self.check(s, result.RESULT_TRUE_PROP)

    def test_vmt(self):
        self.check(self.write("safe.vmt", VMT.replace("PROP", "(>= x 0)")),
                   result.RESULT_TRUE_PROP)
        self.check(self.write("unsafe.vmt", VMT.replace("PROP", "(< x 3)")),
                   result.RESULT_FALSE_PROP)

    def test_c_unreach_call(self):
        self.check(self.write("f.c", C.replace("COND", "x == 42")), result.RESULT_FALSE_REACH,
                   UNREACH)
        self.check(self.write("t.c", C.replace("COND", "x > 5 && x < 3")),
                   result.RESULT_TRUE_PROP, UNREACH)

    def test_bad_input_is_an_error_of_every_kind(self):
        for name, text in [("b.hys", "DECL\nEXPR\n  y > 1;\n"),
                           ("b.smt2", "(assert (> y 1))\n(check-sat)\n"),
                           ("b.vmt", VMT.replace("PROP", "(> zz 0)")),
                           ("b.c", "int main(void) { int x = ; }\n")]:
            got, p = self.run_tool(self.write(name, text),
                                   UNREACH if name.endswith(".c") else None)
            self.assertTrue(got.startswith(result.RESULT_ERROR), f"{name}: {got}")
            self.assertEqual(p.returncode, 1, name)

    def test_answers_never_seen_alone_are_not_taken(self):
        # a C program's output mentioning SAFE is no answer, nor is `sat` in a .hys run
        Run, Out, Code = BaseTool2.Run, BaseTool2.RunOutput, util.ProcessExitCode
        r = Run(["icpic3", "solve", "x.c"], Code.create(value=0), Out(["SAFE\n"]), None)
        self.assertEqual(self.tool.determine_result(r), result.RESULT_ERROR)
        r = Run(["icpic3", "solve", "x.hys"], Code.create(value=0), Out(["sat\n"]), None)
        self.assertEqual(self.tool.determine_result(r), result.RESULT_ERROR)
        r = Run(["icpic3", "solve", "x.hys"], Code.create(value=0),
                Out(["CANDIDATE SOLUTION\n"]), None)
        self.assertEqual(self.tool.determine_result(r), result.RESULT_UNKNOWN)

    def test_other_properties_are_refused(self):
        prp = self.write("termination.prp", "CHECK( init(main()), LTL(F end) )\n")
        task = BaseTool2.Task([self.write("x.c", "int main(void){return 0;}\n")], None, prp, {})
        from benchexec.tools.template import UnsupportedFeatureException
        with self.assertRaises(UnsupportedFeatureException):
            self.tool.cmdline(EXE, [], task, BaseTool2.ResourceLimits(None, None, None, None, None))

    def test_benchexec_test_tool_info_accepts_the_module(self):
        env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "benchmarks", "benchexec"))
        task = os.path.join(ROOT, "benchmarks", "benchexec", "tasks", "float-benchs",
                            "Rump_double.yml")
        args = [sys.executable, "-m", "benchexec.test_tool_info", "--no-container",
                "--tool-directory", os.path.dirname(EXE), MODULE]
        if os.path.exists(task):
            args += ["--task-definition", task]
        p = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, env=env,
                           timeout=120)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        said = p.stdout + p.stderr  # test_tool_info writes its report through logging
        self.assertIn("Name of tool: “icpic3”", said)
        self.assertIn("'--data-model', 'ilp32'", said)


if __name__ == "__main__":
    unittest.main(verbosity=2)
