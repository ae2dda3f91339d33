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

use std::fmt::Display;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use clap::{Parser, Subcommand, ValueEnum};

use crate::cert;
use crate::cfa;
use crate::check::{self, Answer, EngineKind, Options, Report};
use crate::engine::bmc::BmcOptions;
use crate::engine::configs;
use crate::engine::ic3::Ic3Options;
use crate::error::{panic_message, ExitCode, InternalError};
use crate::front::{self, aiger, btor2, InputError, InputKind, Model, Source};
use crate::options::{self, CegarArgs, Opt};
use crate::prep::PrepOptions;
use crate::ts::{replay, Trace};
use crate::witness;
use crate::wl;
use crate::Budget;

#[derive(Parser)]
#[command(
    name = "warden",
    version,
    about = "A hardware model checker for AIGER and BTOR2 circuits"
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
    /// AIGER witnesses for AIGER models, btorsim-format witnesses for BTOR2 models.
    Sim { model: PathBuf, witness: PathBuf },
    /// Writes the bit-level system of a model as AIGER (binary, or ASCII for `.aag`): for
    /// BTOR2 the bit-blasted system, which `--cert` certificates of BTOR2 models refer to.
    Blast { model: PathBuf, output: PathBuf },
    /// Checks that an AIGER witness circuit certifies a model (exit 0 valid, 1 invalid).
    Certify {
        model: PathBuf,
        certificate: PathBuf,
    },
    /// Lists the engine configurations and the portfolios made of them.
    Configs,
}

#[derive(clap::Args)]
struct CheckArgs {
    /// The model: AIGER 1.9 (`.aag` ASCII or `.aig` binary), BTOR2 (`.btor`, `.btor2`), or a
    /// C program (`.c`, preprocessed `.i`).
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
    /// Reads calls of the undeclared C function NAME as nondet `int` values: an external
    /// function that returns an arbitrary value and has no other effect (repeatable).
    /// Without it such a call is unsupported (`unknown`). C programs only.
    #[arg(long, value_name = "NAME")]
    nondet_fn: Vec<String>,
    /// The CFA of a C program the engines check: large blocks (loop-free regions as one
    /// edge) or one edge per statement (C programs only) [default: large].
    #[arg(long, value_enum)]
    blocks: Option<BlocksArg>,
    /// Writes the witness of a `sat` answer to FILE (it is also printed on stdout).
    #[arg(long, value_name = "FILE")]
    witness: Option<PathBuf>,
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
    /// Prints statistics on stderr.
    #[arg(long)]
    stats: bool,
    /// More progress on stderr (repeat for more).
    #[arg(short, long, action = clap::ArgAction::Count)]
    verbose: u8,
    #[command(flatten)]
    cegar: CegarArgs,
    #[command(flatten)]
    bmc: BmcOptions,
    #[command(flatten)]
    prep: PrepOptions,
    #[command(flatten)]
    ic3: Ic3Options,
}

