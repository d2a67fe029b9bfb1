# BenchExec tool-info module for icpic3 (https://github.com/sosy-lab/benchexec).
#
# Load it as a module outside BenchExec's own package: put benchmarks/benchexec on
# PYTHONPATH and name the tool by its full module name, `icpic3_tool.icpic3`:
#
#   PYTHONPATH=benchmarks/benchexec benchexec benchmarks/benchexec/icpic3-floats.xml
#   PYTHONPATH=benchmarks/benchexec python3 -m benchexec.test_tool_info icpic3_tool.icpic3
#
# (a bare `tool="icpic3"` would make BenchExec look for benchexec.tools.icpic3). The
# executable is `icpic3` on PATH or target/release/icpic3 below the working directory.
#
# Inputs and answers (first line of standard output, docs/hys-language.md Parts C and E):
#   C files, SV-COMP unreach-call: `true`, `false`, `unknown`
#     icpic3 solve --data-model ilp32|lp64 [--timeout S] --witness witness.yml FILE.c
#   .hys / .vmt transition systems: SAFE, UNSAFE, CANDIDATE SOLUTION, UNKNOWN
#   .hys formulas: SATISFIABLE, UNSATISFIABLE, CANDIDATE SOLUTION, UNKNOWN
#   .smt2 scripts: `sat`, `unsat`, `unknown` per check-sat (the last one counts)

import re

import benchexec.result as result
import benchexec.tools.template

C_EXTENSIONS = (".c", ".i")

# the verdict words of .hys and .vmt inputs (Part C)
HYS_VERDICTS = {
    "SAFE": result.RESULT_TRUE_PROP,
    "UNSAFE": result.RESULT_FALSE_PROP,
    # as BenchExec's SMT-LIB tool-infos map sat/unsat (benchexec.tools.smtlib2)
    "SATISFIABLE": result.RESULT_TRUE_PROP,
    "UNSATISFIABLE": result.RESULT_FALSE_PROP,
    "CANDIDATE SOLUTION": result.RESULT_UNKNOWN,
    "UNKNOWN": result.RESULT_UNKNOWN,
}
SMT_ANSWERS = {
    "sat": result.RESULT_TRUE_PROP,
    "unsat": result.RESULT_FALSE_PROP,
    "unknown": result.RESULT_UNKNOWN,
}
C_ANSWERS = {
    "true": result.RESULT_TRUE_PROP,
    "false": result.RESULT_FALSE_REACH,
    "unknown": result.RESULT_UNKNOWN,
}


class Tool(benchexec.tools.template.BaseTool2):
    """icpic3: ICP-based SMT solving and IC3 model checking over exact IEEE floats."""

    def executable(self, tool_locator):
        # a checkout's release build (--tool-directory at the repository root), else the
        # binary itself in the tool directory, the current directory or on PATH
        try:
            return tool_locator.find_executable("icpic3", subdir="target/release")
        except benchexec.tools.template.ToolNotFoundException:
            return tool_locator.find_executable("icpic3")

    def name(self):
        return "icpic3"

    def project_url(self):
        return "https://example.invalid/icpic3"

    def version(self, executable):
        # `icpic3 --version` prints `icpic3 X.Y.Z (commit abc1234)`
        return version_from_text(self._version_from_tool(executable, arg="--version"))

    def cmdline(self, executable, options, task, rlimits):
        path = task.single_input_file
        is_c = path.endswith(C_EXTENSIONS)
        if task.property_file and not (is_c and _is_unreach_call(task.property_file)):
            raise benchexec.tools.template.UnsupportedFeatureException(
                "icpic3 checks unreach-call on C programs; other inputs take no property"
            )
        cmd = [executable, "solve"]
        if is_c:
            data_model = "ILP32"
            if isinstance(task.options, dict):
                data_model = task.options.get("data_model", data_model)
            cmd += ["--data-model", data_model.lower()]
            if "--witness" not in options:
                cmd += ["--witness", "witness.yml"]
        limit = rlimits.cputime or rlimits.walltime
        if limit and "--timeout" not in options:
            # leave time to print the answer before the hard limit
            cmd += ["--timeout", str(max(1, int(limit * 0.9) - 2))]
        return cmd + list(options) + [path]

    def determine_result(self, run):
        path = run.cmdline[-1] if run.cmdline else ""
        return result_of(path, list(run.output), run.exit_code.value, run.was_timeout)


def version_from_text(text):
    """`icpic3 0.1.0 (commit abc1234)` -> `0.1.0 (abc1234)`; the text itself otherwise."""
    m = re.match(r"icpic3 (\S+)(?: \(commit (\w+)\))?", (text or "").strip())
    if not m:
        return text
    return f"{m.group(1)} ({m.group(2)})" if m.group(2) else m.group(1)


def result_of(path, lines, exit_code, was_timeout):
    """The BenchExec result of an icpic3 run on `path`, from its output lines and exit code
    (10/20/0 are answers, 1 bad input, 2 bad usage, 3 internal error)."""
    lines = [l.strip() for l in lines]
    if exit_code in (1, 2, 3) or any(l.startswith("(error ") for l in lines):
        if was_timeout:
            return result.RESULT_TIMEOUT
        return f"{result.RESULT_ERROR} ({exit_code})" if exit_code else result.RESULT_ERROR
    if path.endswith(".smt2"):
        answers = [SMT_ANSWERS[l] for l in lines if l in SMT_ANSWERS]
        if answers:
            return answers[-1]
    else:
        table = C_ANSWERS if path.endswith(C_EXTENSIONS) else HYS_VERDICTS
        for l in lines:
            if l in table:
                return table[l]
    if was_timeout:
        return result.RESULT_TIMEOUT
    return result.RESULT_ERROR


def _is_unreach_call(path):
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return False
    return "call(reach_error())" in text or "call(__VERIFIER_error())" in text
