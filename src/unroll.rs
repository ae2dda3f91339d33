//! Time-frame expansion of a transition system into a SAT solver, encoded lazily.
//!
//! Only the cone a query asks for is Tseitin-encoded: `lit(l, k)` encodes the gates under `l`
//! in frame `k` and, through latches, whatever earlier frames they need. A latch in frame
//! `k > 0` *is* the literal of its next-state function in frame `k - 1`, so frames share
//! literals instead of being linked by equality clauses. Reset values are constants, and
//! constants propagate through the gates, so the frames near the initial state are small.

use crate::aig::{self, Node};
use crate::sat::tseitin::Gates;
use crate::sat::{self, Solver};
use crate::ts::{Leaf, TransitionSystem};

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
    kinds: Vec<Option<Leaf>>,
    start: Start,
    /// `frames[k][v]`: the solver literal code of AIG variable `v` in frame `k`, or NONE.
    frames: Vec<Vec<u32>>,
    gates: Gates,
}

impl<'a> Unroller<'a> {
    pub fn new(ts: &'a TransitionSystem, start: Start) -> Unroller<'a> {
        Unroller {
            ts,
            kinds: ts.leaf_kinds(),
            start,
            frames: Vec::new(),
            gates: Gates::default(),
        }
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
        self.frame(k)[v.index()] = encode(lit);
    }

    /// The solver literal of `l` in frame `k` if its variable is already encoded there.
    pub fn encoded(&self, l: aig::Lit, k: usize) -> Option<sat::Lit> {
        let code = *self.frames.get(k)?.get(l.var().index())?;
        decode(code).map(|lit| lit.xor_sign(l.is_negated()))
    }

    /// The value of `l` in frame `k` of the solver's last model (unencoded counts as false).
    pub fn value(&self, s: &impl Solver, l: aig::Lit, k: usize) -> bool {
        self.encoded(l, k)
            .and_then(|sl| s.value(sl))
            .unwrap_or(false)
    }

    fn frame(&mut self, k: usize) -> &mut Vec<u32> {
        while self.frames.len() <= k {
            self.frames.push(vec![NONE; self.ts.aig.num_vars()]);
        }
        &mut self.frames[k]
    }

    fn var(&mut self, s: &mut impl Solver, v: aig::Var, k: usize) -> sat::Lit {
        if let Some(l) = self.frames.get(k).and_then(|f| decode(f[v.index()])) {
            return l;
        }
        // Iterative post-order over (variable, frame) pairs: cones can be millions deep.
        let mut stack = vec![(v, k, false)];
        while let Some((v, k, expanded)) = stack.pop() {
            if self.frame(k)[v.index()] != NONE {
                continue;
            }
            let lit = match self.ts.aig.node(v) {
                Node::False => self.gates.false_lit(s),
                Node::And(a, b) => {
                    let (la, lb) = (
                        self.frames[k][a.var().index()],
                        self.frames[k][b.var().index()],
                    );
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
                Node::Leaf => match self.kinds[v.index()] {
                    Some(Leaf::Latch(i)) if k > 0 => {
                        let next = self.ts.latches[i].next;
                        match decode(self.frame(k - 1)[next.var().index()]) {
                            Some(l) => l.xor_sign(next.is_negated()),
                            None => {
                                stack.push((v, k, true));
                                stack.push((next.var(), k - 1, false));
                                continue;
                            }
                        }
                    }
                    Some(Leaf::Latch(i)) => match (self.start, self.ts.latches[i].init) {
                        (Start::Init, Some(init)) => self.gates.false_lit(s).xor_sign(init),
                        _ => s.new_var().pos_lit(),
                    },
                    _ => s.new_var().pos_lit(),
                },
            };
            self.frames[k][v.index()] = encode(lit);
        }
        decode(self.frames[k][v.index()]).unwrap()
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
