//! Cubes over latch literals (and state signals, `--ic3-inn`), and the questions IC3
//! answers about them without a solver.

use crate::aig::{Lit, Var};
use crate::ts::TransitionSystem;

/// A conjunction of latch literals (AIG literals of latch variables; with `--ic3-inn` also
/// of the state signals of [`super::internal`]), sorted when stored. A lemma is the clause
/// that excludes a cube.
pub type Cube = Vec<Lit>;

/// A 64-bit summary of `cube`'s literals (one bit per literal, hashed): `a` can only be part
/// of `b` when `signature(a) & !signature(b) == 0`. IC3 checks every new lemma against all
/// stored ones for subsumption; on `shift_register_top_w8_d32` (8,000 lemmas) the literal
/// scans of those checks took 7 % of the run.
pub(super) fn signature(cube: &[Lit]) -> u64 {
    (cube.iter()).fold(0, |sig, l| {
        sig | 1 << (u64::from(l.0).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58)
    })
}

/// Whether every literal of `a` is in `b` (both sorted): then `a`'s clause implies `b`'s.
pub(super) fn subsumes(a: &[Lit], b: &[Lit]) -> bool {
    if a.len() > b.len() {
        return false;
    }
    let mut rest = b.iter();
    a.iter().all(|x| rest.by_ref().any(|y| y == x))
}

/// The clause that excludes `cube`.
pub(super) fn clause(cube: &[Lit]) -> Vec<Lit> {
    cube.iter().map(|&l| !l).collect()
}

/// The reset value of each latch and the initial value of each state signal, by AIG variable.
pub(super) struct Init {
    /// `Some(reset)` for a latch (`reset` is `None` when uninitialised) or a state signal
    /// (always `Some`), `None` elsewhere.
    reset: Vec<Option<Option<bool>>>,
    latch: Vec<bool>,
}

impl Init {
    /// The latches of `ts`, and `signals` with their initial values.
    pub(super) fn new(ts: &TransitionSystem, signals: &[(Var, bool)]) -> Init {
        let mut reset = vec![None; ts.aig.num_vars()];
        let mut latch = vec![false; ts.aig.num_vars()];
        for l in &ts.latches {
            reset[l.var.index()] = Some(l.init);
            latch[l.var.index()] = true;
        }
        for &(v, init) in signals {
            reset[v.index()] = Some(Some(init));
        }
        Init { reset, latch }
    }

    /// Whether `l` is a literal of a latch.
    pub(super) fn is_latch(&self, l: Lit) -> bool {
        self.latch.get(l.var().index()).is_some_and(|&b| b)
    }

    /// Whether `cube` contains no initial state: some literal is false under its latch's reset
    /// value (or its signal's initial value). Uninitialised latches take every value
    /// initially, so they never exclude one.
    pub(super) fn excludes(&self, cube: &[Lit]) -> bool {
        self.excluding(cube).is_some()
    }

    /// The first literal of `cube` that excludes the initial states, if any.
    pub(super) fn excluding(&self, cube: &[Lit]) -> Option<Lit> {
        cube.iter()
            .copied()
            .find(|l| self.reset[l.var().index()] == Some(Some(l.is_negated())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsumption_is_sorted_inclusion() {
        let (a, b, c) = (Lit(2), Lit(5), Lit(8));
        assert!(subsumes(&[a, c], &[a, b, c]));
        assert!(subsumes(&[], &[a]));
        assert!(!subsumes(&[a, b], &[a, c]));
        assert!(!subsumes(&[a, b, c], &[a, c]));
    }
}
