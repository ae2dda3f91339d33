//! Maps results of a reduced transition system back to the system it was derived from.

use super::{Trace, TransitionSystem};
use crate::aig::{Aig, Lit, Node, Var};

/// A clause over the latches of a system by index: (latch index, negated). Unlike a clause
/// of AIG literals it survives the renumbering of a reduction, so lemmas can be carried from
/// one reduced system to another reduction of a related system (k-liveness).
pub type LatchClause = Vec<(usize, bool)>;

/// What became of one latch of the original system.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum LatchImage {
    /// It is reduced latch `j`.
    Kept(usize),
    /// It is proved to hold this value in every reachable state.
    Constant(bool),
    /// It is proved equal to reduced latch `j`, negated when the flag is set.
    Equivalent(usize, bool),
    /// It cannot affect any property or constraint of the reduced system.
    Dropped,
}

/// How the inputs, latches and properties of a reduced system correspond to the original's,
/// and what the reductions proved about the original.
///
/// Reductions keep, drop, fix or merge elements, so each reduced element names its original
/// index and each original latch has a [`LatchImage`]. A dropped input takes 0 in a lifted
/// trace; a dropped latch takes its reset value (0 when uninitialised): it lies outside the
/// cone, or it was merged into a latch outside the cone, and then both were proved equal in
/// every initial state, so their reset values agree.
///
/// Invariants need more than the latch images: merging relies on proved equivalences of
/// internal signals too, and an equivalence stays needed after its latches leave the cone.
/// So every proved fact is kept in [`Facts`], over the original latches.
#[derive(Clone, Debug)]
pub struct Restore {
    inputs: Vec<usize>,
    latches: Vec<usize>,
    images: Vec<LatchImage>,
    bad: Vec<usize>,
    original_inputs: usize,
    original_init: Vec<Option<bool>>,
    facts: Facts,
}

impl Restore {
    /// The restore map of a system that keeps everything of `ts`.
    pub fn identity(ts: &TransitionSystem) -> Restore {
        let all = |n: usize| (0..n).collect();
        Restore::new(
            ts,
            all(ts.inputs.len()),
            all(ts.latches.len()),
            all(ts.bad.len()),
        )
    }

    /// A restore map from explicit index maps (reduced index -> original index); the latches
    /// not listed are dropped.
    pub fn new(
        original: &TransitionSystem,
        inputs: Vec<usize>,
        latches: Vec<usize>,
        bad: Vec<usize>,
    ) -> Restore {
        let mut images = vec![LatchImage::Dropped; original.latches.len()];
        for (j, &i) in latches.iter().enumerate() {
            images[i] = LatchImage::Kept(j);
        }
        Restore {
            inputs,
            latches,
            images,
            bad,
            original_inputs: original.inputs.len(),
            original_init: original.latches.iter().map(|l| l.init).collect(),
            facts: Facts::new(original.latches.len()),
        }
    }

    /// The restore map of a reduction that keeps every input and property and replaces
    /// latches by constants or other latches, justified by `facts`. The reduced latches are
    /// the `Kept` ones, numbered in the original order.
    pub fn merged(original: &TransitionSystem, images: Vec<LatchImage>, facts: Facts) -> Restore {
        let latches = (0..images.len())
            .filter(|&i| matches!(images[i], LatchImage::Kept(_)))
            .collect();
        Restore {
            images,
            facts,
            latches,
            ..Restore::identity(original)
        }
    }

    /// The original index of reduced input `i`.
    pub fn input(&self, i: usize) -> usize {
        self.inputs[i]
    }

    /// The original index of reduced latch `i`.
    pub fn latch(&self, i: usize) -> usize {
        self.latches[i]
    }

    /// What became of original latch `i`.
    pub fn image(&self, i: usize) -> LatchImage {
        self.images[i]
    }

