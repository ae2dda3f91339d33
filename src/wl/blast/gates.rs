//! Word circuits over an [`Aig`]: the arithmetic the blaster builds from. Words are
//! `Vec<Lit>`, least significant bit first. The circuits are the textbook ones (ripple-carry
//! adders, shift-add multipliers, restoring dividers, barrel shifters), chosen because they
//! are small, easy to check, and fold well when operands are partly constant.

use crate::aig::{Aig, Lit};
use crate::wl::BitVec;

pub type Word = Vec<Lit>;

pub fn constant(v: &BitVec) -> Word {
    v.bits()
        .map(|b| if b { Lit::TRUE } else { Lit::FALSE })
        .collect()
}

pub fn not(a: &[Lit]) -> Word {
    a.iter().map(|&l| !l).collect()
}

/// `f` applied bit by bit.
pub fn zip(aig: &mut Aig, a: &[Lit], b: &[Lit], f: fn(&mut Aig, Lit, Lit) -> Lit) -> Word {
    a.iter().zip(b).map(|(&x, &y)| f(aig, x, y)).collect()
}

pub fn mux(aig: &mut Aig, c: Lit, t: &[Lit], e: &[Lit]) -> Word {
    t.iter().zip(e).map(|(&x, &y)| aig.mux(c, x, y)).collect()
}

