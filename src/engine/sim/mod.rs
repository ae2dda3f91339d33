//! Random simulation with weighted input phases: a cheap search for deep counterexamples.
//!
//! BMC pays for every frame below a bug, and one SAT query at the bug's depth is often hard;
//! but a bug that a long, *likely* run reaches (fill a FIFO of 128 entries, then drain it:
//! the mann data-integrity designs of HWMCC) is found by a simulation that happens to push
//! 128 times in a row, in microseconds per frame. Uniform random inputs rarely do that
//! (pushes and pops cancel out in a random walk), so every run (one bit of a machine word,
//! 64 runs per word, [`WideSim`]) draws each input from a *weight* that it keeps for a phase:
//! mostly 0 (1/16), fair, mostly 1 (15/16), or sticky (the input keeps its last value). Runs
//! redraw their weights now and then, at rates that differ from word to word, so phases of
//! many lengths occur; a run restarts from a fresh initial state (uninitialised latches
//! random) after at most `HISTORY` frames, the frames its trace can be rebuilt from, and
//! at random before. ABC's `sim3` and rIC3's random simulation are the same idea;
//! the weighted phases are what makes long monotone runs likely.
//!
//! Invariant constraints (HWMCC designs use them to forbid inputs: no pop from an empty FIFO,
//! reset only in the first frame): a run whose inputs break a constraint first flips the
//! inputs that constraint reads (which repairs a constraint on one input at once), then
//! draws them again, fair, up to `RETRIES` tries in all, leaving the other inputs to their
//! phase; a run that still breaks one restarts. A trace only has frames in which every
//! constraint held, so it is a trace of the system as AIGER 1.9 defines it; like every
//! engine's, it is replayed by the caller before it is printed.
//!
//! Finds bugs only: it never claims a bound (`unknown` without a depth).

use super::{Engine, Stats, Verdict};
use crate::aig::{Gates, WideSim};
use crate::rng::Rng;
use crate::ts::{Trace, TransitionSystem};
use crate::Budget;

/// Frames kept per run, at most: the longest trace the engine can report.
const HISTORY: usize = 2048;
/// Memory for the input history, at most: fewer frames are kept on systems with many inputs.
const HISTORY_BYTES: usize = 64 << 20;
/// Machine words per signal (64 runs each).
const WORDS: usize = 4;
/// Tries to repair the inputs of the runs that break a constraint, before they restart.
const RETRIES: usize = 4;

/// One signal's value in every run.
type Words = [u64; WORDS];

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
    sim: WideSim<WORDS>,
    /// The gates of the properties, constraints and next-state functions.
    frame: Gates,
    /// The gates of the constraints alone: what a repaired frame evaluates again.
    constraint_gates: Gates,
    /// The inputs each invariant constraint reads.
    support: Vec<Vec<usize>>,
    /// Per latch, the current state.
    state: Vec<Words>,
    /// Per latch, the state each run started from (its trace's initial state).
    init: Vec<Words>,
    /// Per input, its value in the current frame.
    inputs: Vec<Words>,
    /// Per input, the weight class of each run, two bits: `(lo, hi)` = (0,0) mostly 0,
    /// (1,0) fair, (0,1) mostly 1, (1,1) sticky.
    weight_lo: Vec<Words>,
    weight_hi: Vec<Words>,
    /// The inputs of the last `frames` frames, frame `t` at `(t % frames) * inputs.len()`.
    history: Vec<Words>,
    frames: usize,
    /// The frame (of the whole search) at which each run started, word by word.
    start: Vec<[u64; 64]>,
}

