# BenchExec tool-info module for icpic3 (https://github.com/sosy-lab/benchexec).
#
# Install: copy this file into benchexec/tools/ (or put this directory on PYTHONPATH and
# name the tool `icpic3` in the benchmark definition, module `icpic3`). icpic3 answers the
# SV-COMP property unreach-call on C programs:
#
#   icpic3 solve --data-model ilp32|lp64 [--timeout S] --witness witness.yml FILE.c
#
# First line of output: `true`, `false` or `unknown`.

import benchexec.result as result
import benchexec.tools.template


class Tool(benchexec.tools.template.BaseTool2):
    """icpic3: ICP-based SMT solving and IC3 model checking over exact IEEE floats."""

    def executable(self, tool_locator):
        return tool_locator.find_executable("icpic3", subdir="target/release")

    def name(self):
        return "icpic3"

    def project_url(self):
        return "https://example.invalid/icpic3"

    def version(self, executable):
        # `icpic3 --version` prints `icpic3 X.Y.Z`
        v = self._version_from_tool(executable, arg="--version")
        return v.split()[-1] if v else v

    def cmdline(self, executable, options, task, rlimits):
        if task.property_file and not _is_unreach_call(task.property_file):
            raise benchexec.tools.template.UnsupportedFeatureException(
                "icpic3 only checks unreach-call"
            )
        data_model = "ILP32"
        if isinstance(task.options, dict):
            data_model = task.options.get("data_model", data_model)
        cmd = [executable, "solve", "--data-model", data_model.lower()]
        if "--witness" not in options:
            cmd += ["--witness", "witness.yml"]
        limit = rlimits.cputime or rlimits.walltime
        if limit and "--timeout" not in options:
            # leave time to print `unknown` before the hard limit
            cmd += ["--timeout", str(max(1, int(limit * 0.9) - 2))]
        return cmd + list(options) + [task.single_input_file]

    def determine_result(self, run):
        for line in run.output:
            line = line.strip()
            if line == "true":
                return result.RESULT_TRUE_PROP
            if line == "false":
                return result.RESULT_FALSE_REACH
            if line == "unknown":
                return result.RESULT_UNKNOWN
        if run.was_timeout:
            return result.RESULT_TIMEOUT
        return result.RESULT_ERROR


def _is_unreach_call(path):
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return False
    return "call(reach_error())" in text or "call(__VERIFIER_error())" in text
