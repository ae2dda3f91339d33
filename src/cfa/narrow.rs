//! Words narrowed where an edge's guard bounds them: a C program keeps its numbers in `int`
//! and bounds them with `assume(0 <= x && x <= 8)`; past that guard `x` is the
//! zero-extension of its low four bits, and written so, the word-level rewriter
//! (`narrow-*` rules of [`crate::wl::simplify`]) computes what is built from it at the
//! narrowest width that holds it (SV-COMP's xcsp tasks: `0 > (a - b) * (b - a)` a 12-bit
//! product instead of a 32-bit one with a 33-bit overflow check).
//!
//! Sound edge by edge: the bounding conjuncts of the guard are kept as they are, and every
//! other conjunct and every assignment (read only when the guard holds) reads the narrowed
//! term, equal to the original wherever those conjuncts hold. The narrowed CFA fires the same
//! edges with the same values from every state; only its terms differ.

use rustc_hash::FxHashMap;

use super::subst::substitute;
use super::Cfa;
use crate::wl::{Binary, BitVec, Model, Op, TermId, Unary};

/// `cfa` with every edge's bounded words narrowed; returns it and how many words were.
pub fn narrowed(cfa: &Cfa) -> (Cfa, usize) {
    let mut out = cfa.clone();
    let mut count = 0;
    for e in 0..out.edges.len() {
        let m = &mut out.terms;
        let conjuncts = conjuncts(m, out.edges[e].guard);
        let bounded: Vec<Option<(TermId, Bounds)>> =
            conjuncts.iter().map(|&c| bound(m, c)).collect();
        let mut bounds: FxHashMap<TermId, Bounds> = FxHashMap::default();
        for &(t, b) in bounded.iter().flatten() {
            bounds.entry(t).or_default().meet(b);
        }
        let map: FxHashMap<TermId, TermId> = (bounds.iter())
            .filter_map(|(&t, b)| Some((t, narrow(m, t, b)?)))
            .collect();
        if map.is_empty() {
            continue;
        }
        // The conjuncts that bound a narrowed word read it as it is; the others (a bound
        // of a word left wide among them) read the narrowed words.
        let bounding = bounded
            .iter()
            .map(|b| b.is_some_and(|(t, _)| map.contains_key(&t)));
        count += map.len();
        let mut memo = FxHashMap::default();
        let mut guard: Option<TermId> = None;
        for (&c, keep) in conjuncts.iter().zip(bounding) {
            let c = match keep {
                true => c,
                false => substitute(m, c, &map, &mut memo),
            };
            guard = Some(match guard {
                None => c,
                Some(g) => (m.apply(Op::Binary(Binary::And), &[g, c])).expect("1-bit conjuncts"),
            });
        }
        let edge = &mut out.edges[e];
        edge.guard = guard.expect("a guard has a conjunct");
        for (_, t) in &mut edge.assigns {
            *t = substitute(m, *t, &map, &mut memo);
        }
    }
    (out, count)
}

/// The conjuncts of the 1-bit term `t` (itself when it is no conjunction), a negated
/// disjunction read as the conjunction of the negations, through C's truth values: the
/// front end writes `if (a < 0 || a > 8) return 0;` as `!((int)(p || q) != 0)` with `p` and
/// `q` truth values again.
fn conjuncts(m: &mut Model, t: TermId) -> Vec<TermId> {
    let mut out = Vec::new();
    let mut stack = vec![t];
    while let Some(u) = stack.pop() {
        let (inner, holds) = peel(m, u);
        let term = m.term(inner).clone();
        match term.op {
            Op::Binary(Binary::And) if holds => {
                stack.push(term.args[1]);
                stack.push(term.args[0]);
            }
            Op::Binary(Binary::Or) if !holds => {
                for &d in term.args.iter().rev() {
                    stack.push(m.apply(Op::Unary(Unary::Not), &[d]).expect("a 1-bit term"));
                }
            }
            _ => out.push(u),
        }
    }
    out
}

/// The 1-bit term `t` is, and whether it holds where that term does (`false`: where it does
/// not): through negations and comparisons of C truth values with zero.
fn peel(m: &Model, t: TermId) -> (TermId, bool) {
    let (mut t, mut holds) = (t, true);
    loop {
        let term = m.term(t);
        match term.op {
            Op::Unary(Unary::Not) => {
                holds = !holds;
                t = term.args[0];
            }
            Op::Binary(b @ (Binary::Eq | Binary::Neq)) => {
                let zero = |a: TermId| m.constant(a).is_some_and(BitVec::is_zero);
                let other = match (zero(term.args[0]), zero(term.args[1])) {
                    (false, true) => term.args[0],
                    (true, false) => term.args[1],
                    _ => return (t, holds),
                };
                let Some(truth) = truth(m, other) else {
                    return (t, holds);
                };
                holds ^= b == Binary::Eq;
                t = truth;
            }
            _ => return (t, holds),
        }
    }
}

