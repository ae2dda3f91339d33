#!/usr/bin/env python3
"""Writes BenchExec task-definition files for a warden task list (a .tsv with columns
`path` and `expected`, as ../shared/bench/eval-*.tsv and circuits/manifest.tsv).

    contrib/benchexec/make-tasks.py ../shared/bench/eval-aiger.tsv contrib/benchexec/tasks

writes OUT/eval-aiger/NAME.yml per task (format 2.0: the model, `safety.prp`, and the
expected verdict: `sat`/`false` -> false, `unsat`/`true` -> true, anything else none;
a C program of SV-COMP's older kind, which calls `__VERIFIER_error` and not `reach_error`,
gets `verifier-error.prp` instead, the property it was written for)
and OUT/eval-aiger.set listing them, which warden.xml includes. Paths in the files are
relative, so OUT may be moved together with the models it points to only if both move.
"""

import csv
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTED = {"sat": "false", "false": "false", "unsat": "true", "true": "true"}


def property_file(model):
    """`verifier-error.prp` for a C program that calls `__VERIFIER_error` and not
    `reach_error`, else `safety.prp`."""
    if not model.endswith((".c", ".i")):
        return "safety.prp"
    with open(model, errors="replace") as f:
        text = f.read()
    old = "__VERIFIER_error(" in text and "reach_error(" not in text
    return "verifier-error.prp" if old else "safety.prp"


def main(tsv, out):
    name = os.path.splitext(os.path.basename(tsv))[0]
    tasks_dir = os.path.join(out, name)
    os.makedirs(tasks_dir, exist_ok=True)
    prps = {name: os.path.relpath(os.path.join(HERE, name), tasks_dir)
            for name in ("safety.prp", "verifier-error.prp")}
    ymls = []
    with open(tsv, newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            model = os.path.join(os.path.dirname(os.path.abspath(tsv)), row["path"])
            stem = os.path.basename(row["path"]).rsplit(".", 1)[0]
            lines = [
                "format_version: '2.0'",
                f"input_files: '{os.path.relpath(model, tasks_dir)}'",
                "properties:",
                f"  - property_file: {prps[property_file(model)]}",
            ]
            verdict = EXPECTED.get(row.get("expected", "").strip())
            if verdict:
                lines.append(f"    expected_verdict: {verdict}")
            with open(os.path.join(tasks_dir, stem + ".yml"), "w") as y:
                y.write("\n".join(lines) + "\n")
            ymls.append(os.path.join(name, stem + ".yml"))
    with open(os.path.join(out, name + ".set"), "w") as s:
        s.write("\n".join(ymls) + "\n")
    return len(ymls)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    print(f"{main(sys.argv[1], sys.argv[2])} tasks")