pub fn eq(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Lit {
    let same: Vec<Lit> = a.iter().zip(b).map(|(&x, &y)| !aig.xor(x, y)).collect();
    aig.and_all(same)
}

pub fn is_zero(aig: &mut Aig, a: &[Lit]) -> Lit {
    !aig.or_all(a.iter().copied())
}

/// Ripple-carry `a + b + carry`: the sum and the carry out of the top bit.
pub fn add(aig: &mut Aig, a: &[Lit], b: &[Lit], mut carry: Lit) -> (Word, Lit) {
    let mut sum = Vec::with_capacity(a.len());
    for (&x, &y) in a.iter().zip(b) {
        let half = aig.xor(x, y);
        sum.push(aig.xor(half, carry));
        let both = aig.and(x, y);
        let propagated = aig.and(half, carry);
        carry = aig.or(both, propagated);
    }
    (sum, carry)
}

/// `a - b` and whether no borrow occurred (`a >= b` unsigned).
pub fn sub(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> (Word, Lit) {
    add(aig, a, &not(b), Lit::TRUE)
}

pub fn neg(aig: &mut Aig, a: &[Lit]) -> Word {
    let zero = vec![Lit::FALSE; a.len()];
    add(aig, &not(a), &zero, Lit::TRUE).0
}

/// Unsigned `a < b`, scanning from the least significant bit: the highest differing bit
/// decides.
pub fn ult(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Lit {
    let mut lt = Lit::FALSE;
    for (&x, &y) in a.iter().zip(b) {
        let differ = aig.xor(x, y);
        lt = aig.mux(differ, y, lt);
    }
    lt
}

/// Signed `a < b`: unsigned comparison with the sign bits swapped.
pub fn slt(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Lit {
    let flip = |w: &[Lit]| {
        let mut w = w.to_vec();
        let top = w.len() - 1;
        w[top] = !w[top];
        w
    };
    ult(aig, &flip(a), &flip(b))
}

/// Shift-add multiplier, truncated to the operand width.
pub fn mul(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Word {
    let w = a.len();
    let mut acc = vec![Lit::FALSE; w];
    for (i, &bi) in b.iter().enumerate() {
        let partial: Word = a[..w - i].iter().map(|&aj| aig.and(aj, bi)).collect();
        let (sum, _) = add(aig, &acc[i..], &partial, Lit::FALSE);
        acc.splice(i.., sum);
    }
    acc
}

/// Restoring division: quotient and remainder, with `a / 0 = ones` and `a % 0 = a` falling
/// out of the circuit itself (every trial subtraction of 0 succeeds).
pub fn udivrem(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> (Word, Word) {
    let w = a.len();
    let mut q = vec![Lit::FALSE; w];
    let mut r = vec![Lit::FALSE; w];
    let mut divisor = b.to_vec();
    divisor.push(Lit::FALSE);
    for i in (0..w).rev() {
        // The partial remainder is below the divisor, so shifted in it needs w + 1 bits.
        let mut shifted = Vec::with_capacity(w + 1);
        shifted.push(a[i]);
        shifted.extend_from_slice(&r);
        let (diff, fits) = sub(aig, &shifted, &divisor);
        q[i] = fits;
        r = mux(aig, fits, &diff[..w], &shifted[..w]);
    }
    (q, r)
}

fn abs(aig: &mut Aig, a: &[Lit]) -> Word {
    let negated = neg(aig, a);
    mux(aig, a[a.len() - 1], &negated, a)
}

/// The unsigned quotient and remainder of the magnitudes, and the two sign bits.
fn signed_parts(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> (Word, Word, Lit, Lit) {
    let (abs_a, abs_b) = (abs(aig, a), abs(aig, b));
    let (q, r) = udivrem(aig, &abs_a, &abs_b);
    (q, r, a[a.len() - 1], b[b.len() - 1])
}

/// SMT-LIB `bvsdiv`.
pub fn sdiv(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Word {
    let (q, _, sa, sb) = signed_parts(aig, a, b);
    let negated = neg(aig, &q);
    let differ = aig.xor(sa, sb);
    mux(aig, differ, &negated, &q)
}

/// SMT-LIB `bvsrem`: the sign of the dividend.
pub fn srem(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Word {
    let (_, r, sa, _) = signed_parts(aig, a, b);
    let negated = neg(aig, &r);
    mux(aig, sa, &negated, &r)
}

/// SMT-LIB `bvsmod`: the sign of the divisor. With `u = |a| % |b|` and `t = ±u` by the sign
/// of `a`, the result is `t + b` when the signs differ and `u != 0`, else `t`.
pub fn smod(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Word {
    let (_, u, sa, sb) = signed_parts(aig, a, b);
    let negated = neg(aig, &u);
    let t = mux(aig, sa, &negated, &u);
    let (shifted, _) = add(aig, &t, b, Lit::FALSE);
    let differ = aig.xor(sa, sb);
    let nonzero = !is_zero(aig, &u);
    let adjust = aig.and(differ, nonzero);
    mux(aig, adjust, &shifted, &t)
}

/// Barrel shifter by `amount` toward higher bits (`left`) or lower bits, filling with `fill`;
/// amounts of at least the width give all `fill`.
pub fn shift(aig: &mut Aig, a: &[Lit], amount: &[Lit], left: bool, fill: Lit) -> Word {
    let w = a.len();
    let mut out = a.to_vec();
    let mut too_far = Lit::FALSE;
    for (k, &bit) in amount.iter().enumerate() {
        let step = if k < usize::BITS as usize - 1 {
            1usize << k
        } else {
            usize::MAX
        };
        if step >= w {
            too_far = aig.or(too_far, bit);
            continue;
        }
        let moved: Word = (0..w)
            .map(|i| {
                let from = if left {
                    i.checked_sub(step)
                } else {
                    Some(i + step).filter(|&j| j < w)
                };
                from.map_or(fill, |j| out[j])
            })
            .collect();
        out = mux(aig, bit, &moved, &out);
    }
    let filled = vec![fill; w];
    mux(aig, too_far, &filled, &out)
}

/// BTOR2 `sll` as btorsim computes it ([`BitVec::sll`]): bits 32 to 63 of `amount` are not
/// read ([`BitVec::sll_amount_mask`]).
pub fn sll(aig: &mut Aig, a: &[Lit], amount: &[Lit]) -> Word {
    let mask = BitVec::sll_amount_mask(amount.len() as u32);
    let read: Word = (amount.iter().zip(mask.bits()))
        .map(|(&bit, kept)| if kept { bit } else { Lit::FALSE })
        .collect();
    shift(aig, a, &read, true, Lit::FALSE)
}

/// BTOR2 `rol` (`left`) or `ror` as btorsim computes it (see [`BitVec::rol`]): the shift by
/// `amount` or-ed with the opposite shift by `w - amount` (in the operands' sort), each giving
/// 0 from the width on, the left one [`sll`]. `amount` has the width of `a`.
pub fn rotate(aig: &mut Aig, a: &[Lit], amount: &[Lit], left: bool) -> Word {
    let width = constant(&BitVec::from_u64(a.len() as u32, a.len() as u64));
    let (rest, _) = sub(aig, &width, amount);
    let (by_left, by_right) = if left {
        (amount, &rest[..])
    } else {
        (&rest[..], amount)
    };
    let first = sll(aig, a, by_left);
    let second = shift(aig, a, by_right, false, Lit::FALSE);
    zip(aig, &first, &second, Aig::or)
}
