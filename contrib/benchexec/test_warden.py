#!/usr/bin/env python3
"""Runs the tool-info module on real warden output: `test_warden.py WARDEN REPO_ROOT`.

Runs warden on a sat circuit, an unsat circuit and a malformed file as BenchExec would
(the command line from `cmdline`, stdout and stderr in one output), and checks that
`determine_result` gives `false`, `true` and `ERROR (input)`, and that
`get_value_from_output` reads a `--stats` value. Needs `benchexec` importable; exits 77
(skipped) when it is not. tests/benchexec.rs runs it.
"""

import os
import subprocess
import sys
import tempfile

try:
    import benchexec.result as result
    from benchexec.tools.template import BaseTool2
    from benchexec.util import ProcessExitCode
except ImportError as e:
    print(f"skipped: benchexec is not importable ({e})")
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import warden  # noqa: E402


def run(tool, executable, model, options, prp=None, task_options=None):
    task = BaseTool2.Task.with_files([model], property_file=prp, options=task_options)
    limits = BaseTool2.ResourceLimits(cputime=20, memory=2 * 1024**3)
    cmd = tool.cmdline(executable, options, task, limits)
    assert cmd[:2] == [executable, "check"] and cmd[-1] == model, cmd
    assert ["--timeout", "20"] == cmd[cmd.index("--timeout"):][:2], cmd
    assert ["--mem-limit", "2048"] == cmd[cmd.index("--mem-limit"):][:2], cmd
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = [line + "\n" for line in p.stdout.splitlines()]
    output = BaseTool2.RunOutput(lines)
    r = BaseTool2.Run(cmd, ProcessExitCode.from_raw(p.returncode << 8), output, None)
    return tool.determine_result(r), output


def main(executable, root):
    tool = warden.Tool()
    circuits = os.path.join(root, "circuits")
    got, out = run(tool, executable, os.path.join(circuits, "counter4_sat.aag"), ["--stats"])
    assert got == result.RESULT_FALSE_PROP, (got, list(out))
    assert tool.get_value_from_output(out, "time_s") is not None, list(out)
    unsat = os.path.join(circuits, "counter4_wrap_unsat.aag")
    got, out = run(tool, executable, unsat, ["--engine", "ic3"])
    assert got == result.RESULT_TRUE_PROP, (got, list(out))
    with tempfile.NamedTemporaryFile("w", suffix=".aag") as bad:
        bad.write("aag 1 1 0 1 0\n2\n4\n")
        bad.flush()
        got, out = run(tool, executable, bad.name, [])
    assert got == "ERROR (input)", (got, list(out))
    # A C task: its property file goes to warden, whose SV-COMP verdict is the result.
    prp = os.path.join(os.path.dirname(os.path.abspath(__file__)), "safety.prp")
    program = os.path.join(circuits, "c", "wrap_sat.c")
    got, out = run(tool, executable, program, [], prp, {"data_model": "LP64"})
    assert got == result.RESULT_FALSE_REACH, (got, list(out))
    cmd = tool.cmdline(executable, [], BaseTool2.Task.with_files(
        [program], property_file=prp, options={"data_model": "LP64"}),
        BaseTool2.ResourceLimits())
    assert cmd[cmd.index("--spec") + 1] == prp and "lp64" in cmd, cmd
    print("ok: false, true, ERROR (input), false(unreach-call)")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