impl CheckArgs {
    /// The options given explicitly that only some engines or inputs read (the CEGAR ones
    /// aside).
    fn given(&self) -> Vec<Opt> {
        options::given([
            (self.max_depth.is_some(), Opt::MaxDepth),
            (self.jobs.is_some(), Opt::Jobs),
            (self.portfolio.is_some(), Opt::Portfolio),
            (self.bmc.step.get() != 1, Opt::BmcStep),
            (self.bmc.dynamic, Opt::BmcDyn),
            (self.ic3 != Ic3Options::default(), Opt::Ic3),
            (self.prep != PrepOptions::default(), Opt::Prep),
            (self.data_model.is_some(), Opt::DataModel),
            (!self.nondet_fn.is_empty(), Opt::NondetFn),
            (self.blocks.is_some(), Opt::Blocks),
        ])
    }
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
enum DataModelArg {
    Ilp32,
    Lp64,
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
enum BlocksArg {
    Large,
    Single,
}

/// Whether this run owes stdout a verdict line (a `check` run): a panic then prints
/// `unknown`.
static VERDICT_DUE: AtomicBool = AtomicBool::new(false);

/// Runs the command line; returns the process exit code. A panic is caught here: it is
/// reported on stderr, a `check` run prints `unknown` (unless it printed its verdict
/// already), and the exit code is [`ExitCode::Internal`].
pub fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    match catch_unwind(AssertUnwindSafe(|| dispatch(&args))) {
        Ok(code) => code,
        Err(payload) => {
            eprintln!(
                "warden: internal error: panic: {}",
                panic_message(&*payload)
            );
            if VERDICT_DUE.load(Ordering::SeqCst) && claim_stdout() {
                println!("unknown");
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
        Command::Certify { model, certificate } => certify(&model, &certificate),
        Command::Blast { model, output } => blast(&model, &output),
        Command::Configs => {
            print!("{}", configs::listing());
            ExitCode::Verdict
        }
    }
}

/// The subcommands, which are never read as the MODEL of the HWMCC form (a model file named
/// `check` is `./check` there).
/// The default `--mem-limit` in MiB. The benchmark machines allow 2 GiB per task; the run
/// ends at the limit itself at the latest (its engines stop at 90 % of it, see
/// [`crate::budget::watch_memory`]), so the peak stays below 1800 * 1.1 = 1980 MiB even
/// with a solver's growth step in progress when the stop is seen.
const DEFAULT_MEM_LIMIT_MIB: u64 = 1800;

const SUBCOMMANDS: [&str; 5] = ["check", "sim", "blast", "certify", "help"];

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
        blocks: None,
        witness: args.get(2).map(PathBuf::from),
        vcd: None,
        cert: args.get(3).map(PathBuf::from),
        json: None,
        stats: false,
        verbose: 0,
        cegar: CegarArgs::default(),
        bmc: BmcOptions::default(),
        prep: PrepOptions::default(),
        ic3: Ic3Options::default(),
    };
    Some(run_check(check_args, false))
}

/// How long a run may go on after its time limit, a signal or the memory limit before the
/// overrun watchdog prints `unknown` and ends the process.
const OVERRUN_GRACE: Duration = Duration::from_secs(2);

/// The last resort of the watchdogs: prints `unknown` (unless a verdict is being printed) and
/// ends the process, saying why on stderr.
fn give_up(why: std::fmt::Arguments) {
    if claim_stdout() {
        eprintln!("warden: {why}: stopping");
        println!("unknown");
        let _ = std::io::Write::flush(&mut std::io::stdout());
        std::process::exit(0);
    }
}

/// Whether this thread may print the verdict: the first caller may, every later one may not
/// (the normal output path and the overrun watchdog race for it, and stdout must carry one
/// verdict).
fn claim_stdout() -> bool {
    static CLAIMED: AtomicBool = AtomicBool::new(false);
    !CLAIMED.swap(true, Ordering::SeqCst)
}

/// Prints `text` (the verdict line and the witness) unless the overrun watchdog printed
/// `unknown` first, in which case it is ending the process and this thread waits for that.
fn print_verdict(text: &str) {
    if !claim_stdout() {
        loop {
            std::thread::park();
        }
    }
    print!("{text}");
}

/// Exit code 2 for bad input; an unsupported construct is the verdict `unknown` (exit 0).
fn input_error(e: &InputError) -> ExitCode {
    if e.unsupported {
        eprintln!("warden: {e}");
        print_verdict("unknown\n");
        return ExitCode::Verdict;
    }
    eprintln!("warden: error: {e}");
    ExitCode::Input
}

fn check(args: CheckArgs) -> ExitCode {
    run_check(args, true)
}

/// One `check` run; `print_witness` puts the witness on stdout after the verdict line.
fn run_check(args: CheckArgs, print_witness: bool) -> ExitCode {
    crate::log::set_level(args.verbose);
    let input = InputKind::of(&args.model);
    let cegar = match options::check(args.engine, input, &args.cegar, &args.given()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("warden: error: {e}");
            return ExitCode::Usage;
        }
    };
    VERDICT_DUE.store(true, Ordering::SeqCst);
    let budget = Budget::new(args.timeout.map(Duration::from_secs_f64));
    crate::signals::stop_on_signals(&budget);
    crate::budget::on_overrun(&budget, OVERRUN_GRACE, || {
        give_up(format_args!(
            "still running {} s after the limit or stop request",
            OVERRUN_GRACE.as_secs()
        ))
    });
    crate::budget::watch_memory(&budget, args.mem_limit, || {
        give_up(format_args!("memory still growing past the limit"))
    });
    let load = front::LoadOptions {
        data_model: match args.data_model.unwrap_or(DataModelArg::Ilp32) {
            DataModelArg::Ilp32 => front::c::DataModel::Ilp32,
            DataModelArg::Lp64 => front::c::DataModel::Lp64,
        },
        nondet_functions: args.nondet_fn.clone(),
        single_blocks: args.blocks == Some(BlocksArg::Single),
    };
    crate::fault::inject("front");
    let mut model = match front::load_with(&args.model, &load) {
        Ok(m) => m,
        Err(e) => return input_error(&e),
    };
    // Kept for the whole run (replay, invariant check, witness), never built on again.
    model.ts.aig.compact();
    let opts = Options {
        engine: args.engine,
        max_depth: args.max_depth,
        jobs: args
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get())),
        cegar,
        portfolio: args
            .portfolio
            .as_deref()
            .and_then(configs::portfolio)
            .map_or(configs::PORTFOLIOS[0].name, |p| p.name),
        bmc: args.bmc,
        prep: args.prep.clone(),
        ic3: args.ic3,
        mem_limit: Some(args.mem_limit),
    };
    let result = match (&model.source, opts.engine) {
        // The CFA whose encoding `model.ts` is: invariants speak of its locations.
        (Source::C { blocks, bits, .. }, EngineKind::Cegar) => {
            check::run_cfa(blocks, &model.ts, bits, &opts, &budget)
        }
        _ => check::run(&model.ts, &opts, &budget),
    };
    let report = match result {
        Ok(r) => r,
        Err(e) => {
            eprintln!("warden: {e}");
            print_verdict("unknown\n");
            return ExitCode::Internal;
        }
    };
    if let Some(n) = &report.note {
        eprintln!("warden: {n}");
    }
    let mut out = String::from(verdict_word(&report.answer));
    out.push('\n');
    let written = match &report.answer {
        Answer::Sat(trace) => {
            let (text, vcd) = match counterexample(&model, trace, args.vcd.is_some()) {
                Ok(c) => c,
                Err(e) => {
                    eprintln!("warden: {e}");
                    print_verdict("unknown\n");
                    return ExitCode::Internal;
                }
            };
            if print_witness {
                out.push_str(&text);
            }
            write_file(args.witness.as_deref(), text.as_bytes()).and_then(|()| match &args.vcd {
                Some(path) => write_file(Some(path), vcd.unwrap_or_default().as_bytes()),
                None => Ok(()),
            })
        }
        Answer::Unsat(inv) => match &args.cert {
            Some(path) => write_certificate(&model, inv, path),
            None => Ok(()),
        },
        Answer::Unknown { depth } => {
            match depth {
                Some(k) => eprintln!("warden: no counterexample up to depth {k}"),
                None => eprintln!("warden: no bound completed"),
            }
            Ok(())
        }
    };
    if let Err(code) = written {
        return code;
    }
    print_verdict(&out);
    if args.stats {
        print_stats(&report);
    }
    let json = json(&args.model, &report);
    match write_file(args.json.as_deref(), json.as_bytes()) {
        Ok(()) => ExitCode::Verdict,
        Err(code) => code,
    }
}

