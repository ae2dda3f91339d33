//! A stable-toolchain mutation fuzzer for warden's readers (`cargo fuzz` needs nightly).
//!
//! ```text
//! cargo bench --bench fuzz -- --target btor2 --execs 1000000 [--seed N] [--hang-secs S]
//! ```
//! Targets: `aag`, `aig`, `btor2`, `aiger-witness`, `btor2-witness`, `cert`, `c` (see
//! `targets.rs`). Each execution mutates a seed (`tests/common/mutate.rs`) and runs the
//! reader in-process under `catch_unwind`. Inputs the reader accepts join the pool (up to
//! a bound), so mutations also start from valid inputs other than the seeds. A panic is a
//! finding: the input is saved once per panic location under
//! `target/fuzz-findings/TARGET/` (for witnesses and certificates with a copy of the model);
//! an execution that runs longer than `--hang-secs` (default 10) is a hang: the watchdog
//! saves the input and ends the process with exit code 3. Runs are deterministic for a seed.
//! Plain `cargo bench` passes no `--target`: the usage is printed and nothing runs.

#[path = "../../tests/common/mutate.rs"]
mod mutate;
mod targets;

use std::collections::HashSet;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mutate::{mutate, Rng};
use targets::{Target, NAMES};

/// Accepted inputs kept beyond the seeds.
const MAX_POOL: usize = 4096;
/// Accepted inputs larger than this do not join the pool (stacked repeats would grow them).
const MAX_INPUT: usize = 64 * 1024;

struct Args {
    target: String,
    /// `--run FILE`: read this one input and report, instead of fuzzing (for findings; a
    /// witness or certificate is read against the target's first model).
    run: Option<PathBuf>,
    execs: u64,
    seed: u64,
    hang: Duration,
}

fn usage() -> String {
    format!(
        "usage: cargo bench --bench fuzz -- --target {} (--execs N [--seed N] [--hang-secs S] | --run FILE)",
        NAMES.join("|")
    )
}

fn args() -> Result<Option<Args>, String> {
    let mut a = Args {
        target: String::new(),
        run: None,
        execs: 1_000_000,
        seed: 1,
        hang: Duration::from_secs(10),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        let number = |v: String| v.parse::<u64>().map_err(|e| format!("{flag} {v}: {e}"));
        match flag.as_str() {
            "--target" => a.target = value()?,
            "--run" => a.run = Some(PathBuf::from(value()?)),
            "--execs" => a.execs = number(value()?)?,
            "--seed" => a.seed = number(value()?)?,
            "--hang-secs" => a.hang = Duration::from_secs(number(value()?)?),
            "--bench" => {} // cargo bench passes it
            _ => return Err(format!("unknown option {flag}\n{}", usage())),
        }
    }
    Ok((!a.target.is_empty()).then_some(a))
}

/// Saves `data` as a finding of `target` (with the model file it was read against).
fn save(dir: &Path, target: &Target, model: usize, kind: &str, data: &[u8]) -> PathBuf {
    let hash = data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    });
    let stem = format!("{kind}-{hash:016x}");
    std::fs::create_dir_all(dir).expect("findings directory");
    let path = dir.join(format!("{stem}.{}", target.ext));
    std::fs::write(&path, data).expect("write finding");
    if let Some((model_path, _)) = target.models.get(model) {
        let ext = model_path.extension().unwrap_or_default().to_string_lossy();
        std::fs::copy(model_path, dir.join(format!("{stem}.model.{ext}"))).expect("copy model");
    }
    path
}

fn main() {
    let args = match args() {
        Ok(Some(a)) => a,
        Ok(None) => return println!("{}", usage()),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let Some(target) = Target::new(&args.target, root) else {
        eprintln!("unknown target {}\n{}", args.target, usage());
        std::process::exit(1);
    };
    if target.seeds.is_empty() {
        eprintln!("no seeds for {} (is ../shared/bench there?)", target.name);
        std::process::exit(1);
    }
    if let Some(file) = &args.run {
        let data = std::fs::read(file).expect("read --run FILE");
        let start = Instant::now();
        let accepted = target.run(0, &data);
        let secs = start.elapsed().as_secs_f64();
        return println!("{}: accepted {accepted} in {secs:.3} s", file.display());
    }
    let target = Arc::new(target);
    let dir = root.join("target/fuzz-findings").join(target.name);
    println!("{}: {} seeds", target.name, target.seeds.len());

    // The panic message of the last panic, instead of a print per finding.
    let last_panic = Arc::new(Mutex::new(String::new()));
    let hook_panic = last_panic.clone();
    panic::set_hook(Box::new(move |info| {
        let location = info.location().map(|l| l.to_string()).unwrap_or_default();
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        *hook_panic.lock().unwrap() = format!("{location}: {message}");
    }));

    // The watchdog: the start of the running execution (ms since `t0`, 0 = none) and its input.
    let t0 = Instant::now();
    let started = Arc::new(AtomicU64::new(0));
    let current: Arc<Mutex<(usize, Vec<u8>)>> = Arc::default();
    {
        let (started, current, target, dir) = (
            started.clone(),
            current.clone(),
            target.clone(),
            dir.clone(),
        );
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_millis(200));
            let s = started.load(Ordering::SeqCst);
            let now = t0.elapsed().as_millis() as u64;
            if s != 0 && now.saturating_sub(s) > args.hang.as_millis() as u64 {
                let (model, data) = current.lock().unwrap().clone();
                let path = save(&dir, &target, model, "hang", &data);
                eprintln!(
                    "hang: one execution ran past {:?}: {}",
                    args.hang,
                    path.display()
                );
                std::process::exit(3);
            }
        });
    }

    let mut rng = Rng::new(args.seed);
    let mut pool = target.seeds.clone();
    let mut seen = HashSet::new();
    let (mut accepted, mut findings) = (0u64, 0u64);
    for n in 1..=args.execs {
        let (model, base) = &pool[rng.below(pool.len())];
        let other = &pool[rng.below(pool.len())].1;
        let input = mutate(&mut rng, base, other);
        let model = *model;
        *current.lock().unwrap() = (model, input.clone());
        started.store(t0.elapsed().as_millis() as u64 + 1, Ordering::SeqCst);
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| target.run(model, &input)));
        started.store(0, Ordering::SeqCst);
        match outcome {
            Ok(true) => {
                accepted += 1;
                if pool.len() < target.seeds.len() + MAX_POOL && input.len() <= MAX_INPUT {
                    pool.push((model, input));
                }
            }
            Ok(false) => {}
            Err(_) => {
                let message = last_panic.lock().unwrap().clone();
                if seen.insert(message.split(": ").next().unwrap_or("").to_string()) {
                    findings += 1;
                    let path = save(&dir, &target, model, "crash", &input);
                    println!("finding: {message}\n  input: {}", path.display());
                }
            }
        }
        if n % 100_000 == 0 {
            println!("{n} executions, {:.0} s", t0.elapsed().as_secs_f64());
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    println!(
        "{}: {} executions in {secs:.1} s ({:.0}/s), {accepted} accepted, {findings} distinct panics",
        target.name,
        args.execs,
        args.execs as f64 / secs
    );
    if findings > 0 {
        std::process::exit(2);
    }
}
