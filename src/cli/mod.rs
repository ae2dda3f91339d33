//! The command line: `warden check`, `warden sim`, `warden certify`, and the HWMCC form
//! `warden MODEL [CEX_FILE [CERT_FILE]]`.
//!
//! Contract (as the HWMCC tools and sby expect): stdout carries only the verdict line
//! (`sat`/`unsat`/`unknown`) and, for `sat` in the `check` form, the witness (AIGER for AIGER
//! models, btorsim format for BTOR2 models); logs and
//! statistics go to stderr. Exit codes ([`ExitCode`]): 0 for any verdict, 1 for usage errors
//! (including options the chosen engine would ignore, see [`crate::options`]), 2 for input
//! errors, 3 for internal errors. SIGINT/SIGTERM stop the engines, and the run prints
//! `unknown`. A panic anywhere (front end, preprocessing, an engine) is caught: the run prints
//! `unknown` and exits 3 with the message on stderr.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

use clap::{Parser, Subcommand, ValueEnum};

use crate::check::EngineKind;
use crate::engine::bmc::BmcOptions;
use crate::engine::cfa_cegar::ufo::UfoPost;
use crate::engine::configs;
use crate::engine::ic3::Ic3Options;
use crate::engine::smt::SmtOptions;
use crate::error::{panic_message, ExitCode};
use crate::front;
use crate::options::{self, CegarArgs, Opt};
use crate::prep::PrepOptions;

pub mod batch;
mod c_program;
mod compare;
mod counterexample;
mod execute;
mod files;
mod live;
mod properties;
mod replay;
mod report;
mod rtl;
mod run;
mod stdout;
mod svcomp;

use files::blast;
use replay::{certify, sim};
use rtl::RtlArgs;
use run::{check, run_check};
use stdout::{claim_stdout, VERDICT_DUE};

#[derive(Parser)]
#[command(
    name = "warden",
    version,
    about = "A hardware model checker for AIGER, BTOR2 and Verilog circuits and C programs"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Checks the safety properties of a model.
    Check(Box<CheckArgs>),
    /// Checks that a witness file is a counterexample of a model (exit 0 valid, 1 invalid):
    /// AIGER witnesses for AIGER models, btorsim-format witnesses for BTOR2 models, and
    /// ABC's counterexamples (`write_cex` with or without `-n`/`-a`, `write_aiger_cex`) for
    /// both (of the bit-blasted system for BTOR2).
    Sim { model: PathBuf, witness: PathBuf },
    /// Writes the bit-level system of a model as AIGER (binary, or ASCII for `.aag`): for
    /// BTOR2 the bit-blasted system, which `--cert` certificates of BTOR2 models refer to.
    Blast {
        model: PathBuf,
        output: PathBuf,
        /// Reads a C program the way the certificate CERT records in its comment (`# read
        /// with: --recursion-bound 9 ...`), so that the system written is the one CERT
        /// speaks of (for Certifaiger's `certcheck`).
        #[arg(long, value_name = "CERT")]
        as_in: Option<PathBuf>,
        #[command(flatten)]
        words: WordArgs,
    },
    /// Checks that an AIGER witness circuit certifies a model (exit 0 valid, 1 invalid).
    Certify {
        model: PathBuf,
        certificate: PathBuf,
        #[command(flatten)]
        words: WordArgs,
    },
    /// Lists the engine configurations and the portfolios made of them.
    Configs,
    /// Runs a campaign: many models, each a `warden check` process of its own, every answer
    /// checked, the records in one folder (a second start resumes), and a summary table.
    Batch(Box<batch::BatchArgs>),
    /// Runs ABC and warden on the same model under the same time limit, checks each answer
    /// (counterexamples replayed, invariants checked) and reports whether they agree (exit 0)
    /// or not (exit 1).
    Compare(Box<compare::CompareArgs>),
    /// Spacer on the Horn clauses (SMT-LIB2) of standard input, its answer on standard
    /// output: the process a portfolio on a C program runs Spacer in
    /// ([`crate::engine::chc::Spacer`]).
    #[command(hide = true)]
    Spacer,
}

