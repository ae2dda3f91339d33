//! Random simulation with weighted input phases: a cheap search for deep counterexamples.
//!
//! BMC pays for every frame below a bug, and one SAT query at the bug's depth is often hard;
//! but a bug that a long, *likely* run reaches (fill a FIFO of 128 entries, then drain it:
//! the mann data-integrity designs of HWMCC) is found by a simulation that happens to push
//! 128 times in a row, in microseconds per frame. Uniform random inputs rarely do that
//! (pushes and pops cancel out in a random walk), so every run (one bit of a machine word,
//! 64 runs per word, [`WordSim`]) draws each input from a *weight* that it keeps for a phase:
//! mostly 0 (1/16), fair, mostly 1 (15/16), or sticky (the input keeps its last value). Runs
//! redraw their weights now and then, at rates that differ from word to word, so phases of
//! many lengths occur; a run restarts from a fresh initial state (uninitialised latches
//! random) after at most [`HISTORY`] frames, the frames its trace can be rebuilt from, and
//! at random before. ABC's `sim3` and rIC3's random simulation are the same idea;
//! the weighted phases are what makes long monotone runs likely.
//!
//! Invariant constraints (HWMCC designs use them to forbid inputs: no pop from an empty FIFO,
//! reset only in the first frame): a run whose inputs break a constraint first flips the
//! inputs that constraint reads (which repairs a constraint on one input at once), then
//! draws them again, fair, up to [`RETRIES`] tries in all, leaving the other inputs to their
//! phase; a run that still breaks one restarts. A trace only has frames in which every
//! constraint held, so it is a trace of the system as AIGER 1.9 defines it; like every
//! engine's, it is replayed by the caller before it is printed.
//!
//! Finds bugs only: it never claims a bound (`unknown` without a depth).

use super::{Engine, Stats, Verdict};
use crate::aig::{Var, WordSim};
use crate::rng::Rng;
use crate::ts::{Leaf, Trace, TransitionSystem};
use crate::Budget;

/// Frames kept per run, at most: the longest trace the engine can report.
pub const HISTORY: usize = 2048;
/// Memory for the input history, at most: fewer frames are kept on systems with many inputs.
const HISTORY_BYTES: usize = 64 << 20;
/// Machine words per signal (64 runs each).
const WORDS: usize = 4;
/// Fair redraws of the inputs of the runs that break a constraint, before they restart.
const RETRIES: usize = 4;

/// The engine.
pub struct Sim {
    rng: Rng,
    stats: SimStats,
}

#[derive(Default)]
struct SimStats {
    frames: u64,
    restarts: u64,
    retries: u64,
    longest: u64,
}

impl Sim {
    /// A simulation whose random choices follow from `seed` (runs are reproducible).
    pub fn new(seed: u64) -> Sim {
        Sim {
            rng: Rng(seed),
            stats: SimStats::default(),
        }
    }
}

impl Default for Sim {
    fn default() -> Sim {
        Sim::new(0x5349_4d33)
    }
}

/// A word whose bits are set with probability `2^-k`.
fn rare(rng: &mut Rng, k: u32) -> u64 {
    (0..k).fold(!0, |w, _| w & rng.next_u64())
}

/// Replaces the bits of `old` under `mask` by those of `new`.
fn blend(old: u64, new: u64, mask: u64) -> u64 {
    old & !mask | new & mask
}

/// The runs of one search: their state, weights and the frames their traces need.
struct Runs<'a> {
    ts: &'a TransitionSystem,
    kinds: Vec<Option<Leaf>>,
    sim: WordSim,
    /// Latch `i`, word `w` at `i * WORDS + w`: the current state.
    state: Vec<u64>,
    /// The state each run started from (its trace's initial state).
    init: Vec<u64>,
    /// Input `k`, word `w` at `k * WORDS + w`: the inputs of the current frame.
    inputs: Vec<u64>,
    /// The weight class of each input and run, two bits: `(lo, hi)` = (0,0) mostly 0,
    /// (1,0) fair, (0,1) mostly 1, (1,1) sticky.
    weight_lo: Vec<u64>,
    weight_hi: Vec<u64>,
    /// The inputs of the last `frames` frames, frame `t` at `(t % frames) * inputs.len()`.
    history: Vec<u64>,
    frames: usize,
    /// The frame (of the whole search) at which each run started.
    start: Vec<u64>,
    /// The inputs each invariant constraint reads.
    support: Vec<Vec<usize>>,
    /// The variables the constraints read, in order: what a repaired frame evaluates again.
    constraint_cone: Vec<Var>,
}

