//! The SV-COMP conventions of `warden check` on C programs: the property file (`--spec`) and
//! the YAML witnesses (`--witness-format svcomp`); SV-COMP's verdict words are printed with
//! the verdict line ([`super::stdout`]).

use std::path::Path;

use super::files::write_file;
use super::stdout::{at_line, print_verdict};
use crate::cfa::path::ErrorPath;
use crate::check::{Answer, Proof};
use crate::error::ExitCode;
use crate::front::c::spec::{Spec, SpecError};
use crate::front::{Model, Source};
use crate::witness::loop_invariants::loop_invariants;
use crate::witness::svcomp::{self, Task};

/// The property of `--spec FILE`. A file that cannot be read or parsed is an input error
/// (exit 2); a property warden does not check is the verdict `unknown`, said on stderr.
pub(super) fn read_spec(path: &Path) -> Result<Spec, ExitCode> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("warden: {}: cannot read: {e}", path.display());
            return Err(ExitCode::Input);
        }
    };
    Spec::parse(&text).map_err(|e| match e {
        SpecError::Syntax { line, message } => {
            eprintln!("warden: {}", at_line(path, line, message));
            ExitCode::Input
        }
        SpecError::Unsupported { .. } => {
            eprintln!("warden: {}: {e}", path.display());
            print_verdict("unknown\n");
            ExitCode::Verdict
        }
    })
}

/// Writes the YAML witness of `answer` (a C program's) to `path`: a violation witness of
/// a counterexample (`found`, its error path, which [`super::run::counterexample`] gave),
/// a correctness witness of a proof, nothing for `unknown`.
pub(super) fn write_witness(
    model: &Model,
    program: &Path,
    spec: Option<&Spec>,
    answer: &Answer,
    found: Option<&ErrorPath>,
    path: &Path,
) -> Result<(), ExitCode> {
    let Source::C { cfa, read_with, .. } = &model.source else {
        unreachable!("--witness-format svcomp is refused for circuits");
    };
    let source = match std::fs::read_to_string(program) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("warden: {}: cannot read: {e}", program.display());
            return Err(ExitCode::Input);
        }
    };
    let default = Spec::UnreachCall {
        function: "reach_error".into(),
    };
    let spec = spec.unwrap_or(&default);
    let file = program.display().to_string();
    let task = Task {
        file: &file,
        source: &source,
        specification: spec.text(),
        error_function: spec.error_function(),
        data_model: match read_with.data_model {
            crate::front::c::DataModel::Ilp32 => "ILP32",
            crate::front::c::DataModel::Lp64 => "LP64",
        },
    };
    let text = match answer {
        Answer::Sat(_) => {
            let found = found.expect("a C program's counterexample has its error path");
            svcomp::violation(cfa, found, &task)
        }
        Answer::Unsat(proof) => {
            let invariants = match (proof, &model.source) {
                (
                    Proof::Invariant(inv),
                    Source::C {
                        cfa, blocks, bits, ..
                    },
                ) => loop_invariants(cfa, blocks, bits, &inv.system.aig, inv.predicate),
                _ => Vec::new(),
            };
            svcomp::correctness(&task, &invariants)
        }
        Answer::Unknown { .. } => return Ok(()),
    };
    write_file(Some(path), text.as_bytes())
}
