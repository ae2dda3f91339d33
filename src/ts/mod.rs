//! The bit-level transition system every input format is turned into, and every engine checks.
//!
//! A [`TransitionSystem`] owns one [`Aig`] whose leaves are its inputs and latch outputs.
//! Semantics (AIGER 1.9): a trace of length `k + 1` is an initial state (latches with a
//! constant init take it, uninitialised ones are free) and `k + 1` input vectors; it violates
//! bad property `i` if `bad[i]` holds in frame `k` and every invariant constraint holds in
//! every frame `0..=k`.
//!
//! Layer: bit-level core; imports only [`crate::aig`] and the plumbing.

mod coi;
mod replay;
mod restore;
mod trace;
mod window;

pub use coi::cone_of_influence;
pub use replay::{check_start, replay, simulate, ReplayError, Values};
pub use restore::{Facts, LatchClause, LatchImage, Restore};
pub use trace::Trace;

use crate::aig::{Aig, Lit, Var};

/// The name of the latch added by [`TransitionSystem::constrain_first_frame`].
pub const FIRST_FRAME: &str = "warden.first";

/// A latch: its output variable (a leaf of the AIG), next-state function and initial value.
#[derive(Clone, Debug)]
pub struct Latch {
    pub var: Var,
    pub next: Lit,
    /// `Some(v)`: the latch starts at `v`; `None`: uninitialised (any value at frame 0).
    pub init: Option<bool>,
}

/// Names of inputs, latches and bad properties as the input file gave them (for witnesses and
/// waveforms). Each vector has one entry per element, `None` where the file had no name.
#[derive(Clone, Debug, Default)]
pub struct Names {
    pub inputs: Vec<Option<String>>,
    pub latches: Vec<Option<String>>,
    pub bad: Vec<Option<String>>,
}

/// A sequential circuit with safety and liveness properties (the latter: [`crate::live`]).
#[derive(Clone, Debug, Default)]
pub struct TransitionSystem {
    pub aig: Aig,
    pub inputs: Vec<Var>,
    pub latches: Vec<Latch>,
    /// Invariant constraints: every one must hold in every frame of a trace.
    pub constraints: Vec<Lit>,
    /// Bad-state properties: reaching any of them is a violation.
    pub bad: Vec<Lit>,
    /// Justice properties (sets of literals that must all be infinitely often true).
    pub justice: Vec<Vec<Lit>>,
    /// Global fairness constraints for the justice properties.
    pub fairness: Vec<Lit>,
    /// Word-level atoms over the latches: comparisons of bit-vector states such as
    /// `count < 5` or `x == y`, from a BTOR2 model or a C program's conditions. A bit-level
    /// system has lost which bits form a word; these literals keep the comparisons the model
    /// was written in, as candidate predicates for predicate abstraction. Hints only: no
    /// verdict depends on them, and a pass that cannot map one may drop it.
    pub atoms: Vec<Lit>,
    pub names: Names,
}

impl TransitionSystem {
    /// Adds a fresh input and returns its variable.
    pub fn add_input(&mut self, name: Option<String>) -> Var {
        let v = self.aig.new_leaf();
        self.inputs.push(v);
        self.names.inputs.push(name);
        v
    }

    /// Adds a fresh latch whose next-state function is set later with [`Self::set_next`].
    pub fn add_latch(&mut self, init: Option<bool>, name: Option<String>) -> Var {
        let v = self.aig.new_leaf();
        self.latches.push(Latch {
            var: v,
            next: Lit::FALSE,
            init,
        });
        self.names.latches.push(name);
        v
    }

    pub fn set_next(&mut self, latch: usize, next: Lit) {
        self.latches[latch].next = next;
    }

    /// Constrains frame 0 alone: appends a "first frame" latch `warden.first` (reset 1,
    /// next 0) and, for each of `holds`, the invariant constraint `first -> holds`, before the
    /// constraints already there. How the front ends give initial states that no constant
    /// reset can describe (AIGER reset functions, BTOR2 `init` terms) their meaning in every
    /// engine: constraints hold in every frame, and the latches' frame-0 values, which
    /// witnesses print, are then exactly the initial values. Returns the latch's index.
    pub fn constrain_first_frame(&mut self, holds: &[Lit]) -> usize {
        let first = self.add_latch(Some(true), Some(FIRST_FRAME.into())).lit();
        let index = self.latches.len() - 1;
        let guarded: Vec<Lit> = holds.iter().map(|&h| self.aig.or(!first, h)).collect();
        self.constraints.splice(0..0, guarded);
        index
    }

