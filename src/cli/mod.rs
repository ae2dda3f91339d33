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
//!
//! Layer: the top; may import every module, and none imports it.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

use clap::{FromArgMatches, Parser, Subcommand, ValueEnum};

use crate::check::EngineKind;
use crate::engine::bmc::BmcOptions;
use crate::engine::cfa_cegar::ufo::UfoPost;
use crate::engine::ic3::Ic3Options;
use crate::engine::smt::SmtOptions;
use crate::error::{panic_message, ExitCode};
use crate::front;
use crate::options::{self, configs, CegarArgs, Opt};
use crate::prep::PrepOptions;

pub mod batch;
mod c_program;
mod compare;
mod counterexample;
mod execute;
mod files;
mod live;
mod manual;
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

/// `warden --version`: the package's version and the commit it was built from (`-dirty`
/// with uncommitted changes, `unknown` outside a git checkout; see `build.rs`).
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("WARDEN_COMMIT"), ")");

#[derive(Parser)]
#[command(
    name = "warden",
    version = VERSION,
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
    /// Lists the portfolios (and when to use which), the engines and the engine
    /// configurations.
    Configs,
    /// Writes the man pages (`warden`, `warden-check`, ...) to stdout, or into DIR.
    Man {
        /// The folder the pages go into as `warden.1`, `warden-check.1`, ...
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// Writes the completion script of SHELL to stdout (bash: `source <(warden completions
    /// bash)`).
    Completions {
        /// The shell whose script is written.
        shell: clap_complete::Shell,
    },
    /// Runs a campaign: many models, each a `warden check` process of its own, every answer
    /// checked, the records in one folder (a second start resumes), and a summary table.
    Batch(Box<batch::BatchArgs>),
    /// Runs ABC and warden on the same model under the same time limit, checks each answer
    /// (counterexamples replayed, invariants checked) and reports whether they agree (exit 0)
    /// or not (exit 1).
    Compare(Box<compare::CompareArgs>),
    // The process a portfolio on a C program runs Spacer in (crate::engine::chc::Spacer).
    /// Spacer on the Horn clauses (SMT-LIB2) of standard input, its answer on standard
    /// output.
    #[command(hide = true)]
    Spacer,
}

