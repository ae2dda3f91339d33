//! Local rewriting of word-level terms: each rule replaces an operator application by an
//! equal term that blasts into fewer gates or exposes sharing (slices pushed through
//! concatenations and extensions, adjacent slices fused, equalities of concatenations split,
//! shifts by constants turned into wiring, identities of the Boolean and arithmetic
//! operators, division and products by constants ([`divide`])). The rules were chosen from
//! the operator counts of the BTOR2 evaluation set, which Yosys writes as chains of `ite`,
//! `concat`, `uext` and `slice`.
//! Encoded C programs also get the rules on extensions ([`narrow`]).

mod divide;
mod narrow;

use super::Stats;
use crate::wl::{Binary, BitVec, Model, Op, Sort, TermId, Unary};

/// Builds terms through the rewrite rules, counting each rule that fires.
pub(super) struct Rewriter<'s> {
    pub stats: &'s mut Stats,
    /// Whether the `narrow-*` and overflow rules apply (encoded C programs only: on
    /// eval-btor2, 2026-12-02, 20 s, with them 74 of the 110 tasks with a verdict, 3 proofs
    /// fewer than the last run without them).
    pub narrow: bool,
}

impl Rewriter<'_> {
    /// `op(args)` in `m`, rewritten. The arguments are already rewritten terms of `m` whose
    /// sorts fit `op` (they come from a sort-checked model).
    pub fn mk(&mut self, m: &mut Model, op: Op, args: &[TermId]) -> TermId {
        let mut args = args.to_vec();
        if let Op::Binary(b) = op {
            if commutative(b) {
                args.sort_unstable();
            }
        }
        if let Some((rule, t)) = self.rewrite(m, &op, &args) {
            self.stats.bump(rule);
            return t;
        }
        m.apply(op, &args)
            .expect("rewritten terms keep their sorts")
    }

    fn rewrite(
        &mut self,
        m: &mut Model,
        op: &Op,
        args: &[TermId],
    ) -> Option<(&'static str, TermId)> {
        match *op {
            Op::Slice { upper, lower } => self.slice(m, args[0], upper, lower),
            Op::Binary(Binary::Concat) => self.concat(m, args[0], args[1]),
            Op::Ite => self.ite(m, args[0], args[1], args[2]),
            Op::Extend { signed, by } => {
                let inner = m.term(args[0]);
                match inner.op {
                    Op::Extend { signed: s, by: b } if s == signed || !s => {
                        // A zero-extension is also the sign bit's source of zeros.
                        let (x, signed) = (inner.args[0], s && signed);
                        Some((
                            "ext-ext",
                            self.mk(m, Op::Extend { signed, by: b + by }, &[x]),
                        ))
                    }
                    _ => None,
                }
            }
            Op::Unary(Unary::RedOr | Unary::RedAnd | Unary::RedXor) if width(m, args[0]) == 1 => {
                Some(("reduce-bit", args[0]))
            }
            Op::Binary(b) if !m.sort(args[0]).is_array() => self.binary(m, b, args[0], args[1]),
            _ => None,
        }
    }

    fn slice(
        &mut self,
        m: &mut Model,
        x: TermId,
        upper: u32,
        lower: u32,
    ) -> Option<(&'static str, TermId)> {
        if lower == 0 && upper + 1 == width(m, x) {
            return Some(("slice-whole", x));
        }
        let term = m.term(x).clone();
        let t = match term.op {
            Op::Slice { lower: l, .. } => (
                "slice-slice",
                self.slice_of(m, term.args[0], upper + l, lower + l),
            ),
            Op::Binary(Binary::Concat) => {
                let (hi, lo) = (term.args[0], term.args[1]);
                let wl = width(m, lo);
                let t = if lower >= wl {
                    self.slice_of(m, hi, upper - wl, lower - wl)
                } else if upper < wl {
                    self.slice_of(m, lo, upper, lower)
                } else {
                    let h = self.slice_of(m, hi, upper - wl, 0);
                    let l = self.slice_of(m, lo, wl - 1, lower);
                    self.mk(m, Op::Binary(Binary::Concat), &[h, l])
                };
                ("slice-concat", t)
            }
            Op::Extend { signed, .. } => {
                let inner = term.args[0];
                let wi = width(m, inner);
                let t = if upper < wi {
                    self.slice_of(m, inner, upper, lower)
                } else if !signed && lower >= wi {
                    m.constant_term(BitVec::zero(upper - lower + 1))
                } else if lower < wi {
                    let s = self.slice_of(m, inner, wi - 1, lower);
                    self.mk(
                        m,
                        Op::Extend {
                            signed,
                            by: upper + 1 - wi,
                        },
                        &[s],
                    )
                } else {
                    return None;
                };
                ("slice-extend", t)
            }
            Op::Ite if [1, 2].iter().any(|&i| m.constant(term.args[i]).is_some()) => {
                let a = self.slice_of(m, term.args[1], upper, lower);
                let b = self.slice_of(m, term.args[2], upper, lower);
                ("slice-ite", self.mk(m, Op::Ite, &[term.args[0], a, b]))
            }
            _ => return None,
        };
        Some(t)
    }

    fn slice_of(&mut self, m: &mut Model, x: TermId, upper: u32, lower: u32) -> TermId {
        self.mk(m, Op::Slice { upper, lower }, &[x])
    }

    fn concat(&mut self, m: &mut Model, hi: TermId, lo: TermId) -> Option<(&'static str, TermId)> {
        // Adjacent slices of one word, also at the seam of a concatenation chain.
        let fuse = |m: &Model, a: TermId, b: TermId| match (&m.term(a).op, &m.term(b).op) {
            (&Op::Slice { upper, lower: l1 }, &Op::Slice { upper: u2, lower })
                if m.term(a).args[0] == m.term(b).args[0] && l1 == u2 + 1 =>
            {
                Some((m.term(a).args[0], upper, lower))
            }
            _ => None,
        };
        if let Some((x, upper, lower)) = fuse(m, hi, lo) {
            return Some(("concat-slices", self.slice_of(m, x, upper, lower)));
        }
        let (h, l) = (m.term(hi).clone(), m.term(lo).clone());
        if h.op == Op::Binary(Binary::Concat) {
            if let Some((x, upper, lower)) = fuse(m, h.args[1], lo) {
                let s = self.slice_of(m, x, upper, lower);
                let t = self.mk(m, Op::Binary(Binary::Concat), &[h.args[0], s]);
                return Some(("concat-slices", t));
            }
        }
        if l.op == Op::Binary(Binary::Concat) {
            if let Some((x, upper, lower)) = fuse(m, hi, l.args[0]) {
                let s = self.slice_of(m, x, upper, lower);
                let t = self.mk(m, Op::Binary(Binary::Concat), &[s, l.args[1]]);
                return Some(("concat-slices", t));
            }
        }
        if m.constant(hi).is_some_and(BitVec::is_zero) {
            let by = width(m, hi);
            let t = self.mk(m, Op::Extend { signed: false, by }, &[lo]);
            return Some(("concat-zero", t));
        }
        None
    }

    fn ite(
        &mut self,
        m: &mut Model,
        c: TermId,
        a: TermId,
        b: TermId,
    ) -> Option<(&'static str, TermId)> {
        if m.constant(c).is_some() || a == b {
            // `Model::apply` folds these.
            return Some(("ite-trivial", m.apply(Op::Ite, &[c, a, b]).ok()?));
        }
        let cond = m.term(c).clone();
        if cond.op == Op::Unary(Unary::Not) {
            return Some(("ite-not-cond", self.mk(m, Op::Ite, &[cond.args[0], b, a])));
        }
        let same_cond = |m: &Model, t: TermId| {
            let t = m.term(t);
            (t.op == Op::Ite && t.args[0] == c).then(|| (t.args[1], t.args[2]))
        };
        if let Some((a, _)) = same_cond(m, a) {
            return Some(("ite-same-cond", self.mk(m, Op::Ite, &[c, a, b])));
        }
        if let Some((_, b)) = same_cond(m, b) {
            return Some(("ite-same-cond", self.mk(m, Op::Ite, &[c, a, b])));
        }
        if m.sort(a) != Sort::Bv(1) {
            return None;
        }
        let bit = |m: &Model, t: TermId| m.constant(t).map(BitVec::is_true);
        let t = match (bit(m, a), bit(m, b)) {
            (Some(true), Some(false)) => c,
            (Some(false), Some(true)) => self.not(m, c),
            (Some(true), None) => self.mk(m, Op::Binary(Binary::Or), &[c, b]),
            (Some(false), None) => {
                let nc = self.not(m, c);
                self.mk(m, Op::Binary(Binary::And), &[nc, b])
            }
            (None, Some(false)) => self.mk(m, Op::Binary(Binary::And), &[c, a]),
            (None, Some(true)) => {
                let nc = self.not(m, c);
                self.mk(m, Op::Binary(Binary::Or), &[nc, a])
            }
            _ => return None,
        };
        Some(("ite-bit", t))
    }

    fn not(&mut self, m: &mut Model, x: TermId) -> TermId {
        self.mk(m, Op::Unary(Unary::Not), &[x])
    }

    fn binary(
        &mut self,
        m: &mut Model,
        b: Binary,
        x: TermId,
        y: TermId,
    ) -> Option<(&'static str, TermId)> {
        use Binary::*;
        let w = width(m, x);
        let zero = |m: &mut Model| m.constant_term(BitVec::zero(w));
        let ones = |m: &mut Model| m.constant_term(BitVec::ones(w));
        let one_bit = |m: &mut Model, v: bool| m.constant_term(BitVec::from_u64(1, v as u64));
        let cx = m.constant(x).cloned();
        let cy = m.constant(y).cloned();
        if cx.is_some() && cy.is_some() {
            return None; // `Model::apply` folds it
        }
        let is = |c: &Option<BitVec>, v: &BitVec| c.as_ref() == Some(v);
        let (z, o, one) = (BitVec::zero(w), BitVec::ones(w), BitVec::from_u64(w, 1));
        // For commutative operators the arguments are sorted: a constant may be either one.
        let (k, other) = match (&cx, &cy) {
            (Some(k), None) => (Some(k.clone()), y),
            (None, Some(k)) => (Some(k.clone()), x),
            _ => (None, y),
        };
        let complements = |m: &Model| {
            let neg = |a: TermId, b: TermId| {
                m.term(a).op == Op::Unary(Unary::Not) && m.term(a).args[0] == b
            };
            neg(x, y) || neg(y, x)
        };
        let t = match b {
            And if k.as_ref() == Some(&z) || complements(m) => ("and-zero", zero(m)),
            And if k.as_ref() == Some(&o) => ("and-ones", other),
            Or if k.as_ref() == Some(&o) || complements(m) => ("or-ones", ones(m)),
            Or | Xor if k.as_ref() == Some(&z) => ("or-zero", other),
            And | Or if x == y => ("idempotent", x),
            Xor if x == y => ("xor-self", zero(m)),
            Xor if k.as_ref() == Some(&o) => ("xor-ones", self.not(m, other)),
            Eq | Iff if x == y => ("eq-self", one_bit(m, true)),
            Neq if x == y => ("eq-self", one_bit(m, false)),
            Eq | Iff if w == 1 && k.is_some() => {
                let t = match k.as_ref().is_some_and(BitVec::is_true) {
                    true => other,
                    false => self.not(m, other),
                };
                ("eq-bit", t)
            }
            Neq => {
                let e = self.mk(m, Op::Binary(Eq), &[x, y]);
                ("neq-not-eq", self.not(m, e))
            }
            Add if k.as_ref() == Some(&z) => ("arith-identity", other),
            Sub if is(&cy, &z) => ("arith-identity", x),
            Sub if x == y => ("arith-identity", zero(m)),
            Mul if k.as_ref() == Some(&z) => ("arith-identity", zero(m)),
            Mul if k.as_ref() == Some(&one) => ("arith-identity", other),
            // `x * -1` (C's `abs` idiom): a negation, not a multiplier.
            Mul if k.as_ref() == Some(&o) && w > 1 => {
                ("mul-minus-one", self.mk(m, Op::Unary(Unary::Neg), &[other]))
            }
            // A product by 0 or 1 never overflows; by -1 (the `abs` idiom's `x * -1` again)
            // only at the least number: a comparison, not a multiplier one bit wider.
            // (At one bit, 1 is -1, and `-1 * -1` overflows.)
            Smulo | Umulo
                if self.narrow
                    && (k.as_ref() == Some(&z)
                        || (k.as_ref() == Some(&one) && (w > 1 || b == Umulo))) =>
            {
                ("mulo-trivial", one_bit(m, false))
            }
            Smulo if self.narrow && k.as_ref() == Some(&o) && w > 1 => {
                let mut least = BitVec::zero(w);
                least.set_bit(w - 1, true);
                let least = m.constant_term(least);
                (
                    "smulo-minus-one",
                    self.mk(m, Op::Binary(Eq), &[other, least]),
                )
            }
            Sll | Srl | Sra if cy.is_some() && cx.is_none() => {
                ("shift-const", self.shift(m, b, x, cy.as_ref()?))
            }
            Ult | Ugt | Ulte | Ugte => {
                return (self.unsigned_range(m, b, &cx, &cy)).or_else(|| self.narrow(m, b, x, y))
            }
            Eq => return self.eq(m, x, y).or_else(|| self.narrow(m, b, x, y)),
            Mul | Udiv | Urem | Sdiv | Srem | Smod => {
                return (self.by_divisor(m, b, x, y)).or_else(|| self.narrow(m, b, x, y))
            }
            _ => return self.narrow(m, b, x, y),
        };
        Some(t)
    }

    /// `x == y` split into the equalities of their parts: concatenations (of the same split,
    /// or against a constant) and zero-extensions against a constant.
    fn eq(&mut self, m: &mut Model, x: TermId, y: TermId) -> Option<(&'static str, TermId)> {
        let (a, b) = match m.constant(x) {
            Some(_) => (y, x),
            None => (x, y),
        };
        let (ta, tb) = (m.term(a).clone(), m.term(b).clone());
        let split =
            |m: &mut Model, t: &crate::wl::Term, t_id: TermId, wl: u32| -> (TermId, TermId) {
                let w = width(m, t_id);
                match (&t.op, m.constant(t_id).cloned()) {
                    (Op::Binary(Binary::Concat), _) if width(m, t.args[1]) == wl => {
                        (t.args[0], t.args[1])
                    }
                    (_, Some(k)) => {
                        let hi = m.constant_term(k.slice(w - 1, wl));
                        let lo = m.constant_term(k.slice(wl - 1, 0));
                        (hi, lo)
                    }
                    _ => unreachable!("only splittable terms are split"),
                }
            };
        match (&ta.op, &tb.op) {
            (Op::Binary(Binary::Concat), Op::Binary(Binary::Concat) | Op::Const(_)) => {
                let wl = width(m, ta.args[1]);
                if !matches!(tb.op, Op::Const(_)) && width(m, tb.args[1]) != wl {
                    return None;
                }
                let (bh, bl) = split(m, &tb, b, wl);
                let high = self.mk(m, Op::Binary(Binary::Eq), &[ta.args[0], bh]);
                let low = self.mk(m, Op::Binary(Binary::Eq), &[ta.args[1], bl]);
                Some((
                    "eq-concat",
                    self.mk(m, Op::Binary(Binary::And), &[high, low]),
                ))
            }
            (Op::Extend { signed: false, .. }, Op::Const(k)) => {
                let wi = width(m, ta.args[0]);
                let t = if k.slice(k.width() - 1, wi).is_zero() {
                    let low = m.constant_term(k.slice(wi - 1, 0));
                    self.mk(m, Op::Binary(Binary::Eq), &[ta.args[0], low])
                } else {
                    m.constant_term(BitVec::zero(1))
                };
                Some(("eq-extend", t))
            }
            _ => None,
        }
    }

    /// A shift by the constant `k`: the shifted bits wired, the vacated ones zero (or the sign).
    /// `k` read as the simulator reads it (a left shift's amount as btorsim does).
    fn shift(&mut self, m: &mut Model, b: Binary, x: TermId, k: &BitVec) -> TermId {
        let w = width(m, x);
        let by = match b {
            Binary::Sll => k.sll_amount(w),
            _ => k.srl_amount(w),
        };
        if by == w {
            return match b {
                Binary::Sra => {
                    let sign = self.slice_of(m, x, w - 1, w - 1);
                    self.mk(
                        m,
                        Op::Extend {
                            signed: true,
                            by: w - 1,
                        },
                        &[sign],
                    )
                }
                _ => m.constant_term(BitVec::zero(w)),
            };
        }
        if by == 0 {
            return x;
        }
        match b {
            Binary::Sll => {
                let kept = self.slice_of(m, x, w - 1 - by, 0);
                let zeros = m.constant_term(BitVec::zero(by));
                self.mk(m, Op::Binary(Binary::Concat), &[kept, zeros])
            }
            _ => {
                let kept = self.slice_of(m, x, w - 1, by);
                let signed = b == Binary::Sra;
                self.mk(m, Op::Extend { signed, by }, &[kept])
            }
        }
    }

    /// Unsigned comparisons against the bottom or the top of the range, decided.
    fn unsigned_range(
        &mut self,
        m: &mut Model,
        b: Binary,
        cx: &Option<BitVec>,
        cy: &Option<BitVec>,
    ) -> Option<(&'static str, TermId)> {
        use Binary::*;
        let is_zero = |c: &Option<BitVec>| c.as_ref().is_some_and(BitVec::is_zero);
        let is_ones =
            |c: &Option<BitVec>| c.as_ref().is_some_and(|v| *v == BitVec::ones(v.width()));
        // x < y is false when y is 0 or x is all ones; x <= y is true when x is 0 or y all ones.
        let value = match b {
            Ult if is_zero(cy) || is_ones(cx) => false,
            Ugt if is_zero(cx) || is_ones(cy) => false,
            Ulte if is_zero(cx) || is_ones(cy) => true,
            Ugte if is_zero(cy) || is_ones(cx) => true,
            _ => return None,
        };
        Some((
            "compare-range",
            m.constant_term(BitVec::from_u64(1, value as u64)),
        ))
    }
}

/// The operators whose arguments are sorted so that both orders share one term: the
/// Boolean ones only. (Sorting `add` and `mul` too cost 8,500 ANDs after preprocessing on
/// hku24bv_ILA_Ridecore_LBU_problem: their circuits are not symmetric in the operands, and
/// sorting broke sharing with the other arithmetic on the same words.)
fn commutative(b: Binary) -> bool {
    use Binary::*;
    matches!(b, And | Or | Xor | Nand | Nor | Xnor | Eq | Neq | Iff)
}

fn width(m: &Model, t: TermId) -> u32 {
    m.sort(t).bv_width().expect("a bit-vector term")
}