    /// The word-level atoms of `original` as literals of `reduced` (the system this map
    /// restores from), each latch replaced by its image. Atoms over a dropped latch leave the
    /// cone of every property and are dropped, as are those that become constant.
    pub fn atoms(&self, original: &TransitionSystem, reduced: &mut TransitionSystem) -> Vec<Lit> {
        let aig = &original.aig;
        let mut map: Vec<Option<Lit>> = vec![None; aig.num_vars()];
        for (latch, image) in original.latches.iter().zip(&self.images) {
            map[latch.var.index()] = match *image {
                LatchImage::Kept(j) => Some(reduced.latches[j].var.lit()),
                LatchImage::Constant(v) => Some(Lit::FALSE.xor_sign(v)),
                LatchImage::Equivalent(j, negated) => {
                    Some(reduced.latches[j].var.lit().xor_sign(negated))
                }
                LatchImage::Dropped => None,
            };
        }
        // Variables come after their fan-ins, so one pass finds the cones with every leaf mapped.
        let mut mapped = vec![false; aig.num_vars()];
        for v in 0..aig.num_vars() {
            mapped[v] = match aig.node(Var(v as u32)) {
                Node::False => true,
                Node::Leaf => map[v].is_some(),
                Node::And(a, b) => mapped[a.var().index()] && mapped[b.var().index()],
            };
        }
        let roots: Vec<Lit> = original
            .atoms
            .iter()
            .copied()
            .filter(|a| mapped[a.var().index()])
            .collect();
        let mut atoms: Vec<Lit> = aig
            .copy_cone(&mut reduced.aig, &mut map, &roots)
            .into_iter()
            .filter(|a| !a.is_const())
            .collect();
        atoms.sort_unstable();
        atoms.dedup();
        atoms
    }

    /// Clauses over latch literals of `reduced` (the system this map restores from) as
    /// clauses over the original latches; a clause naming anything but latches is left out.
    pub fn lift_clauses(
        &self,
        reduced: &TransitionSystem,
        clauses: &[Vec<Lit>],
    ) -> Vec<LatchClause> {
        let mut latch_of = vec![None; reduced.aig.num_vars()];
        for (j, l) in reduced.latches.iter().enumerate() {
            latch_of[l.var.index()] = Some(self.latches[j]);
        }
        (clauses.iter())
            .filter_map(|c| {
                c.iter()
                    .map(|l| Some((latch_of.get(l.var().index()).copied()??, l.is_negated())))
                    .collect()
            })
            .collect()
    }

    /// Clause `clause` over the original latches as a clause over the latches of `reduced`,
    /// each latch replaced by its image: a literal made false by a constant latch is left
    /// out, and `None` means the clause holds anyway (a constant latch makes it true) or
    /// cannot be said of `reduced` (a dropped latch, or every literal left out).
    pub fn lower_clause(
        &self,
        reduced: &TransitionSystem,
        clause: &[(usize, bool)],
    ) -> Option<Vec<Lit>> {
        let mut out = Vec::with_capacity(clause.len());
        for &(i, negated) in clause {
            let (j, flip) = match self.images[i] {
                LatchImage::Kept(j) => (j, false),
                LatchImage::Equivalent(j, flip) => (j, flip),
                LatchImage::Constant(value) if value != negated => return None,
                LatchImage::Constant(_) => continue,
                LatchImage::Dropped => return None,
            };
            out.push(reduced.latches[j].var.lit().xor_sign(negated ^ flip));
        }
        (!out.is_empty()).then_some(out)
    }

    /// The facts the reductions proved about the original system.
    pub fn facts(&self) -> &Facts {
        &self.facts
    }

    /// Lifts a trace of the reduced system to the original one.
    pub fn trace(&self, t: &Trace) -> Trace {
        let init = self
            .images
            .iter()
            .zip(&self.original_init)
            .map(|(image, reset)| match *image {
                LatchImage::Kept(j) => t.init[j],
                LatchImage::Constant(v) => v,
                LatchImage::Equivalent(j, negated) => t.init[j] ^ negated,
                LatchImage::Dropped => reset.unwrap_or(false),
            })
            .collect();
        let inputs = t
            .inputs
            .iter()
            .map(|row| {
                let mut full = vec![false; self.original_inputs];
                for (i, &v) in row.iter().enumerate() {
                    full[self.inputs[i]] = v;
                }
                full
            })
            .collect();
        Trace {
            init,
            inputs,
            bad: self.bad[t.bad],
        }
    }

    /// The trace of the reduced system that `t`, a trace of the original system, projects
    /// to: the kept latches' initial values and the kept inputs, reaching the reduced
    /// property that is `t`'s (`None` when the reduction dropped it). On a run of the original
    /// system the reductions' facts hold, so the projection is a run of the reduced system;
    /// callers replay it there all the same.
    pub fn lower_trace(&self, t: &Trace) -> Option<Trace> {
        Some(Trace {
            init: self.latches.iter().map(|&i| t.init[i]).collect(),
            inputs: (t.inputs.iter())
                .map(|row| self.inputs.iter().map(|&i| row[i]).collect())
                .collect(),
            bad: self.bad.iter().position(|&b| b == t.bad)?,
        })
    }