#[derive(clap::Args)]
struct CheckArgs {
    /// The model: AIGER 1.9 (`.aag` ASCII or `.aig` binary), BTOR2 (`.btor`, `.btor2`), a
    /// Verilog/SystemVerilog design (`.v`, `.sv`, read through Yosys), or a C program (`.c`,
    /// preprocessed `.i`).
    model: PathBuf,
    #[arg(long, value_enum, default_value_t = EngineKind::Portfolio)]
    engine: EngineKind,
    /// Wall-clock limit in seconds; the run prints `unknown` when it is reached.
    #[arg(long)]
    timeout: Option<f64>,
    /// Deepest frame BMC (and the base case of k-induction) checks (not read by ic3, nor by
    /// cegar unless it runs localized BMC).
    #[arg(long)]
    max_depth: Option<usize>,
    /// Memory limit in MiB (resident): engines stop at 90 % of it and the run prints
    /// `unknown`; a portfolio first stops its last worker at 75 % so the others go on.
    #[arg(long, default_value_t = DEFAULT_MEM_LIMIT_MIB)]
    mem_limit: u64,
    /// Portfolio workers that run at once, one per core (default: the number of cores;
    /// portfolio only); a portfolio with more configurations runs the others in time slices.
    #[arg(long)]
    jobs: Option<usize>,
    /// The portfolio's set of configurations (`warden configs` lists them; portfolio only)
    /// [default: default].
    #[arg(long, value_name = "NAME",
          value_parser = clap::builder::PossibleValuesParser::new(configs::PORTFOLIOS.iter().map(|p| p.name)))]
    portfolio: Option<String>,
    /// Sizes of C's `long` and `size_t` (C programs only) [default: ilp32].
    #[arg(long, value_enum)]
    data_model: Option<DataModelArg>,
    /// Reads calls of the C function NAME, which has no body, as nondet values even with
    /// `--strict-extern` (repeatable; without `--strict-extern` every function without a body
    /// is read so). C programs only.
    #[arg(long, value_name = "NAME")]
    nondet_fn: Vec<String>,
    /// Refuses calls of C functions without a body (`unknown`) instead of assuming that they
    /// return an arbitrary value of their return type and have no other effect (the default,
    /// named on stderr and in `--json` for each such function). C programs only.
    #[arg(long)]
    strict_extern: bool,
    /// The CFA of a C program the engines check: large blocks (loop-free regions as one
    /// edge) or one edge per statement (C programs only) [default: large].
    #[arg(long, value_enum)]
    blocks: Option<BlocksArg>,
    /// What stdout carries: the verdict line and a `sat`'s witness, or the witness alone in
    /// the form the format's own solvers print (AIGER: result line `1`/`0`/`2` and trace;
    /// BTOR2: btorsim witness, `unsat` or `unknown`), as SBY's engines read it.
    #[arg(long, value_enum, value_name = "FORM", default_value_t = stdout::Form::Verdict)]
    stdout: stdout::Form,
    /// Writes the witness of a `sat` answer to FILE (it is also printed on stdout).
    #[arg(long, value_name = "FILE")]
    witness: Option<PathBuf>,
    /// What `--witness` writes: warden's own witness (the one printed on stdout), or SV-COMP's
    /// YAML witness 2.0 (C programs only): a violation witness for `sat`, a correctness
    /// witness for `unsat` [default: native].
    #[arg(long, value_enum)]
    witness_format: Option<WitnessFormat>,
    /// An SV-COMP property file (`.prp`, C programs only): `unreach-call` of the function it
    /// names is checked (calls of that function alone are the error) and SV-COMP's verdict
    /// (`true`, `false(unreach-call)`, `unknown`) is printed on stderr; any other property is
    /// reported unsupported (`unknown`).
    #[arg(long, value_name = "FILE")]
    spec: Option<PathBuf>,
    /// Writes the counterexample as a VCD waveform.
    #[arg(long, value_name = "FILE")]
    vcd: Option<PathBuf>,
    /// Writes the invariant of an `unsat` answer as a Certifaiger witness circuit (for BTOR2:
    /// over the bit-blasted system that `warden blast` writes).
    #[arg(long, value_name = "FILE")]
    cert: Option<PathBuf>,
    /// Writes verdict, engine, depth, time, memory and statistics as JSON.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// On an `unknown` answer, writes what the run verified to FILE: the depth up to which
    /// no counterexample exists and the lemmas proved about the latches (conditional model
    /// checking), for a later run's `--condition-in`.
    #[arg(long, value_name = "FILE")]
    condition_out: Option<PathBuf>,
    /// Assumes the condition FILE that an earlier run on the same model wrote: BMC and
    /// k-induction's base case start past its depth, and its lemmas (checked again) join the
    /// engines' proved lemmas (portfolio, bmc, kind, ic3).
    #[arg(long, value_name = "FILE")]
    condition_in: Option<PathBuf>,
    /// Prints statistics on stderr.
    #[arg(long)]
    stats: bool,
    /// More progress on stderr (repeat for more); when stderr is not a terminal, a progress
    /// line every 5 s.
    #[arg(short, long, action = clap::ArgAction::Count)]
    verbose: u8,
    /// Nothing on stderr but errors: no status line, no notes.
    #[arg(short, long, conflicts_with = "verbose")]
    quiet: bool,
    #[command(flatten)]
    cegar: CegarArgs,
    /// UFO's abstract post (--engine ufo only): true (uUFO), Cartesian (cpUFO) or Boolean
    /// (bpUFO) predicate abstraction [default: cart].
    #[arg(long, value_enum)]
    ufo_post: Option<UfoPost>,
    #[command(flatten)]
    bmc: BmcOptions,
    #[command(flatten)]
    prep: PrepOptions,
    #[command(flatten)]
    ic3: Ic3Options,
    #[command(flatten)]
    smt: SmtOptions,
    #[command(flatten)]
    words: WordArgs,
    #[command(flatten)]
    rtl: RtlArgs,
}

