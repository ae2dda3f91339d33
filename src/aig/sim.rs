//! Evaluation of an [`Aig`] in variable (= topological) order: one run on Booleans
//! ([`simulate_frame`]), or 64 runs per machine word ([`WordSim`]), the one bit-parallel
//! simulator that preprocessing and invariant generation share.

use super::{Aig, Lit, Node, Var};

/// Values of every variable of `aig`, given the value of each leaf.
pub fn simulate_frame(aig: &Aig, mut leaf: impl FnMut(Var) -> bool) -> Vec<bool> {
    let mut val = vec![false; aig.num_vars()];
    for i in 1..aig.num_vars() {
        let v = Var(i as u32);
        val[i] = match aig.node(v) {
            Node::False => false,
            Node::Leaf => leaf(v),
            Node::And(a, b) => {
                (val[a.var().index()] ^ a.is_negated()) && (val[b.var().index()] ^ b.is_negated())
            }
        };
    }
    val
}

/// Bit-parallel values of every variable of an AIG: `words` machine words per variable, each
/// bit one independent run.
pub struct WordSim {
    words: usize,
    /// `val[v * words + w]`: word `w` of variable `v` in the last evaluation.
    val: Vec<u64>,
}

impl WordSim {
    pub fn new(aig: &Aig, words: usize) -> WordSim {
        WordSim {
            words,
            val: vec![0; aig.num_vars() * words],
        }
    }

    pub fn words(&self) -> usize {
        self.words
    }

    /// Evaluates every variable of `aig` (the one given to [`WordSim::new`]); `leaf(v, w)` is
    /// word `w` of leaf `v`, asked for in variable order, word by word.
    pub fn eval(&mut self, aig: &Aig, leaf: impl FnMut(Var, usize) -> u64) {
        self.eval_vars(aig, (1..aig.num_vars()).map(|i| Var(i as u32)), leaf);
    }

    /// Evaluates only `vars`, which must come in variable order and hold the fan-in of each
    /// of their gates (a cone, [`Aig::cone`]); the other variables keep their values.
    pub fn eval_vars(
        &mut self,
        aig: &Aig,
        vars: impl IntoIterator<Item = Var>,
        mut leaf: impl FnMut(Var, usize) -> u64,
    ) {
        let words = self.words;
        for v in vars {
            let i = v.index();
            let node = aig.node(v);
            for w in 0..words {
                self.val[i * words + w] = match node {
                    Node::False => 0,
                    Node::Leaf => leaf(v, w),
                    Node::And(a, b) => self.word(a, w) & self.word(b, w),
                };
            }
        }
    }

    /// Word `w` of `l` in the last evaluation.
    pub fn word(&self, l: Lit, w: usize) -> u64 {
        self.val[l.var().index() * self.words + w] ^ 0u64.wrapping_sub(l.is_negated() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_agree_with_boolean_simulation_run_by_run() {
        let mut aig = Aig::new();
        let (x, y, z) = (
            aig.new_leaf().lit(),
            aig.new_leaf().lit(),
            aig.new_leaf().lit(),
        );
        let g = aig.and(x, !y);
        let h = aig.and(!g, z);
        let leaves = [0u64, 0xf0f0, 0xff00, 0xaaaa];
        let mut sim = WordSim::new(&aig, 1);
        sim.eval(&aig, |v, _| leaves[v.index()]);
        for run in 0..16 {
            let bools = simulate_frame(&aig, |v| leaves[v.index()] >> run & 1 == 1);
            for l in [g, !g, h, !h] {
                let b = bools[l.var().index()] ^ l.is_negated();
                assert_eq!(sim.word(l, 0) >> run & 1 == 1, b);
            }
        }
    }
}