    /// The composition: `self` maps a middle system to the original, `inner` maps the reduced
    /// system to the middle one; the result maps the reduced system to the original.
    pub fn then(&self, inner: &Restore) -> Restore {
        let images = self
            .images
            .iter()
            .map(|&image| match image {
                LatchImage::Kept(m) => inner.images[m],
                LatchImage::Equivalent(m, negated) => match inner.images[m] {
                    LatchImage::Kept(j) => LatchImage::Equivalent(j, negated),
                    LatchImage::Constant(v) => LatchImage::Constant(v ^ negated),
                    LatchImage::Equivalent(j, n) => LatchImage::Equivalent(j, n ^ negated),
                    LatchImage::Dropped => LatchImage::Dropped,
                },
                LatchImage::Constant(_) | LatchImage::Dropped => image,
            })
            .collect();
        let mut facts = self.facts.clone();
        let middle: Vec<Lit> = self.latches.iter().map(|&i| facts.latch(i)).collect();
        let inner_facts = inner.facts.copy_into(&mut facts.aig, &middle);
        facts.lits.extend(inner_facts);
        facts.depth = facts.depth.max(inner.facts.depth);
        Restore {
            inputs: inner.inputs.iter().map(|&i| self.inputs[i]).collect(),
            latches: inner.latches.iter().map(|&i| self.latches[i]).collect(),
            images,
            bad: inner.bad.iter().map(|&i| self.bad[i]).collect(),
            original_inputs: self.original_inputs,
            original_init: self.original_init.clone(),
            facts,
        }
    }
}

/// Proved facts about a system: combinational functions of its latches that hold in every
/// reachable state and that are `depth`-inductive together (under the constraints): they
/// hold in the first `depth` frames of every path from an initial state, and in the next
/// frame of every path where they hold in `depth` consecutive frames.
///
/// They are what makes a reduced system's invariant valid for the original: the reduced
/// system behaves like the original exactly in the states where the facts hold. Facts
/// proved by a deeper induction are not inductive on their own, so their part of a lifted
/// invariant remembers the last `depth - 1` steps ([`Facts::window`]).
#[derive(Clone, Debug)]
pub struct Facts {
    /// Leaf `i + 1` stands for latch `i`.
    aig: Aig,
    lits: Vec<Lit>,
    depth: usize,
}

impl Facts {
    /// No facts yet, about a system with `latches` latches.
    pub fn new(latches: usize) -> Facts {
        let mut aig = Aig::new();
        for _ in 0..latches {
            aig.new_leaf();
        }
        Facts {
            aig,
            lits: Vec::new(),
            depth: 1,
        }
    }

    /// Records that the facts were proved by a `depth`-step induction.
    pub fn set_depth(&mut self, depth: usize) {
        self.depth = self.depth.max(depth);
    }

    /// The depth of the induction that proved the facts.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The literal standing for latch `i`.
    fn latch(&self, i: usize) -> Lit {
        crate::aig::Var(i as u32 + 1).lit()
    }

    /// Adds the facts `a == b` for each pair, where `a` and `b` are literals of `ts.aig` that
    /// depend on latches only.
    pub fn add_equalities(&mut self, ts: &TransitionSystem, pairs: &[(Lit, Lit)]) {
        let mut map = vec![None; ts.aig.num_vars()];
        for (i, l) in ts.latches.iter().enumerate() {
            map[l.var.index()] = Some(self.latch(i));
        }
        let roots: Vec<Lit> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
        let images = ts.aig.copy_cone(&mut self.aig, &mut map, &roots);
        for ab in images.chunks(2) {
            let differ = self.aig.xor(ab[0], ab[1]);
            self.lits.push(!differ);
        }
    }

