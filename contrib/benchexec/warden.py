# BenchExec tool-info module for warden (https://github.com/sosy-lab/benchexec,
# doc/tool-integration.md). Put this directory on PYTHONPATH and name the tool
# `warden` in a benchmark definition (`<benchmark tool="warden" ...>`, see warden.xml).
#
# Each run is `warden check [OPTIONS] --timeout T --mem-limit M MODEL`, where T and M come
# from BenchExec's limits (unless OPTIONS set them): warden then answers `unknown` itself
# at the limit, so a run that reaches it still has a result and its statistics.
#
# A C task's property file goes to warden as `--spec FILE` (and its `data_model: LP64`
# option as `--data-model lp64`): warden then checks the property the file states, refuses
# other SV-COMP properties as unsupported (`unknown`), and prints SV-COMP's verdict on stderr
# (`warden: SV-COMP verdict: false(unreach-call)`), which is the result.
#
# Otherwise the verdict is the line of stdout that is exactly `sat`, `unsat` or `unknown`
# (stderr, which BenchExec logs in the same file, has no such line: its lines start with
# `warden:` or `c `). `sat` (a property fails) is BenchExec's `false`, `unsat` (all hold)
# `true`, as in SV-COMP's and HWMCC's campaigns. Exit codes (docs/guide/outputs.md): 1 usage error,
# 2 input error, 3 internal error (an answer that failed its own check, or a panic).

import re

import benchexec.result as result
import benchexec.tools.template

VERDICTS = {
    "sat": result.RESULT_FALSE_PROP,
    "unsat": result.RESULT_TRUE_PROP,
    "unknown": result.RESULT_UNKNOWN,
}

ERRORS = {1: "ERROR (usage)", 2: "ERROR (input)", 3: "ERROR (internal)"}

STATISTIC = re.compile(r"^c (\S+) = (.*)$")

SVCOMP_VERDICT = re.compile(r"^warden: SV-COMP verdict: (\S+)$")

SVCOMP_RESULTS = {
    "true": result.RESULT_TRUE_PROP,
    "false(unreach-call)": result.RESULT_FALSE_REACH,
    "unknown": result.RESULT_UNKNOWN,
}


class Tool(benchexec.tools.template.BaseTool2):
    """warden: a hardware model checker for AIGER, BTOR2 and C reachability tasks."""

    def executable(self, tool_locator):
        return tool_locator.find_executable("warden")

    def name(self):
        return "warden"

    def version(self, executable):
        # `warden --version` prints `warden 0.1.0`.
        return self._version_from_tool(executable).replace("warden", "").strip()

    def cmdline(self, executable, options, task, rlimits):
        cmd = [executable, "check", *options]
        program = task.single_input_file
        if program.endswith((".c", ".i")):
            if task.property_file and "--spec" not in options:
                cmd += ["--spec", task.property_file]
            model = (task.options or {}).get("data_model")
            if model == "LP64" and "--data-model" not in options:
                cmd += ["--data-model", "lp64"]
        # BenchExec's soft CPU-time limit (`timelimit`), else its wall-time limit.
        limit = rlimits.cputime or rlimits.walltime
        if limit and "--timeout" not in options:
            cmd += ["--timeout", str(limit)]
        if rlimits.memory and "--mem-limit" not in options:
            cmd += ["--mem-limit", str(rlimits.memory // (1024 * 1024))]
        return cmd + [task.single_input_file]

    def determine_result(self, run):
        svcomp = (SVCOMP_VERDICT.match(line.strip()) for line in run.output)
        verdict = next((SVCOMP_RESULTS.get(m.group(1)) for m in svcomp if m), None)
        if verdict is None:
            verdict = next((VERDICTS[line.strip()] for line in run.output
                            if line.strip() in VERDICTS), None)
        code = run.exit_code.value
        if code in ERRORS:
            return ERRORS[code]
        if verdict is not None:
            return verdict
        if run.was_timeout:
            return "TIMEOUT"
        return result.RESULT_ERROR

    def get_value_from_output(self, output, identifier):
        # `--stats` prints `c NAME = VALUE` lines on stderr (time_s, peak_rss_mib, engine
        # statistics); `<column title="...">NAME</column>` picks one for the tables.
        for line in output:
            m = STATISTIC.match(line.strip())
            if m and m.group(1) == identifier:
                return m.group(2)
        return None
