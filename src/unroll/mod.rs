//! Time-frame expansion of a transition system into a SAT solver, encoded lazily.
//!
//! Only the cone a query asks for is Tseitin-encoded: `lit(l, k)` encodes the gates under `l`
//! in frame `k` and, through latches, whatever earlier frames they need. A latch in frame
//! `k > 0` *is* the literal of its next-state function in frame `k - 1`, so frames share
//! literals instead of being linked by equality clauses. Reset values are constants, and
//! constants propagate through the gates, so the frames near the initial state are small:
//! a gate with a false input is false, and its other input's cone is never encoded. On
//! `hku24bv_ILA_Ridecore_ANDI_sanity` (440k gates per frame, 16k of 18k latches
//! uninitialised) that took BMC from 2.0 M to 1.7 M variables at depth 8 and from 28 s to
//! 12 s (the last query from 16.4 s to 4.3 s: the cones under false inputs had been
//! unconstrained logic the solver still decided), peak memory from 1.22 GB to 0.86 GB.
//! A latch whose cone was skipped is unencoded in frame 0: [`Unroller::value`] reads it as
//! its reset value, so a state read from a model stays initial (IC3's F_0 predecessors).
//!
//! With [`Unroller::merging_gates`], gates used once are merged into wide ANDs and
//! multiplexers ([`shape`]): fewer variables and clauses for the same models (Ridecore ANDI
//! at depth 8: 0.70 M variables instead of 1.73 M, 0.67 GB instead of 0.86 GB). A merged
//! gate has no literal of its own; [`Unroller::value`] evaluates it from its inputs.
//!
//! Each frame's map from AIG variables to solver literals starts as a hash map and becomes a
//! flat vector once it holds an eighth of the AIG's variables: a deep unrolling of a large
//! circuit whose frames encode only a small cone then costs memory in proportion to what is
//! encoded, not `4 * num_vars` bytes per frame.
//!
//! Layer: bit-level core; imports [`crate::aig`], [`crate::ts`], [`crate::sat`] and the plumbing.

mod shape;

use rustc_hash::FxHashMap;

use self::shape::{Operands, SingleUse};

use crate::aig::{self, Node};
use crate::budget::Budget;
use crate::sat::tseitin::Gates;
use crate::sat::{self, Solver};
use crate::ts::TransitionSystem;

const NONE: u32 = u32::MAX;

/// Nodes [`Unroller::var`] encodes between two polls of its budget (see
/// [`Unroller::stopping_on`]): a poll reads the clock, a node costs a few clauses.
const POLL_EVERY: usize = 1024;

/// How frame 0 is constrained.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Start {
    /// Latches with a reset value take it (BMC).
    Init,
    /// Every latch is free (induction step, IC3 queries).
    Free,
}

/// Frame-indexed map from AIG variables to solver literals.
pub struct Unroller<'a> {
    ts: &'a TransitionSystem,
    /// The latch index of each latch variable: in proportion to the latches, not to the
    /// AIG, as an engine keeps several unrollers (IC3 one per frame solver).
    latch_of: FxHashMap<u32, usize>,
    start: Start,
    /// `frames[k]`: the solver literal codes of the AIG variables encoded in frame `k`.
    frames: Vec<FrameMap>,
    gates: Gates,
    /// Which gates may merge into wide ones (none unless [`Self::merging_gates`]).
    single: Option<SingleUse>,
    /// The budget the encoding loop polls ([`Unroller::stopping_on`]).
    budget: Option<Budget>,
    /// Whether an encoding stopped half-way because the budget ran out.
    interrupted: bool,
    /// Nodes encoded since the last poll of `budget` (across calls: cones are often small).
    since_poll: usize,
}

