//! Division, remainder and products by constants and by one-hot words (every BTOR2 model).
//! Blasted, a divider of `w` bits is `w` subtractors of `w` bits, whatever its divisor; the
//! bit-level simplification removes what a constant divisor makes constant, not the divider
//! of a variable one. By 0 the result is a constant or the dividend; by `2^k` or `1 << k`
//! a division is wiring, a mask or a shifter and at most an incrementer (a signed quotient
//! rounds toward zero); and a dividend that is an extension is divided at its own width.
//! BEEM models translated to BTOR2 compute `i / 16` and `i % 16` of 32-bit words, read bit
//! `i` of a bit array as `(a & (1 << i)) / (1 << i)` under a test that `i` is below 32, and
//! take decimal digits (`x % 10`, `x % 100 / 10`) of 16-bit values held in 32-bit words.
//!
//! Each rule gives SMT-LIB's (and btorsim's) value on every operand, division by 0 and the
//! signed operators' negative cases included: a signed divisor `2^k` is rewritten only when
//! it is positive (`k <= w - 2`), a one-hot one takes the least number (`k = w - 1`) and 0
//! (`k >= w`) apart, and a narrowed signed division keeps its divisor positive at the narrow
//! width. The tests check every rule on every value of small words.

use super::{width, Rewriter};
use crate::wl::{Binary, BitVec, Model, Op, TermId, Unary};

