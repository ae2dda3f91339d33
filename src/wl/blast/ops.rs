//! The circuit of each bit-vector operator, from its operands' words.

use super::gates::{self, Word};
use crate::aig::{Aig, Lit};
use crate::wl::{Binary, Unary};

pub fn unary(aig: &mut Aig, op: Unary, a: &[Lit]) -> Word {
    let zero = vec![Lit::FALSE; a.len()];
    match op {
        Unary::Not => gates::not(a),
        Unary::Inc => gates::add(aig, a, &zero, Lit::TRUE).0,
        Unary::Dec => gates::add(aig, a, &gates::not(&zero), Lit::FALSE).0,
        Unary::Neg => gates::neg(aig, a),
        Unary::RedAnd => vec![aig.and_all(a.iter().copied())],
        Unary::RedOr => vec![aig.or_all(a.iter().copied())],
        Unary::RedXor => vec![a.iter().fold(Lit::FALSE, |acc, &l| aig.xor(acc, l))],
    }
}

/// The unsigned product of `a` and `b` at twice their width: the exact product, whose upper
/// half tells whether the truncated one overflowed.
fn wide_product(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Word {
    let extend = |w: &[Lit]| {
        let mut out = w.to_vec();
        out.resize(2 * w.len(), Lit::FALSE);
        out
    };
    gates::mul(aig, &extend(a), &extend(b))
}

/// Whether the signed product of `a` and `b` overflows, without the double-width product
/// (Boolector's encoding): with `a'` and `b'` the operands with their sign flipped into
/// their other bits (`|x|` or `|x| - 1`), the product overflows when a bit `i` of `a'` and a
/// bit `j >= w - 1 - i` of `b'` below the sign are both set, or else when the two top bits
/// of the `(w+1)`-bit product of the sign-extended operands differ. One multiplier one bit
/// wider than the operation's instead of one twice as wide: C's signed `*` is checked for
/// overflow on every product (the no-UB reading cuts those paths), and SV-COMP's `xcsp`
/// Haystacks tasks multiply 54 pairs of variables.
fn smulo(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Lit {
    let w = a.len();
    if w == 1 {
        return aig.and(a[0], b[0]);
    }
    let extend = |x: &[Lit]| [x, &[x[w - 1]]].concat();
    let p = gates::mul(aig, &extend(a), &extend(b));
    let top = aig.xor(p[w], p[w - 1]);
    if w == 2 {
        return top;
    }
    let flip =
        |aig: &mut Aig, x: &[Lit]| -> Word { x.iter().map(|&l| aig.xor(l, x[w - 1])).collect() };
    let (fa, fb) = (flip(aig, a), flip(aig, b));
    // `high[k]`: a bit of `b'` at `w - 2 - k` or above (below the sign).
    let mut high = vec![fb[w - 2]];
    for k in 1..w - 2 {
        let next = aig.or(high[k - 1], fb[w - 2 - k]);
        high.push(next);
    }
    let mut overflow = top;
    for k in 0..w - 2 {
        let both = aig.and(fa[k + 1], high[k]);
        overflow = aig.or(overflow, both);
    }
    overflow
}

pub fn binary(aig: &mut Aig, op: Binary, a: &[Lit], b: &[Lit]) -> Word {
    use Binary::*;
    let w = a.len();
    let sign = |x: &[Lit]| x[x.len() - 1];
    let bit = match op {
        Iff | Eq => gates::eq(aig, a, b),
        Neq => !gates::eq(aig, a, b),
        Implies => aig.or(!a[0], b[0]),
        Ult => gates::ult(aig, a, b),
        Ugt => gates::ult(aig, b, a),
        Ulte => !gates::ult(aig, b, a),
        Ugte => !gates::ult(aig, a, b),
        Slt => gates::slt(aig, a, b),
        Sgt => gates::slt(aig, b, a),
        Slte => !gates::slt(aig, b, a),
        Sgte => !gates::slt(aig, a, b),
        Uaddo => gates::add(aig, a, b, Lit::FALSE).1,
        Usubo => gates::ult(aig, a, b),
        Saddo | Ssubo => {
            let (result, b_sign) = if op == Saddo {
                (gates::add(aig, a, b, Lit::FALSE).0, sign(b))
            } else {
                (gates::sub(aig, a, b).0, !sign(b))
            };
            // Overflow: the operands (b negated for ssubo) agree in sign, the result does not.
            let agree = !aig.xor(sign(a), b_sign);
            let flipped = aig.xor(sign(&result), sign(a));
            aig.and(agree, flipped)
        }
        Sdivo => {
            let min: Vec<Lit> = (0..w)
                .map(|i| if i + 1 == w { a[i] } else { !a[i] })
                .collect();
            let both = [aig.and_all(min), aig.and_all(b.iter().copied())];
            aig.and_all(both)
        }
        Umulo => {
            let p = wide_product(aig, a, b);
            aig.or_all(p[w..].iter().copied())
        }
        Smulo => smulo(aig, a, b),
        _ => return word_op(aig, op, a, b),
    };
    vec![bit]
}

/// The operators whose result has the operands' width (or their sum, for `concat`).
fn word_op(aig: &mut Aig, op: Binary, a: &[Lit], b: &[Lit]) -> Word {
    use Binary::*;
    match op {
        And => gates::zip(aig, a, b, Aig::and),
        Or => gates::zip(aig, a, b, Aig::or),
        Xor => gates::zip(aig, a, b, Aig::xor),
        Nand => gates::not(&gates::zip(aig, a, b, Aig::and)),
        Nor => gates::not(&gates::zip(aig, a, b, Aig::or)),
        Xnor => gates::not(&gates::zip(aig, a, b, Aig::xor)),
        Add => gates::add(aig, a, b, Lit::FALSE).0,
        Sub => gates::sub(aig, a, b).0,
        Mul => gates::mul(aig, a, b),
        Udiv => gates::udivrem(aig, a, b).0,
        Urem => gates::udivrem(aig, a, b).1,
        Sdiv => gates::sdiv(aig, a, b),
        Srem => gates::srem(aig, a, b),
        Smod => gates::smod(aig, a, b),
        Sll => gates::sll(aig, a, b),
        Srl => gates::shift(aig, a, b, false, Lit::FALSE),
        Sra => gates::shift(aig, a, b, false, a[a.len() - 1]),
        Rol => gates::rotate(aig, a, b, true),
        Ror => gates::rotate(aig, a, b, false),
        Concat => b.iter().chain(a).copied().collect(),
        _ => unreachable!("{op:?} is a predicate"),
    }
}