impl<'a> Unroller<'a> {
    pub fn new(ts: &'a TransitionSystem, start: Start) -> Unroller<'a> {
        Unroller {
            ts,
            latch_of: ts
                .latches
                .iter()
                .enumerate()
                .map(|(i, l)| (l.var.index() as u32, i))
                .collect(),
            start,
            frames: Vec::new(),
            gates: Gates::default(),
            single: None,
            budget: None,
            interrupted: false,
            since_poll: 0,
        }
    }

    /// This unroller stopping an encoding half-way when `budget` runs out: a frame of a large
    /// circuit is hundreds of thousands of gates, seconds on a loaded machine, and an engine
    /// must be back by its deadline. The literal such an encoding returns is a fresh variable
    /// bound to nothing (nothing half-encoded is recorded), so the caller must check
    /// [`Unroller::interrupted`] and give up the query, never trust its answer.
    pub fn stopping_on(mut self, budget: &Budget) -> Unroller<'a> {
        self.budget = Some(budget.clone());
        self
    }

    /// Whether an encoding stopped half-way because the budget of
    /// [`Unroller::stopping_on`] ran out: the literals returned since mean nothing.
    pub fn interrupted(&self) -> bool {
        self.interrupted
    }

    /// The same unrolling with single-use gates merged into wide ANDs and multiplexers
    /// ([`shape`]), for the engines that only ask for models and cores (BMC, k-induction,
    /// IC3). The interpolating engines keep one variable per AND gate: their interpolants
    /// come from the solver's proof, and from the merged encoding the localization tests'
    /// interpolants named more latches than the abstraction needs.
    pub fn merging_gates(mut self) -> Unroller<'a> {
        self.single = Some(SingleUse::new(self.ts));
        self
    }

    /// The same unrolling with each two-input gate of the same solver literals encoded once
    /// ([`Gates::hashing`]), across nodes and frames: for a system whose frames repeat one
    /// another's logic, as a k-induction certificate's window of recorded steps does.
    pub fn hashing_gates(mut self) -> Unroller<'a> {
        self.gates = Gates::hashing();
        self
    }

    /// The index of the latch whose output variable is `v`, if `v` is one.
    pub fn latch_of(&self, v: aig::Var) -> Option<usize> {
        self.latch_of.get(&(v.index() as u32)).copied()
    }

    pub fn ts(&self) -> &'a TransitionSystem {
        self.ts
    }

    /// The solver literal of AIG literal `l` in frame `k`, encoding its cone if needed.
    pub fn lit(&mut self, s: &mut impl Solver, l: aig::Lit, k: usize) -> sat::Lit {
        let base = self.var(s, l.var(), k);
        if l.is_negated() {
            !base
        } else {
            base
        }
    }

    /// Makes `lit` the solver literal of variable `v` (a leaf) in frame `k`, before anything
    /// there is encoded: a second view of a frame whose latches are another unrolling's
    /// (its gates are then encoded apart, e.g. in another interpolation partition).
    pub fn bind(&mut self, v: aig::Var, k: usize, lit: sat::Lit) {
        self.frame(k).set(v.index(), encode(lit));
    }

    /// The solver literal of `l` in frame `k` if its variable is already encoded there.
    pub fn encoded(&self, l: aig::Lit, k: usize) -> Option<sat::Lit> {
        decode(self.frames.get(k)?.get(l.var().index())).map(|lit| lit.xor_sign(l.is_negated()))
    }

    /// The value of `l` in frame `k` of the solver's last model. An unencoded gate (merged
    /// into a wider one, or under a false input) is evaluated from its inputs; an unencoded
    /// latch with a reset value in frame 0 of an unrolling from the initial states reads as
    /// that value (its cone may have been skipped under a false gate, and a state read from
    /// the model must still be initial); anything else undetermined reads as false.
    pub fn value(&self, s: &impl Solver, l: aig::Lit, k: usize) -> bool {
        let Some(sl) = self.encoded(l, k) else {
            // A leaf needs no walk (IC3 reads every latch of a predecessor, most unencoded).
            let value = match self.ts.aig.node(l.var()) {
                Node::Leaf => self.leaf_value(l.var(), k),
                _ => self.evaluate(s, l.var(), k),
            };
            return value.unwrap_or(false) ^ l.is_negated();
        };
        s.value(sl).unwrap_or(false)
    }

    /// The value of unencoded leaf `v` in frame `k`: its reset value in frame 0 of an
    /// unrolling from the initial states, else undetermined.
    fn leaf_value(&self, v: aig::Var, k: usize) -> Option<bool> {
        match (self.start, k, self.latch_of(v)) {
            (Start::Init, 0, Some(i)) => self.ts.latches[i].init,
            _ => None,
        }
    }

    /// The value of unencoded `v` in frame `k` of the last model, where the encoded
    /// variables of the frame and the reset values determine it.
    fn evaluate(&self, s: &impl Solver, v: aig::Var, k: usize) -> Option<bool> {
        let mut known: FxHashMap<u32, Option<bool>> = FxHashMap::default();
        let mut stack = vec![v];
        while let Some(&u) = stack.last() {
            if known.contains_key(&u.0) {
                stack.pop();
                continue;
            }
            let value = match (self.encoded(u.lit(), k), self.ts.aig.node(u)) {
                (Some(sl), _) => s.value(sl),
                (None, Node::False) => Some(false),
                (None, Node::And(a, b)) => {
                    let (Some(&x), Some(&y)) = (known.get(&a.var().0), known.get(&b.var().0))
                    else {
                        stack.extend([a.var(), b.var()]);
                        continue;
                    };
                    let (x, y) = (x.map(|x| x ^ a.is_negated()), y.map(|y| y ^ b.is_negated()));
                    match (x, y) {
                        (Some(false), _) | (_, Some(false)) => Some(false),
                        (Some(true), Some(true)) => Some(true),
                        _ => None,
                    }
                }
                (None, Node::Leaf) => self.leaf_value(u, k),
            };
            known.insert(u.0, value);
            stack.pop();
        }
        known[&v.0]
    }

    fn frame(&mut self, k: usize) -> &mut FrameMap {
        while self.frames.len() <= k {
            self.frames.push(FrameMap::new(self.ts.aig.num_vars()));
        }
        &mut self.frames[k]
    }

    fn var(&mut self, s: &mut impl Solver, v: aig::Var, k: usize) -> sat::Lit {
        if let Some(l) = self.frames.get(k).and_then(|f| decode(f.get(v.index()))) {
            return l;
        }
        if self.interrupted {
            return s.new_var().pos_lit();
        }
        // Iterative post-order over (variable, frame) pairs: cones can be millions deep. A
        // gate's inputs are encoded one at a time, so that an input that turns out false
        // (reset values propagate) saves the others' whole cones, and a multiplexer whose
        // select is constant encodes only the branch it selects.
        let mut stack = vec![(v, k)];
        while let Some((v, k)) = stack.pop() {
            if self.frame(k).get(v.index()) != NONE {
                continue;
            }
            self.since_poll += 1;
            if self.since_poll >= POLL_EVERY {
                self.since_poll = 0;
                if self.budget.as_ref().is_some_and(Budget::expired) {
                    self.interrupted = true;
                    return s.new_var().pos_lit();
                }
            }
            let lit = match self.ts.aig.node(v) {
                Node::False => self.gates.false_lit(s),
                Node::And(..) => {
                    let f = self.gates.false_lit(s);
                    let shape = shape::of(&self.ts.aig, self.single.as_ref(), v, |u| {
                        self.encoded(u.lit(), k).is_none()
                    });
                    match shape.operands(|x| self.encoded(x, k), f) {
                        Err(x) => {
                            stack.extend([(v, k), (x.var(), k)]);
                            continue;
                        }
                        Ok(Operands::Ite(c, t, e)) => self.gates.ite(s, c, t, e),
                        Ok(Operands::And(mut lits)) => self.gates.and_all(s, &mut lits),
                    }
                }
                Node::Leaf => match self.latch_of(v) {
                    Some(i) if k > 0 => {
                        let next = self.ts.latches[i].next;
                        match decode(self.frame(k - 1).get(next.var().index())) {
                            Some(l) => l.xor_sign(next.is_negated()),
                            None => {
                                stack.extend([(v, k), (next.var(), k - 1)]);
                                continue;
                            }
                        }
                    }
                    Some(i) => match (self.start, self.ts.latches[i].init) {
                        (Start::Init, Some(init)) => self.gates.false_lit(s).xor_sign(init),
                        _ => s.new_var().pos_lit(),
                    },
                    _ => s.new_var().pos_lit(),
                },
            };
            self.frames[k].set(v.index(), encode(lit));
        }
        decode(self.frames[k].get(v.index())).unwrap()
    }
}