#[derive(clap::Args)]
#[command(
    after_help = "The engines' tuning options: warden check --help-all. The portfolios, \
    engines and named configurations: warden configs."
)]
struct CheckArgs {
    /// The model: AIGER 1.9 (`.aag` ASCII or `.aig` binary), BTOR2 (`.btor`, `.btor2`), a
    /// Verilog/SystemVerilog design (`.v`, `.sv`, read through Yosys), or a C program (`.c`,
    /// preprocessed `.i`).
    #[arg(help_heading = "Input")]
    model: PathBuf,
    /// Assumes the condition FILE that an earlier run on the same model wrote
    /// (`--condition-out`): BMC and k-induction start past its depth, its lemmas (checked
    /// again) join the proved ones (portfolio, bmc, kind, ic3).
    #[arg(long, value_name = "FILE", help_heading = "Input")]
    condition_in: Option<PathBuf>,
    /// The engine: a portfolio of several, or one alone.
    #[arg(long, value_enum, default_value_t = EngineKind::Portfolio, help_heading = "Engine")]
    engine: EngineKind,
    /// The portfolio's set of configurations (`warden configs` says when to use which)
    /// [default: default].
    #[arg(long, value_name = "NAME", help_heading = "Engine",
          value_parser = clap::builder::PossibleValuesParser::new(configs::PORTFOLIOS.iter().map(|p| p.name)))]
    portfolio: Option<String>,
    /// Cores the portfolio uses, at most the machine's: its members run that many at once,
    /// the others in time slices; each core beyond its own members runs one more
    /// configuration (`warden configs`) [default: the number of cores].
    #[arg(long, help_heading = "Engine")]
    jobs: Option<usize>,
    /// Wall-clock limit in seconds: the engines stop shortly before it, so that the verdict
    /// (`unknown` when undecided) is printed by then.
    #[arg(long, value_name = "SECONDS", help_heading = "Limits")]
    timeout: Option<f64>,
    /// Deepest frame BMC and k-induction's base case check (not read by ic3).
    #[arg(long, value_name = "K", help_heading = "Limits")]
    max_depth: Option<usize>,
    /// Memory limit in MiB (resident): engines stop at 90 % of it and the run prints
    /// `unknown`; a portfolio first stops one member at 75 %.
    #[arg(long, value_name = "MIB", default_value_t = DEFAULT_MEM_LIMIT_MIB, help_heading = "Limits")]
    mem_limit: u64,
    /// Writes the witness of a `sat` answer to FILE (it is also printed on stdout).
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    witness: Option<PathBuf>,
    /// Writes the counterexample as a VCD waveform.
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    vcd: Option<PathBuf>,
    /// Writes the invariant of an `unsat` answer as a Certifaiger witness circuit (BTOR2:
    /// over the bit-blasted system `warden blast` writes).
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    cert: Option<PathBuf>,
    /// Writes verdict, engine, depth, time, memory and statistics as JSON.
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    json: Option<PathBuf>,
    /// On an `unknown` answer, writes what the run verified (a clean depth, proved lemmas)
    /// for a later run's `--condition-in`.
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    condition_out: Option<PathBuf>,
    /// Prints statistics on stderr.
    #[arg(long, help_heading = "Output")]
    stats: bool,
    /// More progress on stderr (repeat for more); when stderr is not a terminal, a progress
    /// line every 5 s.
    #[arg(short, long, action = clap::ArgAction::Count, help_heading = "Output")]
    verbose: u8,
    /// Nothing on stderr but errors: no status line, no notes.
    #[arg(short, long, conflicts_with = "verbose", help_heading = "Output")]
    quiet: bool,
    /// What stdout carries: the verdict line and a `sat`'s witness, or the witness alone in
    /// the form the format's own solvers print (AIGER: result line `1`/`0`/`2` and trace;
    /// BTOR2: btorsim witness, `unsat` or `unknown`), as SBY's engines read it.
    #[arg(long, value_enum, value_name = "FORM", default_value_t = stdout::Form::Verdict,
          help_heading = "Output")]
    stdout: stdout::Form,
    /// An SV-COMP property file (`.prp`): `unreach-call` is checked and SV-COMP's verdict
    /// printed on stderr; other properties are `unknown`.
    #[arg(long, value_name = "FILE", help_heading = "C programs")]
    spec: Option<PathBuf>,
    /// What `--witness` writes: warden's own witness, or an SV-COMP YAML witness 2.0
    /// [default: native].
    #[arg(long, value_enum, value_name = "FORMAT", help_heading = "C programs")]
    witness_format: Option<WitnessFormat>,
    /// Sizes of C's `long` and `size_t` [default: ilp32].
    #[arg(long, value_enum, value_name = "SIZES", help_heading = "C programs")]
    data_model: Option<DataModelArg>,
    /// Reads calls of the bodiless function NAME as nondet values also with
    /// `--strict-extern` (repeatable).
    #[arg(long, value_name = "NAME", help_heading = "C programs")]
    nondet_fn: Vec<String>,
    /// Refuses calls of functions without a body (`unknown`) instead of reading them as
    /// arbitrary values without side effects.
    #[arg(long, help_heading = "C programs")]
    strict_extern: bool,
    /// The CFA's edges: loop-free regions as one edge, or one per statement [default: large].
    #[arg(long, value_enum, help_heading = "C programs")]
    blocks: Option<BlocksArg>,
    #[command(flatten)]
    rtl: RtlArgs,
    #[command(flatten)]
    cegar: CegarArgs,
    /// UFO's abstract post: true (uUFO), Cartesian (cpUFO) or Boolean (bpUFO) predicate
    /// abstraction [default: cart].
    #[arg(long, value_enum, help_heading = "Tuning: UFO (--engine ufo)")]
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
}

/// How a BTOR2 model is prepared for bit-blasting (`check`, `blast` and `certify` read it
/// alike, so that a certificate refers to the system `blast` writes with the same option).
#[derive(Clone, Debug, Default, clap::Args)]
#[command(next_help_heading = "Tuning: BTOR2 models")]
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
    if manual::asks_help_all(args) {
        return manual::print_help_all();
    }
    let cli = match (manual::command().try_get_matches_from(args))
        .and_then(|m| Cli::from_arg_matches(&m))
    {
        Ok(cli) => cli,
        // Help and version.
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return ExitCode::Verdict;
        }
        // A usage error, said as every other error line: `warden: ...`.
        Err(e) => {
            let rendered = e.render().to_string();
            let message = rendered.strip_prefix("error: ").unwrap_or(&rendered);
            eprint!("warden: {message}");
            return ExitCode::Usage;
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
        Command::Man { dir } => manual::man(dir.as_deref()),
        Command::Completions { shell } => manual::completions(shell),
    }
}

/// The default `--mem-limit` in MiB. The benchmark machines allow 2 GiB per task; the run
/// ends at the limit itself at the latest (its engines stop at 90 % of it, see
/// [`crate::budget::watch_memory`]), so the peak stays below 1800 * 1.1 = 1980 MiB even
/// with a solver's growth step in progress when the stop is seen.
const DEFAULT_MEM_LIMIT_MIB: u64 = 1800;

/// The subcommands, which are never read as the MODEL of the HWMCC form (a model file named
/// `check` is `./check` there).
const SUBCOMMANDS: [&str; 9] = [
    "check",
    "sim",
    "blast",
    "certify",
    "configs",
    "compare",
    "man",
    "completions",
    "help",
];

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
