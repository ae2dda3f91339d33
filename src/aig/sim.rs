//! Evaluation of an [`Aig`] in variable (= topological) order: one run on Booleans
//! ([`simulate_frame`]), or 64 runs per machine word ([`WordSim`], the bit-parallel
//! simulator that preprocessing and invariant generation share, any number of words), or
//! `64 N` runs over a compiled gate list ([`WideSim`], for the random-simulation engine,
//! which evaluates the same cones for thousands of frames).

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
    pub fn eval(&mut self, aig: &Aig, mut leaf: impl FnMut(Var, usize) -> u64) {
        let words = self.words;
        for i in 1..aig.num_vars() {
            let v = Var(i as u32);
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

/// The AND gates of the cone of some roots, in variable order: what [`WideSim::eval`] runs.
pub struct Gates(Vec<(Var, Lit, Lit)>);

impl Gates {
    pub fn of(aig: &Aig, roots: impl IntoIterator<Item = Lit>) -> Gates {
        let cone = aig.cone(roots);
        Gates(
            (1..aig.num_vars())
                .filter(|&i| cone[i])
                .filter_map(|i| match aig.node(Var(i as u32)) {
                    Node::And(a, b) => Some((Var(i as u32), a, b)),
                    _ => None,
                })
                .collect(),
        )
    }
}

/// Bit-parallel values of every variable of an AIG, `N` words per variable in one array.
/// Compared with [`WordSim`] it walks a compiled gate list ([`Gates`]) instead of the node
/// table and handles the `N` words of a gate at once (one AVX2 operation for `N = 4`): about
/// three times faster per gate, which is what a simulation engine lives on. The leaves are
/// set by the caller ([`WideSim::set`]).
pub struct WideSim<const N: usize> {
    val: Vec<[u64; N]>,
}

impl<const N: usize> WideSim<N> {
    pub fn new(aig: &Aig) -> WideSim<N> {
        WideSim {
            val: vec![[0; N]; aig.num_vars()],
        }
    }

    /// Sets the words of a leaf.
    pub fn set(&mut self, v: Var, words: [u64; N]) {
        self.val[v.index()] = words;
    }

    /// Evaluates `gates` from the leaves' current words.
    pub fn eval(&mut self, gates: &Gates) {
        let mask = |l: Lit| 0u64.wrapping_sub(l.is_negated() as u64);
        for &(v, a, b) in &gates.0 {
            let (x, y) = (self.val[a.var().index()], self.val[b.var().index()]);
            let (mx, my) = (mask(a), mask(b));
            self.val[v.index()] = std::array::from_fn(|w| (x[w] ^ mx) & (y[w] ^ my));
        }
    }

    /// The words of `l` in the last evaluation.
    pub fn words(&self, l: Lit) -> [u64; N] {
        let m = 0u64.wrapping_sub(l.is_negated() as u64);
        self.val[l.var().index()].map(|x| x ^ m)
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

    #[test]
    fn wide_words_agree_with_word_simulation() {
        let mut aig = Aig::new();
        let leaves: Vec<Var> = (0..3).map(|_| aig.new_leaf()).collect();
        let (x, y, z) = (leaves[0].lit(), leaves[1].lit(), leaves[2].lit());
        let g = aig.and(x, !y);
        let h = aig.and(!g, z);
        let words = |v: Var, w: usize| crate::rng::mix(v.index() as u64 * 7 + w as u64);
        let mut narrow = WordSim::new(&aig, 2);
        narrow.eval(&aig, words);
        let mut wide = WideSim::<2>::new(&aig);
        for &v in &leaves {
            wide.set(v, [words(v, 0), words(v, 1)]);
        }
        wide.eval(&Gates::of(&aig, [h]));
        for l in [g, !g, h, !h] {
            assert_eq!(wide.words(l), [narrow.word(l, 0), narrow.word(l, 1)]);
        }
    }
}