/// One frame's map from AIG variable indices to solver literal codes (absent: NONE).
enum FrameMap {
    /// Few entries: memory in proportion to them. `usize` is the AIG's number of variables.
    Sparse(FxHashMap<u32, u32>, usize),
    Dense(Vec<u32>),
}

impl FrameMap {
    fn new(num_vars: usize) -> FrameMap {
        FrameMap::Sparse(FxHashMap::default(), num_vars)
    }

    fn get(&self, v: usize) -> u32 {
        match self {
            FrameMap::Sparse(m, _) => m.get(&(v as u32)).copied().unwrap_or(NONE),
            FrameMap::Dense(d) => d.get(v).copied().unwrap_or(NONE),
        }
    }

    /// Sets the code of `v`, turning the map dense when it holds an eighth of the variables
    /// (a hash entry costs several times the 4 bytes of a vector slot).
    fn set(&mut self, v: usize, code: u32) {
        match self {
            FrameMap::Sparse(m, n) if (m.len() + 1) * 8 >= *n => {
                let mut d = vec![NONE; *n];
                for (&i, &c) in m.iter() {
                    d[i as usize] = c;
                }
                d[v] = code;
                *self = FrameMap::Dense(d);
            }
            FrameMap::Sparse(m, _) => {
                m.insert(v as u32, code);
            }
            FrameMap::Dense(d) => d[v] = code,
        }
    }
}

