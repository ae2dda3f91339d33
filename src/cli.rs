//! The command line: `warden check`, `warden sim`, `warden certify`, and the HWMCC form
//! `warden MODEL [CEX_FILE [CERT_FILE]]`.
//!
//! Contract (as the HWMCC tools and sby expect): stdout carries only the verdict line
//! (`sat`/`unsat`/`unknown`) and, for `sat` in the `check` form, the witness (AIGER for AIGER
//! models, btorsim format for BTOR2 models); logs and
//! statistics go to stderr. Exit codes: 0 for any verdict, 1 for usage errors, 2 for input
//! errors, 3 for internal errors. SIGINT/SIGTERM stop the engines, and the run prints
//! `unknown`.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use clap::{Parser, Subcommand, ValueEnum};

use crate::cert;
use crate::cfa;
use crate::check::{self, Answer, EngineKind, Options, Report};
use crate::engine::cegar::CegarOptions;
use crate::engine::ic3::Ic3Options;
use crate::front::{self, aiger, btor2, InputError, Model, Source};
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
    Check(CheckArgs),
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
    /// Deepest frame BMC (and the base case of k-induction) checks.
    #[arg(long)]
    max_depth: Option<usize>,
    /// Memory limit in MiB: past it the run stops and prints `unknown`. The default leaves
    /// room below 2 GiB for the last growth step: deep BMC runs grow by doubling vectors
    /// (CaDiCaL's variable tables, the frame table), so the peak can pass the limit before the
    /// solver sees the stop (1200 gave peaks of 1.25 GiB where 1800 gave 2.2 GiB).
    #[arg(long, default_value_t = 1200)]
    mem_limit: u64,
    /// Worker threads of the portfolio (default: the number of cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Sizes of C's `long` and `size_t` (C programs only).
    #[arg(long, value_enum, default_value_t = DataModelArg::Ilp32)]
    data_model: DataModelArg,
    /// Reads calls of the undeclared C function NAME as nondet `int` values: an external
    /// function that returns an arbitrary value and has no other effect (repeatable).
    /// Without it such a call is unsupported (`unknown`).
    #[arg(long, value_name = "NAME")]
    nondet_fn: Vec<String>,
    /// The CFA of a C program the engines check: large blocks (loop-free regions as one
    /// edge) or one edge per statement.
    #[arg(long, value_enum, default_value_t = BlocksArg::Large)]
    blocks: BlocksArg,
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
    cegar: CegarOptions,
    #[command(flatten)]
    ic3: Ic3Options,
}

#[derive(Copy, Clone, ValueEnum)]
enum DataModelArg {
    Ilp32,
    Lp64,
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
enum BlocksArg {
    Large,
    Single,
}

/// Runs the command line; returns the process exit code.
pub fn main() -> i32 {
    let args: Vec<String> = std::env::args().collect();
    if let Some(hwmcc) = hwmcc_form(&args) {
        return hwmcc;
    }
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 1 } else { 0 };
        }
    };
    match cli.command {
        Command::Check(args) => check(args),
        Command::Sim { model, witness } => sim(&model, &witness),
        Command::Certify { model, certificate } => certify(&model, &certificate),
        Command::Blast { model, output } => blast(&model, &output),
    }
}

/// `warden MODEL [CEX_FILE [CERT_FILE]]` (HWMCC'25): the portfolio without a time limit,
/// only the verdict on stdout, the witness or certificate written to the files.
fn hwmcc_form(args: &[String]) -> Option<i32> {
    let first = args.get(1)?;
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
        mem_limit: 1200,
        max_depth: None,
        jobs: None,
        data_model: DataModelArg::Ilp32,
        nondet_fn: Vec::new(),
        blocks: BlocksArg::Large,
        witness: args.get(2).map(PathBuf::from),
        vcd: None,
        cert: args.get(3).map(PathBuf::from),
        json: None,
        stats: false,
        verbose: 0,
        cegar: CegarOptions::default(),
        ic3: Ic3Options::default(),
    };
    Some(run_check(check_args, false))
}