/// What the conjuncts of one guard say of a word: its least and greatest value as a signed
/// and as an unsigned number, where they say it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Bounds {
    signed_lo: Option<i128>,
    signed_hi: Option<i128>,
    unsigned_hi: Option<i128>,
}

impl Bounds {
    fn meet(&mut self, o: Bounds) {
        let tighter = |a: Option<i128>, b: Option<i128>, pick: fn(i128, i128) -> i128| match (a, b)
        {
            (Some(a), Some(b)) => Some(pick(a, b)),
            (a, b) => a.or(b),
        };
        self.signed_lo = tighter(self.signed_lo, o.signed_lo, i128::max);
        self.signed_hi = tighter(self.signed_hi, o.signed_hi, i128::min);
        self.unsigned_hi = tighter(self.unsigned_hi, o.unsigned_hi, i128::min);
    }
}

/// The word a conjunct bounds by a constant, and the bound: a comparison, negated or not,
/// also as C's truth value of it (`(int)(x <= 8) != 0`).
fn bound(m: &Model, c: TermId) -> Option<(TermId, Bounds)> {
    let (t, holds) = peel(m, c);
    let term = m.term(t);
    let Op::Binary(b) = term.op else { return None };
    let (x, y) = (term.args[0], term.args[1]);
    // `k < x` read as `x > k`.
    let (word, k, b) = match (m.constant(x), m.constant(y)) {
        (None, Some(k)) => (x, k, b),
        (Some(k), None) => (y, k, mirror(b)?),
        _ => return None,
    };
    let w = k.width();
    if !(2..=64).contains(&w) {
        return None;
    }
    let b = if holds { b } else { negate(b)? };
    let (s, u) = (k.to_i128(true)?, k.to_i128(false)?);
    let mut out = Bounds::default();
    match b {
        Binary::Slt => out.signed_hi = Some(s - 1),
        Binary::Slte => out.signed_hi = Some(s),
        Binary::Sgt => out.signed_lo = Some(s + 1),
        Binary::Sgte => out.signed_lo = Some(s),
        Binary::Ult => out.unsigned_hi = Some(u - 1),
        Binary::Ulte => out.unsigned_hi = Some(u),
        _ => return None,
    }
    Some((word, out))
}

/// The 1-bit term whose C truth value `t` is: `t` itself, or the one it extends.
fn truth(m: &Model, t: TermId) -> Option<TermId> {
    let term = m.term(t);
    match term.op {
        _ if width(m, t) == 1 => Some(t),
        Op::Extend { .. } if width(m, term.args[0]) == 1 => Some(term.args[0]),
        _ => None,
    }
}

/// `b` with its operands swapped.
fn mirror(b: Binary) -> Option<Binary> {
    use Binary::*;
    Some(match b {
        Slt => Sgt,
        Slte => Sgte,
        Sgt => Slt,
        Sgte => Slte,
        Ult => Ugt,
        Ulte => Ugte,
        Ugt => Ult,
        Ugte => Ulte,
        _ => return None,
    })
}

/// The comparison that holds where `b` does not.
fn negate(b: Binary) -> Option<Binary> {
    use Binary::*;
    Some(match b {
        Slt => Sgte,
        Slte => Sgt,
        Sgt => Slte,
        Sgte => Slt,
        Ult => Ugte,
        Ulte => Ugt,
        Ugt => Ulte,
        Ugte => Ult,
        _ => return None,
    })
}

/// `t` as the extension of its fewest low bits that hold every value `b` allows, if fewer
/// than its own.
fn narrow(m: &mut Model, t: TermId, b: &Bounds) -> Option<TermId> {
    let w = width(m, t);
    // The bits of `hi`, a non-negative number; of the signed range `lo..=hi`.
    let unsigned_bits = |hi: i128| (128 - hi.max(1).leading_zeros()).max(1);
    let signed_bits = |lo: i128, hi: i128| {
        (1..=w)
            .find(|&k| -(1i128 << (k - 1)) <= lo && hi < (1i128 << (k - 1)))
            .unwrap_or(w)
    };
    let mut options = Vec::new();
    if let Some(hi) = b.unsigned_hi.filter(|&hi| hi >= 0) {
        options.push((unsigned_bits(hi), false));
    }
    if let (Some(lo), Some(hi)) = (b.signed_lo, b.signed_hi) {
        match lo >= 0 {
            true => options.push((unsigned_bits(hi.max(0)), false)),
            false => options.push((signed_bits(lo, hi.max(lo)), true)),
        }
    }
    let (k, signed) = options.into_iter().min()?;
    if k >= w {
        return None;
    }
    let low = m
        .apply(
            Op::Slice {
                upper: k - 1,
                lower: 0,
            },
            &[t],
        )
        .ok()?;
    m.apply(Op::Extend { signed, by: w - k }, &[low]).ok()
}

fn width(m: &Model, t: TermId) -> u32 {
    m.sort(t).bv_width().unwrap_or(0)
}