/// Sign flips on solver literals, mirroring [`aig::Lit::xor_sign`].
trait XorSign {
    fn xor_sign(self, flip: bool) -> Self;
}

impl XorSign for sat::Lit {
    fn xor_sign(self, flip: bool) -> sat::Lit {
        if flip {
            !self
        } else {
            self
        }
    }
}

fn encode(l: sat::Lit) -> u32 {
    l.lidx() as u32
}

fn decode(code: u32) -> Option<sat::Lit> {
    (code != NONE).then(|| sat::Lit::new(code >> 1, code & 1 == 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_map_turns_dense_at_an_eighth_and_keeps_its_entries() {
        let mut m = FrameMap::new(80);
        for v in 0..9 {
            m.set(v * 3, v as u32 + 100);
        }
        assert!(
            matches!(m, FrameMap::Sparse(..)),
            "9 of 80 entries stay sparse"
        );
        m.set(79, 7);
        assert!(
            matches!(m, FrameMap::Dense(..)),
            "10 of 80 entries turn dense"
        );
        for v in 0..9 {
            assert_eq!(m.get(v * 3), v as u32 + 100);
        }
        assert_eq!((m.get(79), m.get(1), m.get(1000)), (7, NONE, NONE));
    }

    #[test]
    fn a_false_input_skips_the_other_cone_whose_latches_read_their_reset() {
        // bad = (r & z) & (x & y), one wide AND whose operands are encoded smallest first:
        // r resets to false, so nothing else is encoded. x & y is also x's next state, so
        // it stays a gate of its own.
        let mut ts = TransitionSystem::default();
        let r = ts.add_latch(Some(false), None).lit();
        let z = ts.add_input(None).lit();
        let y = ts.add_input(None).lit();
        let x = ts.add_latch(Some(true), None).lit();
        let xy = ts.aig.and(x, y);
        let rz = ts.aig.and(r, z);
        let bad = ts.aig.and(rz, xy);
        ts.set_next(0, r);
        ts.set_next(1, xy);
        let mut s = crate::sat::Cadical::new(&crate::Budget::new(None));
        let mut un = Unroller::new(&ts, Start::Init).merging_gates();
        let b = un.lit(&mut s, bad, 0);
        assert_eq!([xy, x, y].map(|l| un.encoded(l, 0)), [None; 3]);
        assert_eq!(s.solve(&[]), sat::SatResult::Sat);
        assert!(!s.value(b).unwrap_or(true), "bad is the false constant");
        assert!(
            un.value(&s, x, 0) && !un.value(&s, !x, 0),
            "x reads its reset value"
        );
        // The same cone from a free state is encoded whole.
        let mut free = Unroller::new(&ts, Start::Free);
        free.lit(&mut s, bad, 0);
        assert!([xy, x, y].iter().all(|&l| free.encoded(l, 0).is_some()));
    }

    #[test]
    fn a_stopped_budget_interrupts_a_large_encoding_and_records_nothing_of_it() {
        // A chain of 3 * POLL_EVERY gates over free inputs: the encoding polls the budget.
        let mut ts = TransitionSystem::default();
        let mut top = ts.add_input(None).lit();
        for _ in 0..3 * POLL_EVERY {
            let i = ts.add_input(None).lit();
            top = ts.aig.and(top, i);
        }
        let budget = crate::Budget::new(None);
        let mut s = crate::sat::Cadical::new(&crate::Budget::new(None));
        let mut whole = Unroller::new(&ts, Start::Free).stopping_on(&budget);
        whole.lit(&mut s, top, 0);
        assert!(!whole.interrupted() && whole.encoded(top, 0).is_some());
        budget.stop();
        let mut un = Unroller::new(&ts, Start::Free).stopping_on(&budget);
        un.lit(&mut s, top, 0);
        assert!(un.interrupted(), "a stopped budget ends the encoding");
        assert_eq!(
            un.encoded(top, 0),
            None,
            "a half-encoded cone is not recorded"
        );
    }

    #[test]
    fn merged_gates_keep_the_models_and_read_their_values() {
        // bad = c ? (x & y & z) : w, where x & y is used once: one wide AND and one
        // multiplexer, no literal for x & y, which still reads its value.
        let mut ts = TransitionSystem::default();
        let [c, x, y, z, w] = [(); 5].map(|_| ts.add_input(None).lit());
        let xy = ts.aig.and(x, y);
        let xyz = ts.aig.and(xy, z);
        let bad = ts.aig.mux(c, xyz, w);
        ts.bad.push(bad);
        let mut s = crate::sat::Cadical::new(&crate::Budget::new(None));
        let mut un = Unroller::new(&ts, Start::Free).merging_gates();
        let b = un.lit(&mut s, bad, 0);
        assert_eq!(un.encoded(xy, 0), None, "x & y is merged");
        let ins = [c, x, y, z, w].map(|l| un.lit(&mut s, l, 0));
        for bits in 0..32u32 {
            let v: Vec<bool> = (0..5).map(|i| bits >> i & 1 == 1).collect();
            let assume: Vec<sat::Lit> = (ins.iter().zip(&v))
                .map(|(&l, &b)| l.xor_sign(!b))
                .collect();
            assert_eq!(s.solve(&assume), sat::SatResult::Sat);
            let expect = if v[0] { v[1] && v[2] && v[3] } else { v[4] };
            assert_eq!(s.value(b), Some(expect), "inputs {v:?}");
            assert_eq!(un.value(&s, xy, 0), v[1] && v[2], "inputs {v:?}");
        }
    }

    #[test]
    fn a_constant_select_encodes_only_the_branch_it_picks() {
        // bad = s ? (x & y) : w with s reset to true: w is never encoded.
        let mut ts = TransitionSystem::default();
        let sel = ts.add_latch(Some(true), None).lit();
        let [x, y, w] = [(); 3].map(|_| ts.add_input(None).lit());
        let xy = ts.aig.and(x, y);
        let bad = ts.aig.mux(sel, xy, w);
        ts.set_next(0, sel);
        ts.bad.push(bad);
        let mut s = crate::sat::Cadical::new(&crate::Budget::new(None));
        let mut un = Unroller::new(&ts, Start::Init).merging_gates();
        let b = un.lit(&mut s, bad, 0);
        assert_eq!(un.encoded(w, 0), None);
        let (lx, ly) = (un.lit(&mut s, x, 0), un.lit(&mut s, y, 0));
        assert_eq!(s.solve(&[lx, ly, !b]), sat::SatResult::Unsat);
        assert_eq!(s.solve(&[!lx, b]), sat::SatResult::Unsat);
    }
}