/// How a BTOR2 model is prepared for bit-blasting (`check`, `blast` and `certify` read it
/// alike, so that a certificate refers to the system `blast` writes with the same option).
#[derive(Clone, Debug, Default, clap::Args)]
struct WordArgs {
    /// Simplifies a BTOR2 model at the word level before bit-blasting (constant and equal
    /// states, rewriting, cone of influence) [default: true]. BTOR2 only.
    #[arg(long, value_name = "BOOL")]
    wl_simplify: Option<bool>,
}

impl WordArgs {
    fn load_options(&self) -> front::LoadOptions {
        front::LoadOptions {
            wl_simplify: self.wl_simplify.unwrap_or(true),
            ..front::LoadOptions::default()
        }
    }
}

impl CheckArgs {
    /// The options given explicitly that only some engines or inputs read (the CEGAR ones
    /// aside).
    fn given(&self) -> Vec<Opt> {
        options::given([
            (self.max_depth.is_some(), Opt::MaxDepth),
            (self.jobs.is_some(), Opt::Jobs),
            (self.portfolio.is_some(), Opt::Portfolio),
            (self.bmc != BmcOptions::default(), Opt::Bmc),
            (self.ic3 != Ic3Options::default(), Opt::Ic3),
            (self.smt != SmtOptions::default(), Opt::Smt),
            (self.prep != PrepOptions::default(), Opt::Prep),
            (self.data_model.is_some(), Opt::DataModel),
            (!self.nondet_fn.is_empty(), Opt::NondetFn),
            (self.strict_extern, Opt::StrictExtern),
            (self.blocks.is_some(), Opt::Blocks),
            (self.spec.is_some(), Opt::Spec),
            (self.witness_format.is_some(), Opt::WitnessFormat),
            (self.words.wl_simplify.is_some(), Opt::WlSimplify),
            (self.condition_in.is_some(), Opt::ConditionIn),
            (self.condition_out.is_some(), Opt::ConditionOut),
            (self.ufo_post.is_some(), Opt::UfoPost),
        ])
    }
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
enum DataModelArg {
    Ilp32,
    Lp64,
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
enum WitnessFormat {
    Native,
    Svcomp,
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
enum BlocksArg {
    Large,
    Single,
}

/// Runs the command line; returns the process exit code. A panic is caught here: it is
/// reported on stderr, a `check` run prints `unknown` (unless it printed its verdict
/// already), and the exit code is [`ExitCode::Internal`].
pub fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    match catch_unwind(AssertUnwindSafe(|| dispatch(&args))) {
        Ok(code) => code,
        Err(payload) => {
            crate::progress::close();
            eprintln!(
                "warden: internal error: panic: {}",
                panic_message(&*payload)
            );
            if VERDICT_DUE.load(Ordering::SeqCst) && claim_stdout() {
                stdout::println_verdict("unknown");
            }
            ExitCode::Internal
        }
    }
}

/// Runs the command `args` asks for.
fn dispatch(args: &[String]) -> ExitCode {
    if let Some(hwmcc) = hwmcc_form(args) {
        return hwmcc;
    }
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return match e.use_stderr() {
                true => ExitCode::Usage,
                false => ExitCode::Verdict,
            };
        }
    };
    match cli.command {
        Command::Check(args) => check(*args),
        Command::Sim { model, witness } => sim(&model, &witness),
        Command::Certify {
            model,
            certificate,
            words,
        } => certify(&model, &certificate, &words),
        Command::Blast {
            model,
            output,
            as_in,
            words,
        } => blast(&model, &output, as_in.as_deref(), &words),
        Command::Compare(args) => compare::compare(*args),
        Command::Batch(args) => batch::batch(*args),
        Command::Spacer => match crate::engine::chc::serve() {
            Ok(()) => ExitCode::Verdict,
            Err(e) => {
                eprintln!("warden spacer: {e}");
                ExitCode::Input
            }
        },
        Command::Configs => {
            print!("{}", configs::listing());
            ExitCode::Verdict
        }
    }
}