    /// The facts as literals of `dst`, where latch `i` is `latches[i]`.
    pub fn copy_into(&self, dst: &mut Aig, latches: &[Lit]) -> Vec<Lit> {
        let mut map = vec![None; self.aig.num_vars()];
        for (i, &l) in latches.iter().enumerate() {
            map[self.latch(i).var().index()] = Some(l);
        }
        self.aig.copy_cone(dst, &mut map, &self.lits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aig::simulate_frame;

    /// A system with latches `a`, `b`, `c` (resets 0, 1, uninitialised) and one input.
    fn three_latches() -> TransitionSystem {
        let mut ts = TransitionSystem::default();
        ts.add_input(None);
        for init in [Some(false), Some(true), None] {
            ts.add_latch(init, None);
        }
        ts.bad.push(Lit::FALSE);
        ts
    }

    #[test]
    fn clauses_cross_a_reduction_by_latch_index() {
        let ts = three_latches();
        // a is constant 0, b is kept as latch 0, c is !b.
        let restore = Restore::merged(
            &ts,
            vec![
                LatchImage::Constant(false),
                LatchImage::Kept(0),
                LatchImage::Equivalent(0, true),
            ],
            Facts::new(3),
        );
        let mut reduced = TransitionSystem::default();
        let input = reduced.add_input(None).lit();
        let b = reduced.add_latch(Some(true), None).lit();
        assert_eq!(
            restore.lift_clauses(&reduced, &[vec![!b], vec![b, input]]),
            vec![vec![(1, true)]],
            "a clause over an input is not a latch clause"
        );
        // a is false: left out of a clause where it is positive, making one true where not.
        assert_eq!(
            restore.lower_clause(&reduced, &[(0, false), (2, false)]),
            Some(vec![!b])
        );
        assert_eq!(
            restore.lower_clause(&reduced, &[(0, true), (1, false)]),
            None
        );
        assert_eq!(restore.lower_clause(&reduced, &[(0, false)]), None);
        let dropped = Restore::new(&ts, vec![0], vec![1], vec![0]);
        assert_eq!(
            dropped.lower_clause(&reduced, &[(1, false), (2, false)]),
            None
        );
        assert_eq!(dropped.lower_clause(&reduced, &[(1, false)]), Some(vec![b]));
    }

    #[test]
    fn composed_images_follow_both_maps() {
        let ts = three_latches();
        // First pass: b is !a, c kept. Second pass: a (now latch 0) is constant 0.
        let first = Restore::merged(
            &ts,
            vec![
                LatchImage::Kept(0),
                LatchImage::Equivalent(0, true),
                LatchImage::Kept(1),
            ],
            Facts::new(3),
        );
        assert_eq!((first.latch(0), first.latch(1)), (0, 2));
        let mut middle = TransitionSystem::default();
        middle.add_input(None);
        middle.add_latch(Some(false), None);
        middle.add_latch(None, None);
        middle.bad.push(Lit::FALSE);
        let second = Restore::merged(
            &middle,
            vec![LatchImage::Constant(false), LatchImage::Kept(0)],
            Facts::new(2),
        );
        let both = first.then(&second);
        assert_eq!(
            (0..3).map(|i| both.image(i)).collect::<Vec<_>>(),
            vec![
                LatchImage::Constant(false),
                LatchImage::Constant(true),
                LatchImage::Kept(0)
            ]
        );
        assert_eq!(both.latch(0), 2);
        let t = Trace {
            init: vec![true],
            inputs: vec![vec![true]],
            bad: 0,
        };
        let lifted = both.trace(&t);
        assert_eq!(lifted.init, vec![false, true, true]);
        assert_eq!(lifted.inputs, vec![vec![true]]);
    }

    #[test]
    fn facts_compose_over_the_original_latches() {
        let ts = three_latches();
        let (a, c) = (ts.latches[0].var.lit(), ts.latches[2].var.lit());
        // The first pass drops b and keeps a, c; the second proves "a == !c" on the middle one.
        let first = Restore::new(&ts, vec![0], vec![0, 2], vec![0]);
        let mut middle = TransitionSystem::default();
        middle.add_input(None);
        let ma = middle.add_latch(Some(false), None).lit();
        let mc = middle.add_latch(None, None).lit();
        let mut facts = Facts::new(2);
        facts.add_equalities(&middle, &[(ma, !mc)]);
        let second = Restore::merged(
            &middle,
            vec![LatchImage::Kept(0), LatchImage::Kept(1)],
            facts,
        );
        let both = first.then(&second);
        let mut aig = ts.aig.clone();
        let latches: Vec<Lit> = ts.latches.iter().map(|l| l.var.lit()).collect();
        let lits = both.facts().copy_into(&mut aig, &latches);
        assert_eq!(lits.len(), 1);
        for bits in 0..16u32 {
            let v = simulate_frame(&aig, |v| bits >> v.index() & 1 == 1);
            let get = |l: Lit| v[l.var().index()] ^ l.is_negated();
            assert_eq!(get(lits[0]), get(a) != get(c));
        }
    }
}