/// The witness text of a counterexample in the model's own format, and its waveform when
/// `vcd` is asked for. A BTOR2 counterexample is lifted to words and replayed by the
/// word-level simulator (independent of the blaster) before it is printed.
fn counterexample(
    model: &Model,
    trace: &Trace,
    vcd: bool,
) -> Result<(String, Option<String>), InternalError> {
    let replay_error =
        |e| InternalError::SourceReplay(format!("the word-level trace does not replay: {e}"));
    match &model.source {
        Source::Aiger(_) => Ok((
            witness::aiger::write(trace),
            vcd.then(|| witness::vcd::write(&model.ts, trace)),
        )),
        Source::Btor2 { model: words, bits } => {
            let lifted = wl::lift_trace(words, bits, &model.ts, trace);
            wl::replay(words, &lifted).map_err(replay_error)?;
            let waveform = match vcd {
                true => Some(
                    witness::vcd::write_words(words, &lifted)
                        .map_err(|e| InternalError::SourceReplay(e.to_string()))?,
                ),
                false => None,
            };
            Ok((btor2::write_witness(words, &lifted), waveform))
        }
        Source::C {
            cfa: program,
            blocks,
            model: words,
            bits,
            read_with,
        } => {
            let lifted = wl::lift_trace(words, bits, &model.ts, trace);
            wl::replay(words, &lifted).map_err(replay_error)?;
            let path = cfa::path::from_trace(program, blocks, &lifted)
                .map_err(|e| InternalError::SourceReplay(e.to_string()))?;
            let waveform = match vcd {
                true => Some(
                    witness::vcd::write_words(words, &lifted)
                        .map_err(|e| InternalError::SourceReplay(e.to_string()))?,
                ),
                false => None,
            };
            let text = read_with.witness_line() + &cfa::path::write(program, &path);
            Ok((text, waveform))
        }
    }
}