impl<'a> Runs<'a> {
    fn new(ts: &'a TransitionSystem, rng: &mut Rng) -> Runs<'a> {
        let width = ts.inputs.len() * WORDS;
        let frames = (HISTORY_BYTES / (8 * width.max(1))).clamp(1, HISTORY);
        let mut runs = Runs {
            ts,
            kinds: ts.leaf_kinds(),
            sim: WordSim::new(&ts.aig, WORDS),
            state: vec![0; ts.latches.len() * WORDS],
            init: vec![0; ts.latches.len() * WORDS],
            inputs: vec![0; width],
            weight_lo: vec![0; width],
            weight_hi: vec![0; width],
            history: vec![0; frames * width],
            frames,
            start: vec![0; 64 * WORDS],
            support: (ts.constraints.iter())
                .map(|&c| {
                    let cone = ts.aig.cone([c]);
                    (ts.inputs.iter().enumerate())
                        .filter(|(_, v)| cone[v.index()])
                        .map(|(k, _)| k)
                        .collect()
                })
                .collect(),
            constraint_cone: (ts.aig.cone(ts.constraints.iter().copied()).iter().enumerate())
                .filter(|&(i, &m)| m && i > 0)
                .map(|(i, _)| Var(i as u32))
                .collect(),
        };
        for w in 0..WORDS {
            runs.restart(w, !0, 0, rng);
            runs.reweigh(w, !0, rng);
        }
        runs
    }

    /// Starts the runs of word `w` under `mask` again, at frame `now`, from a fresh initial
    /// state.
    fn restart(&mut self, w: usize, mask: u64, now: u64, rng: &mut Rng) {
        for (i, latch) in self.ts.latches.iter().enumerate() {
            let value = match latch.init {
                Some(b) => 0u64.wrapping_sub(b as u64),
                None => rng.next_u64(),
            };
            let at = i * WORDS + w;
            self.state[at] = blend(self.state[at], value, mask);
            self.init[at] = blend(self.init[at], value, mask);
        }
        for bit in 0..64 {
            if mask >> bit & 1 == 1 {
                self.start[w * 64 + bit] = now;
            }
        }
    }

    /// New weights for the runs of word `w` under `mask`.
    fn reweigh(&mut self, w: usize, mask: u64, rng: &mut Rng) {
        for k in 0..self.ts.inputs.len() {
            let at = k * WORDS + w;
            self.weight_lo[at] = blend(self.weight_lo[at], rng.next_u64(), mask);
            self.weight_hi[at] = blend(self.weight_hi[at], rng.next_u64(), mask);
        }
    }

    /// Draws the inputs of word `w` from the runs' weights.
    fn draw(&mut self, w: usize, rng: &mut Rng) {
        for k in 0..self.ts.inputs.len() {
            let at = k * WORDS + w;
            let (lo, hi) = (self.weight_lo[at], self.weight_hi[at]);
            let (mostly0, fair, mostly1) = (rare(rng, 4), rng.next_u64(), !rare(rng, 4));
            self.inputs[at] =
                mostly0 & !lo & !hi | fair & lo & !hi | mostly1 & !lo & hi | self.inputs[at] & lo & hi;
        }
    }

    /// Changes the inputs of the runs of word `w` that break a constraint in the last
    /// evaluation: those inputs that a broken constraint reads, flipped (`flip`) or drawn
    /// again.
    fn repair(&mut self, w: usize, flip: bool, rng: &mut Rng) {
        let mut masks = vec![0u64; self.ts.inputs.len()];
        for (c, support) in self.ts.constraints.iter().zip(&self.support) {
            let broken = !self.sim.word(*c, w);
            if broken != 0 {
                for &k in support {
                    masks[k] |= broken;
                }
            }
        }
        for (k, &mask) in masks.iter().enumerate().filter(|(_, &m)| m != 0) {
            let at = k * WORDS + w;
            let new = if flip { !self.inputs[at] } else { rng.next_u64() };
            self.inputs[at] = blend(self.inputs[at], new, mask);
        }
    }

    /// Evaluates `vars` (all variables if `None`) in the current frame.
    fn eval(&mut self, vars: Option<&[Var]>) {
        let (kinds, state, inputs) = (&self.kinds, &self.state, &self.inputs);
        let leaf = |v: Var, w| match kinds[v.index()] {
            Some(Leaf::Latch(i)) => state[i * WORDS + w],
            Some(Leaf::Input(k)) => inputs[k * WORDS + w],
            None => 0,
        };
        match vars {
            Some(vars) => self.sim.eval_vars(&self.ts.aig, vars.iter().copied(), leaf),
            None => self.sim.eval(&self.ts.aig, leaf),
        }
    }

    /// Per word of the last evaluation, the runs that keep every constraint.
    fn kept(&self) -> [u64; WORDS] {
        std::array::from_fn(|w| {
            (self.ts.constraints.iter()).fold(!0, |a, &c| a & self.sim.word(c, w))
        })
    }

    /// Per word of the last evaluation, the runs in a bad state.
    fn bad(&self) -> [u64; WORDS] {
        std::array::from_fn(|w| (self.ts.bad.iter()).fold(0, |a, &b| a | self.sim.word(b, w)))
    }

    /// The trace of run `bit` of word `w`, in a bad state at frame `now` of the search.
    fn trace(&self, w: usize, bit: usize, now: u64) -> Trace {
        let value = |words: &[u64], at: usize| words[at] >> bit & 1 == 1;
        let first = self.start[w * 64 + bit];
        let width = self.inputs.len();
        let inputs = (first..=now)
            .map(|t| {
                let base = (t as usize % self.frames) * width;
                (0..self.ts.inputs.len())
                    .map(|k| value(&self.history, base + k * WORDS + w))
                    .collect()
            })
            .collect();
        let bad = (self.ts.bad.iter())
            .position(|&b| self.sim.word(b, w) >> bit & 1 == 1)
            .expect("a run in a bad state is in one of the bad states");
        Trace {
            init: (0..self.ts.latches.len())
                .map(|i| value(&self.init, i * WORDS + w))
                .collect(),
            inputs,
            bad,
        }
    }
}

impl Engine for Sim {
    fn name(&self) -> &'static str {
        "sim"
    }

