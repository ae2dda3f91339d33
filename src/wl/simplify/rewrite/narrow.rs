//! The rules on extensions (encoded C programs only, [`Rewriter::narrow`]): arithmetic and
//! comparisons of words that are extensions of narrower ones, done at the narrowest width
//! that holds their exact result, and the overflows that cannot happen there.

use super::{width, Rewriter};
use crate::wl::{Binary, BitVec, Model, Op, TermId};

impl Rewriter<'_> {
    /// `b` on two words that are extensions of narrower ones (or constants that fit fewer
    /// bits, [`Core`]), computed at the narrowest width that holds the exact result and
    /// extended back; an overflow that cannot happen at this width, `false`. A C program
    /// computes in `int` what its bounds keep small (`0 > (a - b) * (b - a)` with `a` and `b`
    /// in `0..=8`, once [`crate::cfa::narrow`] has made them extensions): a 12-bit product
    /// instead of a 32-bit one and a 33-bit overflow check.
    pub(super) fn narrow(
        &mut self,
        m: &mut Model,
        b: Binary,
        x: TermId,
        y: TermId,
    ) -> Option<(&'static str, TermId)> {
        use Binary::*;
        if !self.narrow {
            return None;
        }
        if let Some(r) = self.negated_square(m, b, x, y) {
            return Some(r);
        }
        let w = width(m, x);
        let (p, q) = (Core::of(m, x)?, Core::of(m, y)?);
        let (sp, sq) = (p.signed_width(), q.signed_width());
        let unsigned = !p.signed && !q.signed;
        let never = |m: &mut Model| ("narrow-overflow", m.constant_term(BitVec::zero(1)));
        match b {
            Add | Sub | Mul => {
                let to = match b {
                    Mul => sp + sq,
                    _ => sp.max(sq) + 1,
                };
                if to >= w {
                    return None;
                }
                let (a, c) = (self.widen(m, p, to), self.widen(m, q, to));
                let r = self.mk(m, Op::Binary(b), &[a, c]);
                let t = self.mk(
                    m,
                    Op::Extend {
                        signed: true,
                        by: w - to,
                    },
                    &[r],
                );
                Some(("narrow-arith", t))
            }
            Slt | Slte | Sgt | Sgte | Eq | Ult | Ulte | Ugt | Ugte => {
                let to = match b {
                    Ult | Ulte | Ugt | Ugte if unsigned => p.width.max(q.width),
                    Ult | Ulte | Ugt | Ugte => return None,
                    _ => sp.max(sq),
                };
                if to >= w {
                    return None;
                }
                let (a, c) = (self.widen(m, p, to), self.widen(m, q, to));
                Some(("narrow-compare", self.mk(m, Op::Binary(b), &[a, c])))
            }
            Saddo | Ssubo if sp.max(sq) < w => Some(never(m)),
            Smulo if sp + sq <= w => Some(never(m)),
            Uaddo if unsigned && p.width.max(q.width) < w => Some(never(m)),
            Umulo if unsigned && p.width + q.width <= w => Some(never(m)),
            _ => None,
        }
    }

    /// `(a - b) * (b - a) < 0` (or `0 > ...`) as `a != b`: the product is `-(a - b)^2`,
    /// negative exactly where the difference is not zero, when neither the differences
    /// (of extensions narrower than theirs: never the most negative number, whose negation
    /// is itself) nor the product (of extensions whose signed widths it holds) wrap. XCSP's
    /// C programs write a disequality so, and once narrowed, its product was most of their
    /// circuit (`Haystacks-14`: 724 of them, 10-bit multipliers).
    fn negated_square(
        &mut self,
        m: &mut Model,
        b: Binary,
        x: TermId,
        y: TermId,
    ) -> Option<(&'static str, TermId)> {
        let (product, zero) = match b {
            Binary::Slt => (x, y),
            Binary::Sgt => (y, x),
            _ => return None,
        };
        if !m.constant(zero).is_some_and(|c| c.is_zero()) {
            return None;
        }
        let t = m.term(product).clone();
        if t.op != Op::Binary(Binary::Mul) {
            return None;
        }
        let (p, q) = (Core::of(m, t.args[0])?, Core::of(m, t.args[1])?);
        let exact_product =
            p.signed && q.signed && p.signed_width() + q.signed_width() <= width(m, product);
        let difference = |m: &mut Model, c: Core| -> Option<(TermId, TermId)> {
            let d = m.term(c.term).clone();
            if d.op != Op::Binary(Binary::Sub) {
                return None;
            }
            let (u, v) = (Core::of(m, d.args[0])?, Core::of(m, d.args[1])?);
            let bits = match u.signed || v.signed {
                true => u.signed_width().max(v.signed_width()),
                false => u.width.max(v.width),
            };
            (bits < c.width).then_some((d.args[0], d.args[1]))
        };
        let (a, c) = difference(m, p)?;
        let (d, e) = difference(m, q)?;
        if !exact_product || (a, c) != (e, d) {
            return None;
        }
        Some((
            "negated-square",
            self.mk(m, Op::Binary(Binary::Neq), &[a, c]),
        ))
    }

    /// The word of `core` extended to `to` bits (at least its width).
    fn widen(&mut self, m: &mut Model, core: Core, to: u32) -> TermId {
        let Core {
            term,
            signed,
            width,
        } = core;
        self.mk(
            m,
            Op::Extend {
                signed,
                by: to - width,
            },
            &[term],
        )
    }
}

/// A word as the extension of a narrower one: an extension's operand, or a constant's
/// fewest bits (a zero-extension of a non-negative one, a sign-extension of a negative one).
#[derive(Clone, Copy)]
struct Core {
    term: TermId,
    signed: bool,
    width: u32,
}

impl Core {
    fn of(m: &mut Model, t: TermId) -> Option<Core> {
        let term = m.term(t).clone();
        match term.op {
            Op::Extend { signed, by } => Some(Core {
                term: term.args[0],
                signed,
                width: width(m, t) - by,
            }),
            Op::Const(c) => {
                let signed = c.msb();
                // The highest bit that differs from the sign: the fewest bits keep it and
                // (for a negative number) one sign bit above it.
                let top = (0..c.width()).rev().find(|&i| c.bit(i) != signed);
                let width = match (top, signed) {
                    (None, _) => 1,
                    (Some(i), false) => i + 1,
                    (Some(i), true) => i + 2,
                };
                Some(Core {
                    term: m.constant_term(c.slice(width - 1, 0)),
                    signed,
                    width,
                })
            }
            _ => None,
        }
    }

    /// The bits that hold its numbers as signed ones.
    fn signed_width(&self) -> u32 {
        self.width + u32::from(!self.signed)
    }
}