impl Rewriter<'_> {
    /// `b(x, y)` for a division, a remainder or a product whose divisor (either factor) is
    /// a constant, a one-hot word or a choice between them that the rules below take.
    pub(super) fn by_divisor(
        &mut self,
        m: &mut Model,
        b: Binary,
        x: TermId,
        y: TermId,
    ) -> Option<(&'static str, TermId)> {
        use Binary::*;
        let w = width(m, x);
        let (x, c) = match (b, m.constant(x), m.constant(y)) {
            (_, None, Some(c)) => (x, c.clone()),
            (Mul, Some(c), None) => (y, c.clone()),
            (_, None, None) if b != Smod => {
                // A product's factors both serve as its divisor.
                let (x, d) = match self.divisor_rule(m, y) {
                    Some(d) => (x, d),
                    None if b == Mul => (y, self.divisor_rule(m, x)?),
                    None => return None,
                };
                return match d {
                    Divisor::Ite(c, t, e) => {
                        let t = self.mk(m, Op::Binary(b), &[x, t]);
                        let e = self.mk(m, Op::Binary(b), &[x, e]);
                        Some(("divide-ite", self.mk(m, Op::Ite, &[c, t, e])))
                    }
                    Divisor::OneHot { hot, amount } => self.by_one_hot(m, b, x, hot, amount),
                };
            }
            _ => return None,
        };
        if c.is_zero() {
            return self.by_zero(m, b, x);
        }
        if let Some(k) = power_of_two(&c) {
            // At `k = w - 1` the constant is negative as a signed number.
            let positive = k + 2 <= w;
            let t = match b {
                Mul if k > 0 => ("mul-pow2", self.shift_left(m, x, k)),
                Udiv => ("udiv-pow2", self.shift_right(m, x, k, false)),
                Urem => ("rem-pow2", self.low_bits(m, x, k)),
                Smod if positive => ("rem-pow2", self.low_bits(m, x, k)),
                Sdiv if positive => ("sdiv-pow2", self.signed_quotient(m, x, k)),
                Srem if positive => ("srem-pow2", self.signed_remainder(m, x, k)),
                _ => return None,
            };
            return Some(t);
        }
        self.narrow_dividend(m, b, x, &c)
    }

    /// Division by 0 (a product by 0 is an identity of its own): the quotient is all ones
    /// (a negative dividend's signed quotient 1), the remainder the dividend.
    fn by_zero(&mut self, m: &mut Model, b: Binary, x: TermId) -> Option<(&'static str, TermId)> {
        let w = width(m, x);
        let t = match b {
            Binary::Udiv => m.constant_term(BitVec::ones(w)),
            Binary::Urem | Binary::Srem | Binary::Smod => x,
            Binary::Sdiv => {
                let sign = self.slice_of(m, x, w - 1, w - 1);
                let one = m.constant_term(BitVec::from_u64(w, 1));
                let ones = m.constant_term(BitVec::ones(w));
                self.mk(m, Op::Ite, &[sign, one, ones])
            }
            _ => return None,
        };
        Some(("divide-zero", t))
    }

    /// What a divisor (or factor) `d` is to the rules: a choice between a constant that the
    /// constant rules take and another such divisor, or a one-hot word `1 << k` (0 when `k`
    /// is the width or more). Simulated bit arrays divide by `1 << (i % 32)` under a test
    /// that `i % 32` is below 32.
    fn divisor_rule(&self, m: &Model, d: TermId) -> Option<Divisor> {
        let t = m.term(d);
        let w = width(m, d);
        match t.op {
            Op::Binary(Binary::Sll)
                if (3..=MAX_ONE_HOT).contains(&w)
                    && m.constant(t.args[0]) == Some(&BitVec::from_u64(w, 1)) =>
            {
                Some(Divisor::OneHot {
                    hot: d,
                    amount: t.args[1],
                })
            }
            Op::Ite => {
                let taken = |a: TermId| match m.constant(a) {
                    Some(c) => c.is_zero() || power_of_two(c).is_some(),
                    None => self.divisor_rule(m, a).is_some(),
                };
                let (c, th, el) = (t.args[0], t.args[1], t.args[2]);
                let one_constant = m.constant(th).is_some() || m.constant(el).is_some();
                (one_constant && taken(th) && taken(el)).then_some(Divisor::Ite(c, th, el))
            }
            _ => None,
        }
    }

    /// `b(x, hot)` for `hot = 1 << k`, 0 when `k` is the width or more: shifts and masks,
    /// not a divider. `x % hot` is `x & (hot - 1)` (`x` when `hot` is 0); the signed
    /// remainder is that mask's bits with ones above them for a negative `x` with a
    /// remainder (the dividend itself when `hot` is the least number); the signed quotient
    /// rounds the arithmetic shift toward zero, and at `k = w - 1` (the least number) and
    /// `k >= w` (zero) it takes the values of those divisors.
    fn by_one_hot(
        &mut self,
        m: &mut Model,
        b: Binary,
        x: TermId,
        hot: TermId,
        k: TermId,
    ) -> Option<(&'static str, TermId)> {
        use Binary::*;
        let w = width(m, x);
        let konst = |m: &mut Model, v: u64| m.constant_term(BitVec::from_u64(w, v));
        // The bits of `x` below the one (all of them when `hot` is 0), and whether `x` is
        // negative with some of them set.
        let low_bits = |this: &mut Self, m: &mut Model| {
            let one = konst(m, 1);
            let mask = this.mk(m, Op::Binary(Sub), &[hot, one]);
            let low = this.mk(m, Op::Binary(And), &[x, mask]);
            let sign = this.slice_of(m, x, w - 1, w - 1);
            let any = this.mk(m, Op::Unary(Unary::RedOr), &[low]);
            let rounded_down = this.mk(m, Op::Binary(And), &[sign, any]);
            (mask, low, rounded_down)
        };
        let t = match b {
            Mul => ("mul-one-hot", self.mk(m, Op::Binary(Sll), &[x, k])),
            Urem => ("urem-one-hot", low_bits(self, m).1),
            Udiv => {
                let width_k = konst(m, w.into());
                let inside = self.mk(m, Op::Binary(Ult), &[k, width_k]);
                let shifted = self.mk(m, Op::Binary(Srl), &[x, k]);
                let ones = m.constant_term(BitVec::ones(w));
                (
                    "udiv-one-hot",
                    self.mk(m, Op::Ite, &[inside, shifted, ones]),
                )
            }
            Srem => {
                let (mask, low, rounded_down) = low_bits(self, m);
                let above = self.mk(m, Op::Unary(Unary::Not), &[mask]);
                let negative = self.mk(m, Op::Binary(Or), &[low, above]);
                let t = self.mk(m, Op::Ite, &[rounded_down, negative, low]);
                ("srem-one-hot", t)
            }
            Sdiv => {
                let rounded_down = low_bits(self, m).2;
                let floor = self.mk(m, Op::Binary(Sra), &[x, k]);
                let by = w - 1;
                let up = self.mk(m, Op::Extend { signed: false, by }, &[rounded_down]);
                let positive = self.mk(m, Op::Binary(Add), &[floor, up]);
                let least = konst(m, 1 << (w - 1));
                let is_least = self.mk(m, Op::Binary(Eq), &[x, least]);
                let by_least = self.mk(m, Op::Extend { signed: false, by }, &[is_least]);
                let by_zero = self.by_zero(m, Sdiv, x)?.1;
                let top = konst(m, (w - 1).into());
                let below_top = self.mk(m, Op::Binary(Ult), &[k, top]);
                let at_top = self.mk(m, Op::Binary(Eq), &[k, top]);
                let otherwise = self.mk(m, Op::Ite, &[at_top, by_least, by_zero]);
                let t = self.mk(m, Op::Ite, &[below_top, positive, otherwise]);
                ("sdiv-one-hot", t)
            }
            _ => return None,
        };
        Some(t)
    }

    /// A division or remainder of an extended word by a positive constant that fits the
    /// word, done at the word's own width and extended back: the exact quotient and
    /// remainder are no larger in magnitude than the dividend and the divisor. A
    /// zero-extended dividend is non-negative, so there the signed operators are the
    /// unsigned ones; a sign-extended one keeps the signed operators (a divisor positive at
    /// the narrow width, so never the least number divided by -1).
    fn narrow_dividend(
        &mut self,
        m: &mut Model,
        b: Binary,
        x: TermId,
        c: &BitVec,
    ) -> Option<(&'static str, TermId)> {
        use Binary::*;
        let w = width(m, x);
        let term = m.term(x).clone();
        let Op::Extend { signed, by } = term.op else {
            return None;
        };
        if by == 0 || c.is_zero() {
            return None;
        }
        let (a, wa) = (term.args[0], w - by);
        let narrow = match (signed, b) {
            (false, Udiv | Urem) => b,
            (false, Sdiv) if !c.msb() => Udiv,
            (false, Srem | Smod) if !c.msb() => Urem,
            (true, Sdiv | Srem | Smod) if wa >= 2 => b,
            _ => return None,
        };
        // The divisor's bits above the narrow word (and, for a signed one, its sign there).
        let top = if signed { wa - 1 } else { wa };
        if !c.slice(w - 1, top).is_zero() {
            return None; // it does not fit the narrow word (rare: left as it is)
        }
        let ca = m.constant_term(c.slice(wa - 1, 0));
        let r = self.mk(m, Op::Binary(narrow), &[a, ca]);
        let t = self.mk(m, Op::Extend { signed, by }, &[r]);
        Some(("divide-narrow", t))
    }

    /// `x / 2^k` rounded toward zero, for `k <= w - 2`: the shift rounds toward minus
    /// infinity, so a negative `x` with a remainder gets one more.
    fn signed_quotient(&mut self, m: &mut Model, x: TermId, k: u32) -> TermId {
        if k == 0 {
            return x;
        }
        let w = width(m, x);
        let floor = self.shift_right(m, x, k, true);
        let short = self.rounded_down(m, x, k);
        let one = self.mk(
            m,
            Op::Extend {
                signed: false,
                by: w - 1,
            },
            &[short],
        );
        self.mk(m, Op::Binary(Binary::Add), &[floor, one])
    }

    /// The remainder of `x / 2^k` rounded toward zero, for `k <= w - 2`: the low bits of
    /// `x`, which for a negative `x` with a remainder stand for that remainder minus `2^k`,
    /// so the bits above them are ones.
    fn signed_remainder(&mut self, m: &mut Model, x: TermId, k: u32) -> TermId {
        let w = width(m, x);
        if k == 0 {
            return m.constant_term(BitVec::zero(w));
        }
        let short = self.rounded_down(m, x, k);
        let high = self.mk(
            m,
            Op::Extend {
                signed: true,
                by: w - k - 1,
            },
            &[short],
        );
        let low = self.slice_of(m, x, k - 1, 0);
        self.mk(m, Op::Binary(Binary::Concat), &[high, low])
    }

    /// Whether `x >> k` (signed) rounds `x / 2^k` down rather than toward zero: `x` is
    /// negative and its `k` low bits are not all zero.
    fn rounded_down(&mut self, m: &mut Model, x: TermId, k: u32) -> TermId {
        let w = width(m, x);
        let sign = self.slice_of(m, x, w - 1, w - 1);
        let low = self.slice_of(m, x, k - 1, 0);
        let any = self.mk(m, Op::Unary(Unary::RedOr), &[low]);
        self.mk(m, Op::Binary(Binary::And), &[sign, any])
    }

    fn shift_left(&mut self, m: &mut Model, x: TermId, k: u32) -> TermId {
        let w = width(m, x);
        self.shift(m, Binary::Sll, x, &BitVec::from_u64(w, k.into()))
    }

    fn shift_right(&mut self, m: &mut Model, x: TermId, k: u32, signed: bool) -> TermId {
        let w = width(m, x);
        let b = if signed { Binary::Sra } else { Binary::Srl };
        self.shift(m, b, x, &BitVec::from_u64(w, k.into()))
    }

    /// `x mod 2^k`: its `k` low bits, zero-extended.
    fn low_bits(&mut self, m: &mut Model, x: TermId, k: u32) -> TermId {
        let w = width(m, x);
        if k == 0 {
            return m.constant_term(BitVec::zero(w));
        }
        let low = self.slice_of(m, x, k - 1, 0);
        self.mk(
            m,
            Op::Extend {
                signed: false,
                by: w - k,
            },
            &[low],
        )
    }
}

/// The widest word whose one-hot divisors are rewritten: up to 32 bits a left shift's amount
/// is read as a right shift's is (btorsim cuts a left shift's amount to 32 bits).
const MAX_ONE_HOT: u32 = 32;

/// A divisor [`Rewriter::divisor_rule`] takes.
enum Divisor {
    /// `ite(c, t, e)`, one of `t` and `e` a constant, the other a constant or a divisor.
    Ite(TermId, TermId, TermId),
    /// `hot`, which is `1 << amount`.
    OneHot { hot: TermId, amount: TermId },
}

/// `k` when `c` is `2^k`.
fn power_of_two(c: &BitVec) -> Option<u32> {
    let mut ones = (0..c.width()).filter(|&i| c.bit(i));
    match (ones.next(), ones.next()) {
        (Some(k), None) => Some(k),
        _ => None,
    }
}
