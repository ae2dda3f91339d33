//! Differential testing: random AIGER circuits (with reset functions too) and BTOR2 models
//! checked by every warden engine and by ABC (`pdr`, `bmc3`), every `sat` witness replayed
//! by `warden sim` and by aigsim/btorsim, every `unsat` certificate checked by Certifaiger
//! (`certcheck`); any disagreement or rejected answer is printed and the model saved.
//!
//! ```text
//! cargo bench --bench difftest -- --aiger 10000 --btor2 2000 --resets 1000 --seed 1 --jobs 2
//! ```
//! Plain `cargo bench` (no `--aiger`/`--btor2`/`--resets`) prints the usage and exits. The exit code is 1
//! when any model had a problem. The default test suite runs a slice of 200 models
//! (`tests/difftest.rs`).

#[path = "difftest/abc.rs"]
mod abc;
#[path = "../tests/common/checkers.rs"]
mod checkers;
#[path = "difftest/mod.rs"]
mod difftest;

use std::path::PathBuf;

use difftest::{Campaign, Oracle};
pub use warden::verdict::Verdict;

const USAGE: &str = "\
usage: cargo bench --bench difftest -- [--aiger N] [--btor2 M] [options]
  --aiger N        random AIGER circuits (default 0)
  --btor2 M        random BTOR2 models (default 0)
  --resets R       random AIGER circuits with reset functions (default 0); ABC checks an
                   equivalent circuit without them
  --seed S         campaign seed (default 1); model i is reproduced by (S, i) alone
  --skip N         start at model N (to finish a campaign that was stopped: the
                   progress lines say how far it got)
  --jobs J         models checked at once (default 1)
  --timeout T      seconds per warden and ABC run (default 5)
  --max-depth K    warden --max-depth (default 25)
  --large W        weight of the large AIGER size class (default 1; tiny, small, medium: 3, 4, 2)
  --btor2-ops N    largest number of operator nodes of a BTOR2 model (default 40)
  --save DIR       where models with a problem go (default target/difftest-failures)
  --tools DIR      the independent checkers (default: built into target/checkers)
  --no-abc         do not run ABC
  -v               one progress line per model";

fn main() {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let mut c = Campaign::new(0, 0, 1);
    let (mut timeout_s, mut max_depth, mut tools, mut use_abc) = (5, 25, None, true);
    let mut it = argv.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().cloned().ok_or(format!("{flag} needs a value"));
        let number = |v: Result<String, String>| {
            v.and_then(|v| {
                v.parse::<u64>()
                    .map_err(|_| format!("{flag}: not a number: {v}"))
            })
        };
        let r: Result<(), String> = (|| {
            match flag.as_str() {
                "--aiger" => c.aiger = number(value())? as usize,
                "--btor2" => c.btor2 = number(value())? as usize,
                "--resets" => c.resets = number(value())? as usize,
                "--seed" => c.seed = number(value())?,
                "--skip" => c.skip = number(value())? as usize,
                "--jobs" => c.jobs = number(value())? as usize,
                "--timeout" => timeout_s = number(value())?.max(1),
                "--max-depth" => max_depth = number(value())? as usize,
                "--large" => c.aiger_sizes[3] = number(value())?,
                "--btor2-ops" => c.btor2_ops = number(value())? as usize,
                "--save" => c.save = PathBuf::from(value()?),
                "--tools" => tools = Some(PathBuf::from(value()?)),
                "--no-abc" => use_abc = false,
                "-v" => c.verbose = true,
                "--bench" => {}
                _ => return Err(format!("unknown argument {flag}")),
            }
            Ok(())
        })();
        if let Err(e) = r {
            eprintln!("difftest: {e}\n{USAGE}");
            std::process::exit(2);
        }
    }
    if c.aiger + c.btor2 + c.resets == 0 {
        println!("difftest: nothing to run.\n{USAGE}");
        return;
    }
    let checkers = match tools {
        Some(dir) => checkers::Checkers::at(&dir).map(|c| Box::leak(Box::new(c)) as &_),
        None => checkers::Checkers::get().ok_or_else(|| "see above".to_owned()),
    };
    let checkers = match checkers {
        Ok(c) => c,
        Err(e) => {
            eprintln!("difftest: no independent checkers ({e}); nothing checked");
            std::process::exit(2);
        }
    };
    let abc = match use_abc {
        true => abc::find_binary(None)
            .map_err(|e| eprintln!("difftest: running without ABC: {e}"))
            .ok(),
        false => None,
    };
    let oracle = Oracle {
        warden: PathBuf::from(env!("CARGO_BIN_EXE_warden")),
        checkers,
        abc,
        timeout_s,
        max_depth,
    };
    println!(
        "difftest: {} AIGER + {} BTOR2 + {} reset-function models, seed {}, timeout \
         {timeout_s} s, max depth {max_depth}, ABC {}",
        c.aiger,
        c.btor2,
        c.resets,
        c.seed,
        if oracle.abc.is_some() { "on" } else { "off" }
    );
    let summary = c.run(&oracle);
    summary.print();
    if !summary.failures.is_empty() {
        std::process::exit(1);
    }
}