/// The default `--mem-limit` in MiB. The benchmark machines allow 2 GiB per task; the run
/// ends at the limit itself at the latest (its engines stop at 90 % of it, see
/// [`crate::budget::watch_memory`]), so the peak stays below 1800 * 1.1 = 1980 MiB even
/// with a solver's growth step in progress when the stop is seen.
const DEFAULT_MEM_LIMIT_MIB: u64 = 1800;

/// The subcommands, which are never read as the MODEL of the HWMCC form (a model file named
/// `check` is `./check` there).
const SUBCOMMANDS: [&str; 6] = ["check", "sim", "blast", "certify", "compare", "help"];

/// `warden MODEL [CEX_FILE [CERT_FILE]]` (HWMCC'25): the portfolio without a time limit,
/// only the verdict on stdout, the witness or certificate written to the files.
fn hwmcc_form(args: &[String]) -> Option<ExitCode> {
    let first = args.get(1)?;
    if SUBCOMMANDS.contains(&first.as_str()) {
        return None;
    }
    let path = Path::new(first);
    let model_like = path.exists()
        || path
            .extension()
            .is_some_and(|e| ["aig", "aag", "btor", "btor2"].iter().any(|m| e == *m));
    if args.len() > 4 || first.starts_with('-') || !model_like {
        return None;
    }
    // `warden MODEL -v` would otherwise write the counterexample to a file named `-v`.
    if let Some(option) = args[2..].iter().find(|a| a.starts_with('-')) {
        eprintln!(
            "warden: {option}: the HWMCC form `warden MODEL [CEX_FILE [CERT_FILE]]` takes no \
             options (options go with `warden check {first} {option} ...`)"
        );
        return Some(ExitCode::Usage);
    }
    let check_args = CheckArgs {
        model: first.into(),
        engine: EngineKind::Portfolio,
        timeout: None,
        mem_limit: DEFAULT_MEM_LIMIT_MIB,
        max_depth: None,
        jobs: None,
        portfolio: None,
        data_model: None,
        nondet_fn: Vec::new(),
        strict_extern: false,
        spec: None,
        witness_format: None,
        blocks: None,
        stdout: stdout::Form::Verdict,
        witness: args.get(2).map(PathBuf::from),
        vcd: None,
        cert: args.get(3).map(PathBuf::from),
        json: None,
        condition_out: None,
        condition_in: None,
        stats: false,
        verbose: 0,
        quiet: false,
        cegar: CegarArgs::default(),
        ufo_post: None,
        bmc: BmcOptions::default(),
        prep: PrepOptions::default(),
        ic3: Ic3Options::default(),
        smt: SmtOptions::default(),
        words: WordArgs::default(),
        rtl: RtlArgs::default(),
    };
    Some(run_check(check_args, false))
}