    fn check(&mut self, ts: &TransitionSystem, budget: &Budget) -> Verdict {
        if ts.bad.is_empty() {
            return Verdict::Unknown { depth: None };
        }
        let rng = &mut self.rng;
        let mut runs = Runs::new(ts, rng);
        let width = runs.inputs.len();
        let mut now: u64 = 0;
        while !budget.expired() {
            for w in 0..WORDS {
                runs.draw(w, rng);
            }
            // The constraints' cone alone until the inputs keep them (or the tries run out),
            // then the whole frame once.
            let cone = std::mem::take(&mut runs.constraint_cone);
            runs.eval(Some(&cone));
            let mut ok = runs.kept();
            for retry in 0..RETRIES {
                if ok.iter().all(|&k| k == !0) {
                    break;
                }
                self.stats.retries += 1;
                for (w, &k) in ok.iter().enumerate() {
                    if k != !0 {
                        runs.repair(w, retry == 0, rng);
                    }
                }
                runs.eval(Some(&cone));
                ok = runs.kept();
            }
            runs.constraint_cone = cone;
            runs.eval(None);
            let bad = runs.bad();
            let base = (now as usize % runs.frames) * width;
            runs.history[base..base + width].copy_from_slice(&runs.inputs);
            for w in 0..WORDS {
                let hit = ok[w] & bad[w];
                if hit != 0 {
                    let trace = runs.trace(w, hit.trailing_zeros() as usize, now);
                    self.stats.frames += now + 1;
                    self.stats.longest = self.stats.longest.max(trace.inputs.len() as u64);
                    return Verdict::Unsafe(trace);
                }
            }
            let next: Vec<u64> = (ts.latches.iter())
                .flat_map(|l| (0..WORDS).map(move |w| (l.next, w)))
                .map(|(next, w)| runs.sim.word(next, w))
                .collect();
            runs.state = next;
            now += 1;
            for (w, &ok) in ok.iter().enumerate() {
                // Runs that broke a constraint, ran out of history, or (rarely) by chance.
                let full = (0..64).fold(0u64, |m, bit| {
                    let age = now - runs.start[w * 64 + bit];
                    m | ((age as usize >= runs.frames) as u64) << bit
                });
                let done = !ok | full | rare(rng, 11);
                if done != 0 {
                    self.stats.restarts += done.count_ones() as u64;
                    for bit in (0..64).filter(|bit| done >> bit & 1 == 1) {
                        let age = now - runs.start[w * 64 + bit];
                        self.stats.longest = self.stats.longest.max(age);
                    }
                    runs.restart(w, done, now, rng);
                }
                // Phases of mean length 8, 16, 32 and 64 frames, by word.
                let change = rare(rng, 3 + (w % 4) as u32) | done;
                runs.reweigh(w, change, rng);
            }
        }
        self.stats.frames += now;
        Verdict::Unknown { depth: None }
    }

    fn stats(&self) -> Stats {
        vec![
            ("sim_frames", self.stats.frames),
            ("sim_restarts", self.stats.restarts),
            ("sim_retries", self.stats.retries),
            ("sim_longest_run", self.stats.longest),
        ]
    }
}

#[cfg(test)]
mod tests;