/// Writes the witness circuit of `inv`: binary AIGER for a `.aig` path, ASCII otherwise.
fn write_certificate(model: &Model, inv: &cert::Invariant, path: &Path) -> Result<(), ExitCode> {
    let circuit = cert::witness_circuit(&model.aiger(), inv);
    write_aiger(&circuit, path)
}

/// Writes an AIGER file: binary for a `.aig` path, ASCII otherwise.
fn write_aiger(file: &aiger::Aiger, path: &Path) -> Result<(), ExitCode> {
    let mut bytes = Vec::new();
    let written = if path.extension().is_some_and(|e| e == "aig") {
        aiger::write_binary(file, &mut bytes)
    } else {
        aiger::write_ascii(file, &mut bytes)
    };
    written.expect("writing to memory cannot fail");
    write_file(Some(path), &bytes)
}

/// `warden blast MODEL OUT`: the bit-level system as AIGER.
fn blast(model: &Path, output: &Path) -> ExitCode {
    match front::load(model) {
        Ok(m) => match write_aiger(&m.aiger(), output) {
            Ok(()) => ExitCode::Verdict,
            Err(code) => code,
        },
        Err(e) => input_error(&e),
    }
}

fn write_file(path: Option<&Path>, bytes: &[u8]) -> Result<(), ExitCode> {
    let Some(path) = path else { return Ok(()) };
    std::fs::write(path, bytes).map_err(|e| {
        eprintln!("warden: error: cannot write {}: {e}", path.display());
        ExitCode::Input
    })
}

fn verdict_word(a: &Answer) -> &'static str {
    match a {
        Answer::Sat(_) => "sat",
        Answer::Unsat(_) => "unsat",
        Answer::Unknown { .. } => "unknown",
    }
}

fn depth(a: &Answer) -> Option<usize> {
    match a {
        Answer::Sat(t) => Some(t.depth()),
        Answer::Unsat(_) => None,
        Answer::Unknown { depth } => *depth,
    }
}

/// Peak resident memory of this process in MiB.
fn peak_rss_mib() -> f64 {
    // SAFETY: getrusage only writes into the struct we pass.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    usage.ru_maxrss as f64 / 1024.0
}

fn print_stats(r: &Report) {
    eprintln!("c engine = {}", r.engine);
    eprintln!("c time_s = {:.3}", r.time.as_secs_f64());
    eprintln!("c peak_rss_mib = {:.1}", peak_rss_mib());
    for (k, v) in &r.stats {
        eprintln!("c {k} = {v}");
    }
}

/// The `--json` record of a run on `model` (serde_json escapes every string, file names too).
fn json(model: &Path, r: &Report) -> String {
    let stats: serde_json::Map<String, serde_json::Value> = (r.stats.iter())
        .map(|(k, v)| (k.to_string(), (*v).into()))
        .collect();
    let record = serde_json::json!({
        "model": model.to_string_lossy(),
        "verdict": verdict_word(&r.answer),
        "engine": r.engine,
        "depth": depth(&r.answer),
        "time_s": (r.time.as_secs_f64() * 1000.0).round() / 1000.0,
        "peak_rss_mib": (peak_rss_mib() * 10.0).round() / 10.0,
        "stats": stats,
    });
    record.to_string() + "\n"
}

