//! Time-frame expansion of a transition system into a SAT solver, encoded lazily.
//!
//! Only the cone a query asks for is Tseitin-encoded: `lit(l, k)` encodes the gates under `l`
//! in frame `k` and, through latches, whatever earlier frames they need. A latch in frame
//! `k > 0` *is* the literal of its next-state function in frame `k - 1`, so frames share
//! literals instead of being linked by equality clauses. Reset values are constants, and
//! constants propagate through the gates, so the frames near the initial state are small.
//!
//! Each frame's map from AIG variables to solver literals starts as a hash map and becomes a
//! flat vector once it holds an eighth of the AIG's variables: a deep unrolling of a large
//! circuit whose frames encode only a small cone then costs memory in proportion to what is
//! encoded, not `4 * num_vars` bytes per frame.

use rustc_hash::FxHashMap;

use crate::aig::{self, Node};
use crate::sat::tseitin::Gates;
use crate::sat::{self, Solver};
use crate::ts::TransitionSystem;

const NONE: u32 = u32::MAX;

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
        }
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

    /// The value of `l` in frame `k` of the solver's last model (unencoded counts as false).
    pub fn value(&self, s: &impl Solver, l: aig::Lit, k: usize) -> bool {
        self.encoded(l, k)
            .and_then(|sl| s.value(sl))
            .unwrap_or(false)
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
        // Iterative post-order over (variable, frame) pairs: cones can be millions deep.
        let mut stack = vec![(v, k, false)];
        while let Some((v, k, expanded)) = stack.pop() {
            if self.frame(k).get(v.index()) != NONE {
                continue;
            }
            let lit = match self.ts.aig.node(v) {
                Node::False => self.gates.false_lit(s),
                Node::And(a, b) => {
                    let frame = &self.frames[k];
                    let (la, lb) = (frame.get(a.var().index()), frame.get(b.var().index()));
                    if !expanded || la == NONE || lb == NONE {
                        stack.push((v, k, true));
                        stack.push((a.var(), k, false));
                        stack.push((b.var(), k, false));
                        continue;
                    }
                    let la = decode(la).unwrap().xor_sign(a.is_negated());
                    let lb = decode(lb).unwrap().xor_sign(b.is_negated());
                    self.gates.and(s, la, lb)
                }
                Node::Leaf => match self.latch_of(v) {
                    Some(i) if k > 0 => {
                        let next = self.ts.latches[i].next;
                        match decode(self.frame(k - 1).get(next.var().index())) {
                            Some(l) => l.xor_sign(next.is_negated()),
                            None => {
                                stack.push((v, k, true));
                                stack.push((next.var(), k - 1, false));
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
}