/// How long a run may go on after its time limit, a signal or the memory limit before the
/// overrun watchdog prints `unknown` and ends the process.
const OVERRUN_GRACE: Duration = Duration::from_secs(2);

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
fn input_error(e: &InputError) -> i32 {
    if e.unsupported {
        eprintln!("warden: {e}");
        print_verdict("unknown\n");
        return 0;
    }
    eprintln!("warden: error: {e}");
    2
}

fn check(args: CheckArgs) -> i32 {
    run_check(args, true)
}

/// One `check` run; `print_witness` puts the witness on stdout after the verdict line.
fn run_check(args: CheckArgs, print_witness: bool) -> i32 {
    crate::log::set_level(args.verbose);
    if let Err(e) = args.cegar.validate() {
        eprintln!("warden: error: {e}");
        return 1;
    }
    let budget = Budget::new(args.timeout.map(Duration::from_secs_f64));
    crate::signals::stop_on_signals(&budget);
    crate::budget::on_overrun(&budget, OVERRUN_GRACE, || {
        if claim_stdout() {
            eprintln!(
                "warden: still running {} s after the limit or stop request: stopping",
                OVERRUN_GRACE.as_secs()
            );
            println!("unknown");
            let _ = std::io::Write::flush(&mut std::io::stdout());
            std::process::exit(0);
        }
    });
    crate::budget::watch_memory(&budget, args.mem_limit);
    let load = front::LoadOptions {
        data_model: match args.data_model {
            DataModelArg::Ilp32 => front::c::DataModel::Ilp32,
            DataModelArg::Lp64 => front::c::DataModel::Lp64,
        },
        nondet_functions: args.nondet_fn.clone(),
        single_blocks: args.blocks == BlocksArg::Single,
    };
    let model = match front::load_with(&args.model, &load) {
        Ok(m) => m,
        Err(e) => return input_error(&e),
    };
    let opts = Options {
        engine: args.engine,
        max_depth: args.max_depth,
        jobs: args
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get())),
        cegar: args.cegar,
        ic3: args.ic3,
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
            return 3;
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
                    eprintln!("warden: internal error: {e}");
                    print_verdict("unknown\n");
                    return 3;
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
    match write_file(args.json.as_deref(), json(&report).as_bytes()) {
        Ok(()) => 0,
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
) -> Result<(String, Option<String>), String> {
    match &model.source {
        Source::Aiger(_) => Ok((
            witness::aiger::write(trace),
            vcd.then(|| witness::vcd::write(&model.ts, trace)),
        )),
        Source::Btor2 { model: words, bits } => {
            let lifted = wl::lift_trace(words, bits, &model.ts, trace);
            wl::replay(words, &lifted)
                .map_err(|e| format!("the word-level trace does not replay: {e}"))?;
            let waveform = match vcd {
                true => Some(witness::vcd::write_words(words, &lifted)?),
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
            wl::replay(words, &lifted)
                .map_err(|e| format!("the word-level trace does not replay: {e}"))?;
            let path = cfa::path::from_trace(program, blocks, &lifted)?;
            let waveform = match vcd {
                true => Some(witness::vcd::write_words(words, &lifted)?),
                false => None,
            };
            let text = read_with.witness_line() + &cfa::path::write(program, &path);
            Ok((text, waveform))
        }
    }
}

/// Writes the witness circuit of `inv`: binary AIGER for a `.aig` path, ASCII otherwise.
fn write_certificate(model: &Model, inv: &cert::Invariant, path: &Path) -> Result<(), i32> {
    let circuit = cert::witness_circuit(&model.aiger(), inv);
    write_aiger(&circuit, path)
}

/// Writes an AIGER file: binary for a `.aig` path, ASCII otherwise.
fn write_aiger(file: &aiger::Aiger, path: &Path) -> Result<(), i32> {
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
fn blast(model: &Path, output: &Path) -> i32 {
    match front::load(model) {
        Ok(m) => match write_aiger(&m.aiger(), output) {
            Ok(()) => 0,
            Err(code) => code,
        },
        Err(e) => input_error(&e),
    }
}

fn write_file(path: Option<&Path>, bytes: &[u8]) -> Result<(), i32> {
    let Some(path) = path else { return Ok(()) };
    std::fs::write(path, bytes).map_err(|e| {
        eprintln!("warden: error: cannot write {}: {e}", path.display());
        2
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

fn json(r: &Report) -> String {
    let stats: Vec<String> = r
        .stats
        .iter()
        .map(|(k, v)| format!("\"{k}\": {v}"))
        .collect();
    format!(
        "{{\"verdict\": \"{}\", \"engine\": \"{}\", \"depth\": {}, \"time_s\": {:.3}, \"peak_rss_mib\": {:.1}, \"stats\": {{{}}}}}\n",
        verdict_word(&r.answer),
        r.engine,
        depth(&r.answer).map_or("null".to_string(), |d| d.to_string()),
        r.time.as_secs_f64(),
        peak_rss_mib(),
        stats.join(", ")
    )
}

fn read_text(path: &Path) -> Result<Vec<u8>, i32> {
    std::fs::read(path).map_err(|e| {
        eprintln!("warden: error: cannot read {}: {e}", path.display());
        2
    })
}

fn sim(model: &Path, witness_path: &Path) -> i32 {
    let text = match read_text(witness_path) {
        Ok(t) => String::from_utf8_lossy(&t).into_owned(),
        Err(code) => return code,
    };
    // A C error path records the settings its program was read with.
    let load = match front::LoadOptions::from_witness(&text) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("warden: error: {}: {e}", witness_path.display());
            return 2;
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
            return 1;
        }
    };
    report_replays(&w.bad, |b| {
        let trace = Trace {
            bad: b,
            ..w.trace.clone()
        };
        replay(ts, &trace).map_err(|e| e.to_string())
    })
}

/// Prints whether each claimed bad property `b` is reached (`replay_one(b)` gives the frame);
/// exit code 0 when all are, else 1.
fn report_replays(
    bad: &[usize],
    mut replay_one: impl FnMut(usize) -> Result<usize, String>,
) -> i32 {
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
    if ok {
        0
    } else {
        1
    }
}

fn certify(model_path: &Path, cert_path: &Path) -> i32 {
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
            return 2;
        }
    };
    match cert::certify(&model.ts, &model.aiger(), &circuit, &Budget::new(None)) {
        Ok(()) => {
            println!("valid: the witness circuit certifies every property");
            0
        }
        Err(e) => {
            println!("invalid: {e}");
            1
        }
    }
}

/// `warden sim` for a C program: the nondet values of the error path, replayed in the CFA
/// interpreter, must reach the error.
fn sim_c(program: &cfa::Cfa, text: &str) -> i32 {
    let values = match cfa::path::parse_values(program, text) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("warden: error: {e}");
            return 2;
        }
    };
    // Generous: loops without nondet calls take steps that the path does not list.
    match cfa::path::replay(program, values, 1_000_000) {
        Ok(run) => {
            println!(
                "valid: the error is reached after {} steps",
                run.steps.len()
            );
            0
        }
        Err(e) => {
            println!("invalid: {e}");
            1
        }
    }
}

/// `warden sim` on a BTOR2 model: every claimed bad property must be reached by the word-level
/// simulation of the witness.
fn sim_btor2(model: &wl::Model, text: &str, witness_path: &Path) -> i32 {
    let w = match btor2::parse_witness(text, model) {
        Ok(w) => w,
        Err(e) => {
            println!("invalid: {}: {e}", witness_path.display());
            return 1;
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