fn read_text(path: &Path) -> Result<Vec<u8>, ExitCode> {
    std::fs::read(path).map_err(|e| {
        eprintln!("warden: error: cannot read {}: {e}", path.display());
        ExitCode::Input
    })
}

fn sim(model: &Path, witness_path: &Path) -> ExitCode {
    let text = match read_text(witness_path) {
        Ok(t) => String::from_utf8_lossy(&t).into_owned(),
        Err(code) => return code,
    };
    // A C error path records the settings its program was read with.
    let load = match front::LoadOptions::from_witness(&text) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("warden: error: {}: {e}", witness_path.display());
            return ExitCode::Input;
        }
    };
    let model = match front::load_with(model, &load) {
        Ok(m) => m,
        Err(e) => return input_error(&e),
    };
    let ts = match &model.source {
        Source::Aiger(_) => &model.ts,
        Source::Btor2 { model: words, .. } => return sim_btor2(words, &text, witness_path),
        Source::C { cfa: program, .. } => return sim_c(program, &text),
    };
    let w = match witness::aiger::parse(&text, ts) {
        Ok(w) => w,
        Err(e) => {
            println!("invalid: {}: {e}", witness_path.display());
            return ExitCode::INVALID;
        }
    };
    report_replays(&w.bad, |b| {
        let trace = Trace {
            bad: b,
            ..w.trace.clone()
        };
        replay(ts, &trace)
    })
}

/// Prints whether each claimed bad property `b` is reached (`replay_one(b)` gives the frame);
/// exit code 0 when all are, else 1.
fn report_replays<E: Display>(
    bad: &[usize],
    mut replay_one: impl FnMut(usize) -> Result<usize, E>,
) -> ExitCode {
    let mut ok = true;
    for &b in bad {
        match replay_one(b) {
            Ok(frame) => println!("valid: bad property b{b} is reached in frame {frame}"),
            Err(e) => {
                println!("invalid: b{b}: {e}");
                ok = false;
            }
        }
    }
    match ok {
        true => ExitCode::Verdict,
        false => ExitCode::INVALID,
    }
}

fn certify(model_path: &Path, cert_path: &Path) -> ExitCode {
    let model = match front::load(model_path) {
        Ok(m) => m,
        Err(e) => return input_error(&e),
    };
    let bytes = match read_text(cert_path) {
        Ok(b) => b,
        Err(code) => return code,
    };
    let circuit = match aiger::parse(&bytes) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("warden: error: {}: {e}", cert_path.display());
            return ExitCode::Input;
        }
    };
    match cert::certify(&model.ts, &model.aiger(), &circuit, &Budget::new(None)) {
        Ok(()) => {
            println!("valid: the witness circuit certifies every property");
            ExitCode::Verdict
        }
        Err(e) => {
            println!("invalid: {e}");
            ExitCode::INVALID
        }
    }
}

/// `warden sim` for a C program: the nondet values of the error path, replayed in the CFA
/// interpreter, must reach the error.
fn sim_c(program: &cfa::Cfa, text: &str) -> ExitCode {
    let values = match cfa::path::parse_values(program, text) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("warden: error: {e}");
            return ExitCode::Input;
        }
    };
    // Generous: loops without nondet calls take steps that the path does not list.
    match cfa::path::replay(program, values, 1_000_000) {
        Ok(run) => {
            println!(
                "valid: the error is reached after {} steps",
                run.steps.len()
            );
            ExitCode::Verdict
        }
        Err(e) => {
            println!("invalid: {e}");
            ExitCode::INVALID
        }
    }
}

/// `warden sim` on a BTOR2 model: every claimed bad property must be reached by the word-level
/// simulation of the witness.
fn sim_btor2(model: &wl::Model, text: &str, witness_path: &Path) -> ExitCode {
    let w = match btor2::parse_witness(text, model) {
        Ok(w) => w,
        Err(e) => {
            println!("invalid: {}: {e}", witness_path.display());
            return ExitCode::INVALID;
        }
    };
    report_replays(&w.bad, |b| {
        let trace = wl::Trace {
            bad: b,
            ..w.trace.clone()
        };
        wl::replay(model, &trace)
    })
}