    /// Position of each leaf: `Some(Leaf::Input(i))` or `Some(Leaf::Latch(i))` per variable.
    pub fn leaf_kinds(&self) -> Vec<Option<Leaf>> {
        let mut kinds = vec![None; self.aig.num_vars()];
        for (i, &v) in self.inputs.iter().enumerate() {
            kinds[v.index()] = Some(Leaf::Input(i));
        }
        for (i, l) in self.latches.iter().enumerate() {
            kinds[l.var.index()] = Some(Leaf::Latch(i));
        }
        kinds
    }

    /// This system without its properties (bad states, justice, fairness), its invariant
    /// constraints kept: the base of each system that checks one property.
    pub fn without_properties(&self) -> TransitionSystem {
        let mut out = self.clone();
        out.bad.clear();
        out.names.bad.clear();
        out.justice.clear();
        out.fairness.clear();
        out
    }

    /// This system with bad-state property `bad` as its only property (its name kept): the
    /// system in which a per-property run checks that one property. A trace of it is a
    /// trace of `self` once its property index is set back to `bad`.
    pub fn with_only_bad(&self, bad: usize) -> TransitionSystem {
        let mut out = self.without_properties();
        out.bad.push(self.bad[bad]);
        out.names
            .bad
            .push(self.names.bad.get(bad).cloned().flatten());
        out
    }

    /// Whether the system has justice properties (checked by [`crate::live`], not by the
    /// safety engines directly).
    pub fn has_liveness(&self) -> bool {
        !self.justice.is_empty()
    }
}

/// What a leaf variable of a transition system's AIG is.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Leaf {
    Input(usize),
    Latch(usize),
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A `width`-bit counter that increments when its enable input is high (or always when
    /// `enable` is false); bad when it equals `target`.
    pub fn counter(width: usize, target: u64, enable: bool) -> TransitionSystem {
        let mut ts = TransitionSystem::default();
        let en = if enable {
            ts.add_input(Some("en".into())).lit()
        } else {
            Lit::TRUE
        };
        let bits: Vec<Lit> = (0..width)
            .map(|i| ts.add_latch(Some(false), Some(format!("c[{i}]"))).lit())
            .collect();
        let mut carry = en;
        for (i, &b) in bits.iter().enumerate() {
            let next = ts.aig.xor(b, carry);
            carry = ts.aig.and(b, carry);
            ts.set_next(i, next);
        }
        let eq: Vec<Lit> = bits
            .iter()
            .enumerate()
            .map(|(i, &b)| b.xor_sign(target >> i & 1 == 0))
            .collect();
        let bad = ts.aig.and_all(eq);
        ts.bad.push(bad);
        ts.names.bad.push(None);
        ts
    }

    /// `ok` toggles; `stuck` starts low and stays low (its next is `stuck and f`, where `f` is
    /// driven by a `width`-bit counter); bad = `ok and stuck`. Safe, and only `stuck` matters:
    /// the counter's latches are in the cone of influence but irrelevant to the proof.
    pub fn irrelevant_counter(width: usize) -> TransitionSystem {
        let mut ts = counter(width, (1 << width) - 1, true);
        ts.bad.clear();
        ts.names.bad.clear();
        let ok = ts.add_latch(Some(false), Some("ok".into())).lit();
        let stuck = ts.add_latch(Some(false), Some("stuck".into())).lit();
        let bits: Vec<Lit> = (0..width).map(|i| ts.latches[i].var.lit()).collect();
        let f = ts.aig.and_all(bits);
        let n = ts.latches.len();
        ts.set_next(n - 2, !ok);
        let stuck_next = ts.aig.and(stuck, f);
        ts.set_next(n - 1, stuck_next);
        let bad = ts.aig.and(ok, stuck);
        ts.bad.push(bad);
        ts.names.bad.push(None);
        ts
    }
}