impl<'a> Runs<'a> {
    fn new(ts: &'a TransitionSystem, rng: &mut Rng) -> Runs<'a> {
        let width = ts.inputs.len();
        let frame_bytes = std::mem::size_of::<Words>() * width.max(1);
        let frames = (HISTORY_BYTES / frame_bytes).clamp(1, HISTORY);
        let roots = (ts.bad.iter().chain(&ts.constraints).copied())
            .chain(ts.latches.iter().map(|l| l.next));
        let mut runs = Runs {
            ts,
            sim: WideSim::new(&ts.aig),
            frame: Gates::of(&ts.aig, roots),
            constraint_gates: Gates::of(&ts.aig, ts.constraints.iter().copied()),
            support: (ts.constraints.iter())
                .map(|&c| {
                    let cone = ts.aig.cone([c]);
                    (ts.inputs.iter().enumerate())
                        .filter(|(_, v)| cone[v.index()])
                        .map(|(k, _)| k)
                        .collect()
                })
                .collect(),
            state: vec![[0; WORDS]; ts.latches.len()],
            init: vec![[0; WORDS]; ts.latches.len()],
            inputs: vec![[0; WORDS]; width],
            weight_lo: vec![[0; WORDS]; width],
            weight_hi: vec![[0; WORDS]; width],
            history: vec![[0; WORDS]; frames * width],
            frames,
            start: vec![[0; 64]; WORDS],
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
            self.state[i][w] = blend(self.state[i][w], value, mask);
            self.init[i][w] = blend(self.init[i][w], value, mask);
        }
        for bit in (0..64).filter(|bit| mask >> bit & 1 == 1) {
            self.start[w][bit] = now;
        }
    }

    /// New weights for the runs of word `w` under `mask`.
    fn reweigh(&mut self, w: usize, mask: u64, rng: &mut Rng) {
        for k in 0..self.ts.inputs.len() {
            self.weight_lo[k][w] = blend(self.weight_lo[k][w], rng.next_u64(), mask);
            self.weight_hi[k][w] = blend(self.weight_hi[k][w], rng.next_u64(), mask);
        }
    }

    /// Draws the inputs of every run from its weights.
    fn draw(&mut self, rng: &mut Rng) {
        for k in 0..self.ts.inputs.len() {
            for w in 0..WORDS {
                let (lo, hi) = (self.weight_lo[k][w], self.weight_hi[k][w]);
                let (mostly0, fair, mostly1) = (rare(rng, 4), rng.next_u64(), !rare(rng, 4));
                let last = self.inputs[k][w];
                self.inputs[k][w] =
                    mostly0 & !lo & !hi | fair & lo & !hi | mostly1 & !lo & hi | last & lo & hi;
            }
        }
    }

    /// Changes the inputs of the runs that break a constraint in the last evaluation: those
    /// inputs that a broken constraint reads, flipped (`flip`) or drawn again.
    fn repair(&mut self, flip: bool, rng: &mut Rng) {
        let mut masks = vec![[0u64; WORDS]; self.ts.inputs.len()];
        for (&c, support) in self.ts.constraints.iter().zip(&self.support) {
            let broken = self.sim.words(!c);
            if broken.iter().any(|&b| b != 0) {
                for &k in support {
                    masks[k] = std::array::from_fn(|w| masks[k][w] | broken[w]);
                }
            }
        }
        for (k, mask) in masks.iter().enumerate() {
            for w in (0..WORDS).filter(|&w| mask[w] != 0) {
                let old = self.inputs[k][w];
                let new = if flip { !old } else { rng.next_u64() };
                self.inputs[k][w] = blend(old, new, mask[w]);
            }
        }
    }

    /// Evaluates the current frame: the constraints' gates alone (`constraints_only`) or the
    /// whole frame.
    fn eval(&mut self, constraints_only: bool) {
        for (l, words) in self.ts.latches.iter().zip(&self.state) {
            self.sim.set(l.var, *words);
        }
        for (&v, words) in self.ts.inputs.iter().zip(&self.inputs) {
            self.sim.set(v, *words);
        }
        self.sim.eval(match constraints_only {
            true => &self.constraint_gates,
            false => &self.frame,
        });
    }

    /// The runs that keep every constraint, in the last evaluation.
    fn kept(&self) -> Words {
        (self.ts.constraints.iter()).fold([!0; WORDS], |a, &c| {
            let c = self.sim.words(c);
            std::array::from_fn(|w| a[w] & c[w])
        })
    }

    /// The runs in a bad state, in the last evaluation.
    fn bad(&self) -> Words {
        (self.ts.bad.iter()).fold([0; WORDS], |a, &b| {
            let b = self.sim.words(b);
            std::array::from_fn(|w| a[w] | b[w])
        })
    }

    /// The trace of run `bit` of word `w`, in a bad state at frame `now` of the search.
    fn trace(&self, w: usize, bit: usize, now: u64) -> Trace {
        let value = |words: &Words| words[w] >> bit & 1 == 1;
        let width = self.inputs.len();
        let inputs = (self.start[w][bit]..=now)
            .map(|t| {
                let base = (t as usize % self.frames) * width;
                self.history[base..base + width].iter().map(value).collect()
            })
            .collect();
        let bad = (self.ts.bad.iter())
            .position(|&b| value(&self.sim.words(b)))
            .expect("a run in a bad state is in one of the bad states");
        Trace {
            init: self.init.iter().map(value).collect(),
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
            runs.draw(rng);
            // The constraints' cone alone until the inputs keep them (or the tries run out),
            // then the whole frame once.
            runs.eval(true);
            let mut ok = runs.kept();
            for retry in 0..RETRIES {
                if ok.iter().all(|&k| k == !0) {
                    break;
                }
                self.stats.retries += 1;
                runs.repair(retry == 0, rng);
                runs.eval(true);
                ok = runs.kept();
            }
            runs.eval(false);
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
            runs.state = (ts.latches.iter())
                .map(|l| runs.sim.words(l.next))
                .collect();
            now += 1;
            for (w, &ok) in ok.iter().enumerate() {
                // Runs that broke a constraint, ran out of history, or (rarely) by chance.
                let full = (0..64).fold(0u64, |m, bit| {
                    let age = now - runs.start[w][bit];
                    m | ((age as usize >= runs.frames) as u64) << bit
                });
                let done = !ok | full | rare(rng, 11);
                if done != 0 {
                    self.stats.restarts += done.count_ones() as u64;
                    for bit in (0..64).filter(|bit| done >> bit & 1 == 1) {
                        let age = now - runs.start[w][bit];
                        self.stats.longest = self.stats.longest.max(age);
                    }
                    runs.restart(w, done, now, rng);
                }
                // Phases of mean length 8, 32, 128 and 512 frames, by word.
                let change = rare(rng, 3 + 2 * w as u32) | done;
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
