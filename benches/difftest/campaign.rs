//! A differential campaign: `aiger` random AIGER circuits, `btor2` random BTOR2 models and
//! `resets` random AIGER circuits with reset functions, model `i` of a kind generated from
//! the seed `(seed, kind, i)` alone, each checked by the [`Oracle`]; every model with a
//! problem is saved to `save` with the problems beside it (and, for a circuit with reset
//! functions, the equivalent circuit ABC checked).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use super::gen_aiger;
use super::gen_btor2;
use super::oracle::{Format, Oracle, Report};
use super::rng::Rng;
use crate::Verdict;

pub struct Campaign {
    pub aiger: usize,
    pub btor2: usize,
    /// AIGER circuits with reset functions.
    pub resets: usize,
    pub seed: u64,
    /// Models before this index are not run (a stopped campaign resumed).
    pub skip: usize,
    pub jobs: usize,
    /// Weights of the AIGER size classes (tiny, small, medium, large).
    pub aiger_sizes: [u64; 4],
    /// Largest number of operator nodes of a BTOR2 model.
    pub btor2_ops: usize,
    /// Where models with a problem are saved.
    pub save: PathBuf,
    /// Print one line per model.
    pub verbose: bool,
}

/// The totals of a campaign.
#[derive(Default)]
pub struct Summary {
    pub models: usize,
    /// Models with a problem (disagreement, rejected answer, failed run), as saved files.
    pub failures: Vec<PathBuf>,
    /// Per tool: how often it answered sat, unsat, unknown.
    pub per_tool: HashMap<String, [usize; 3]>,
    /// Models on which some tool answered sat / unsat.
    pub sat_models: usize,
    pub unsat_models: usize,
    pub sim_ok: usize,
    pub aigsim_ok: usize,
    pub btorsim_ok: usize,
    pub certcheck_ok: usize,
    pub btorsim_skipped: usize,
}

impl Summary {
    fn add(&mut self, r: &Report) {
        self.models += 1;
        for (tool, v) in &r.answers {
            let slot = match v {
                Verdict::Sat => 0,
                Verdict::Unsat => 1,
                Verdict::Unknown => 2,
            };
            self.per_tool.entry(tool.clone()).or_default()[slot] += 1;
        }
        let said = |v: Verdict| r.answers.iter().any(|(_, a)| *a == v);
        self.sat_models += usize::from(said(Verdict::Sat));
        self.unsat_models += usize::from(said(Verdict::Unsat));
        self.sim_ok += r.sim_ok;
        self.aigsim_ok += r.aigsim_ok;
        self.btorsim_ok += r.btorsim_ok;
        self.certcheck_ok += r.certcheck_ok;
        self.btorsim_skipped += r.btorsim_skipped;
    }

    pub fn print(&self) {
        println!(
            "\ndifftest: {} models ({} with a sat answer, {} with an unsat answer), {} with a problem",
            self.models,
            self.sat_models,
            self.unsat_models,
            self.failures.len()
        );
        println!(
            "  witnesses accepted: warden sim {}, aigsim {}, btorsim {} ({} not replayable by \
             btorsim: overflow predicates); certificates accepted by certcheck: {}",
            self.sim_ok, self.aigsim_ok, self.btorsim_ok, self.btorsim_skipped, self.certcheck_ok
        );
        let mut tools: Vec<_> = self.per_tool.iter().collect();
        tools.sort();
        println!(
            "  {:<14} {:>6} {:>6} {:>8}",
            "tool", "sat", "unsat", "unknown"
        );
        for (tool, [s, u, k]) in tools {
            println!("  {tool:<14} {s:>6} {u:>6} {k:>8}");
        }
        for f in &self.failures {
            println!("  problem: {}", f.display());
        }
    }
}

/// The seed of model `index` of a kind (0 = AIGER, 1 = BTOR2, 2 = AIGER with reset
/// functions).
fn model_seed(seed: u64, kind: u64, index: usize) -> u64 {
    let mut rng =
        Rng::new(seed ^ (kind << 62) ^ (index as u64).wrapping_mul(0x2545_f491_4f6c_dd1d));
    rng.next_u64()
}

