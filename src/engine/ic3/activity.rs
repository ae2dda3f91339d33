//! Latch activity: how often a latch occurred in recent lemmas, the order MIC drops in.
//!
//! Dropping the least active literals first steers generalisation towards the latches the
//! proof already talks about, which makes lemmas share literals and propagate together
//! (Eén, Mishchenko, Brayton; IC3ref's `litOrder`). Scores decay geometrically, as in VSIDS,
//! by growing the increment instead of shrinking every score.

use crate::aig::Lit;

pub(super) struct Activity {
    score: Vec<f64>,
    inc: f64,
}

const DECAY: f64 = 0.99;

impl Activity {
    /// Scores for AIG variables `0..num_vars`, all zero.
    pub(super) fn new(num_vars: usize) -> Activity {
        Activity {
            score: vec![0.0; num_vars],
            inc: 1.0,
        }
    }

    /// Credits the latches of a new lemma.
    pub(super) fn bump(&mut self, cube: &[Lit]) {
        for l in cube {
            self.score[l.var().index()] += self.inc;
        }
        self.inc /= DECAY;
        if self.inc > 1e100 {
            self.score.iter_mut().for_each(|s| *s *= 1e-100);
            self.inc *= 1e-100;
        }
    }

    /// Sorts `cube` least active first (stable, so ties keep their order).
    pub(super) fn sort_ascending(&self, cube: &mut [Lit]) {
        cube.sort_by(|a, b| self.of(*a).total_cmp(&self.of(*b)));
    }

    /// Sorts `cube` most active first.
    pub(super) fn sort_descending(&self, cube: &mut [Lit]) {
        cube.sort_by(|a, b| self.of(*b).total_cmp(&self.of(*a)));
    }

    fn of(&self, l: Lit) -> f64 {
        self.score[l.var().index()]
    }
}
