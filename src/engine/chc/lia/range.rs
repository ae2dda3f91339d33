//! How a number that may leave its type's range is read: an overflow outside the exact
//! mode, wrapped around as the bit-vectors compute it in that mode.

use z3::ast::{Bool, Int};

use super::super::layout::{bounds, in_range, int, View, MAX_WIDTH};
use super::{Frame, Val};

/// How far outside its range an exact result may lie ([`Frame::fit`]).
#[derive(Clone, Copy)]
pub(super) enum Spill {
    /// Less than one modulus beyond either end: a sum or difference of two numbers in range,
    /// a negation, a number read in the other view.
    Once,
    /// Any distance: a product, a truncation.
    Far,
}

impl<'c> Frame<'c, '_> {
    /// `x`, a number of `from` at `width`, read in the view `to`: outside the exact mode the
    /// same number, and an overflow when it is outside `to`'s range (a negative index, an
    /// unsigned comparison of a negative number); in it, [`Frame::fit`]. The exact reading (`s + 2^w` for negative `s`) is an `ite`
    /// on every such read, and Spacer finds no invariant through those (a loop over an
    /// array's cells indexed by a signed counter: `unknown` after 20 s, proved in 0.2 s with
    /// the overflow instead).
    pub(super) fn recast(
        &self,
        x: Val<'c, Int<'c>>,
        from: View,
        to: View,
        width: u32,
    ) -> Val<'c, Int<'c>> {
        if from == to {
            return x;
        }
        self.fit(x.value, to, width, Spill::Once, &[&x.overflow])
    }

    /// The result `r` of an operation in `view` at `width` whose operands overflow when
    /// `parts` say. Outside the exact mode, `r` itself and an overflow when it leaves the
    /// range. In the exact mode, `r` wrapped into the range as the bit-vectors do, never an
    /// overflow of its own: the clauses are then the program's bit-vector semantics, with no
    /// overflow to ask about. Spacer needs the exact mode for a program that is safe only
    /// through unsigned wrap-around (`sum(n - 1, m + 1)` returning `n + m` modulo `2^32`),
    /// and it is slower everywhere else, so [`super::Horn`] asks it only when the other
    /// rounds failed. A result that `spill`s at most one modulus wraps by an `ite` (that
    /// loop: proved in 1 s; with `mod`, whose quotient Spacer must eliminate, not in 30 s).
    pub(super) fn fit(
        &self,
        r: Int<'c>,
        view: View,
        width: u32,
        spill: Spill,
        parts: &[&Bool<'c>],
    ) -> Val<'c, Int<'c>> {
        let ctx = self.ctx;
        if self.exact {
            let (lo, hi) = bounds(view, width);
            let modulus = int(ctx, 1i128 << width.min(MAX_WIDTH));
            let value = match spill {
                Spill::Once => {
                    let above = r.gt(&int(ctx, hi));
                    let below = r.lt(&int(ctx, lo));
                    let up = Int::add(ctx, &[&r, &modulus]);
                    let down = Int::sub(ctx, &[&r, &modulus]);
                    above.ite(&down, &below.ite(&up, &r))
                }
                Spill::Far => {
                    let shifted = Int::sub(ctx, &[&r, &int(ctx, lo)]);
                    Int::add(ctx, &[&shifted.modulo(&modulus), &int(ctx, lo)])
                }
            };
            return Val {
                value,
                overflow: self.any(parts),
            };
        }
        let out = in_range(ctx, &r, view, width).not();
        let mut all = parts.to_vec();
        all.push(&out);
        Val {
            overflow: self.any(&all),
            value: r,
        }
    }
}