impl Campaign {
    /// `aiger` + `btor2` models from `seed` (no reset functions), one at a time, with the
    /// default sizes; models with a problem go to `target/difftest-failures`.
    pub fn new(aiger: usize, btor2: usize, seed: u64) -> Campaign {
        Campaign {
            aiger,
            btor2,
            resets: 0,
            seed,
            skip: 0,
            jobs: 1,
            aiger_sizes: [3, 4, 2, 1],
            btor2_ops: 40,
            save: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/difftest-failures"),
            verbose: false,
        }
    }

    pub fn run(&self, oracle: &Oracle) -> Summary {
        // One directory per campaign: a test binary runs its campaigns at the same time.
        static CAMPAIGNS: AtomicUsize = AtomicUsize::new(0);
        let tmp = std::env::temp_dir().join(format!(
            "warden-difftest-{}-{}",
            std::process::id(),
            CAMPAIGNS.fetch_add(1, Ordering::Relaxed)
        ));
        let total = self.aiger + self.btor2 + self.resets;
        let next = AtomicUsize::new(self.skip);
        let summary = Mutex::new(Summary::default());
        std::thread::scope(|s| {
            for _ in 0..self.jobs.clamp(1, total.saturating_sub(self.skip).max(1)) {
                s.spawn(|| loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= total {
                        break;
                    }
                    let dir = tmp.join(format!("m{i}"));
                    let (report, saved) = self.one(oracle, i, &dir);
                    let _ = std::fs::remove_dir_all(&dir);
                    let mut sum = summary.lock().unwrap();
                    sum.add(&report);
                    if let Some(path) = saved {
                        println!("PROBLEM {}: {}", path.display(), report.problems.join("; "));
                        sum.failures.push(path);
                    }
                    if self.verbose || (i + 1).is_multiple_of(100) {
                        eprintln!(
                            "[{}/{total}] {} problem(s) so far",
                            i + 1,
                            sum.failures.len()
                        );
                    }
                });
            }
        });
        let _ = std::fs::remove_dir_all(&tmp);
        summary.into_inner().unwrap()
    }

    /// Generates and checks model `i`; the saved model's path when there is a problem.
    fn one(&self, oracle: &Oracle, i: usize, dir: &Path) -> (Report, Option<PathBuf>) {
        let mut equivalent = None;
        let (name, text, format) = if i < self.aiger {
            let mut rng = Rng::new(model_seed(self.seed, 0, i));
            let text = gen_aiger::generate(&mut rng, &self.aiger_sizes);
            (format!("aiger-{}-{i}.aag", self.seed), text, Format::Aiger)
        } else if i < self.aiger + self.btor2 {
            let j = i - self.aiger;
            let mut rng = Rng::new(model_seed(self.seed, 1, j));
            let m = gen_btor2::generate(&mut rng, self.btor2_ops);
            let format = Format::Btor2 { btorsim: m.btorsim };
            (format!("btor2-{}-{j}.btor2", self.seed), m.text, format)
        } else {
            let j = i - self.aiger - self.btor2;
            let mut rng = Rng::new(model_seed(self.seed, 2, j));
            let (text, plain) = gen_aiger::generate_with_resets(&mut rng, &self.aiger_sizes);
            equivalent = Some(plain);
            (format!("resets-{}-{j}.aag", self.seed), text, Format::Aiger)
        };
        let model = dir.join(&name);
        let plain = dir.join(format!("plain-{name}"));
        let written = std::fs::create_dir_all(dir)
            .and_then(|()| std::fs::write(&model, &text))
            .and_then(|()| {
                equivalent
                    .as_ref()
                    .map_or(Ok(()), |e| std::fs::write(&plain, e))
            });
        let report = match written {
            Ok(()) => oracle.check(&model, format, equivalent.is_some().then_some(&*plain), dir),
            Err(e) => Report {
                problems: vec![format!("cannot write {}: {e}", model.display())],
                ..Report::default()
            },
        };
        if report.problems.is_empty() {
            return (report, None);
        }
        let saved = self.save.join(&name);
        let notes = report.problems.join("\n") + "\n";
        let _ = std::fs::create_dir_all(&self.save)
            .and_then(|()| std::fs::write(&saved, &text))
            .and_then(|()| std::fs::write(saved.with_extension("problems.txt"), notes))
            .and_then(|()| match &equivalent {
                Some(e) => std::fs::write(saved.with_extension("plain.aag"), e),
                None => Ok(()),
            });
        (report, Some(saved))
    }
}
