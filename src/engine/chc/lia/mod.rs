//! The terms of a CFA as linear integer arithmetic over Z3, for the Horn clauses of
//! [`super`].
//!
//! Bit-level engines find invariants over bits; a loop counter bounded by an input (`i < n`)
//! or a copied array element needs one over numbers. Spacer finds those over integers, and
//! bit-vector arithmetic with its wrap-around (an `ite` per operation) keeps it from finding
//! them at all (measured: `array_init_nondet_vars` cell-abstracted, 0.4 s over integers,
//! `unknown` after 30 s with exact wrap-around or over bit-vectors). So terms become
//! integers *without* wrap-around, and every operation whose exact result leaves the range
//! of its type is an **overflow** that the clauses treat as an error of its own:
//!
//! - a word of width `w` is read as a number in one of two [`View`]s, signed
//!   (`-2^(w-1) ..< 2^(w-1)`) or unsigned (`0 ..< 2^w`); a variable in the view its C type
//!   gives, an operation in the view of its operands (a C operation's operands have one
//!   type), a comparison in the view its operator names. A number read in the other view
//!   keeps its value, and one outside that view's range is an overflow too (see
//!   [`Frame::recast`]);
//! - [`Val::overflow`] is when computing the term leaves a range (through an `ite`, only in
//!   the branch taken; through a conjunction of bits, only where no operand is false
//!   without overflowing). When no reachable state overflows (the clauses prove it), every
//!   reachable step computes the same numbers as the bit-vectors do, so the integer program
//!   and the C program have the same runs: safety of one is safety of the other;
//! - an operation outside linear arithmetic (a product of two variables, division by a
//!   variable, bitwise operations on words, concatenation) is a **fresh value** of its range:
//!   every value the program could compute is one of them, an over-approximation, sound for a
//!   proof;
//! - an array is abstracted to one **cell** ([`cells`]).
//!
//! The **exact** mode ([`Frame::new`]'s `exact`) is the last resort of a program safe only
//! because its numbers wrap around: every result is reduced into its range as the
//! bit-vectors compute it, and nothing overflows ([`range`]).

mod cells;
mod range;

use std::collections::HashMap;

use z3::ast::{Ast, Bool, Dynamic, Int};
use z3::Context;

use super::layout::{any, bounds, in_range, int, numeral, Layout, View};
use crate::cfa::Cfa;
use crate::wl::{Binary, Op, Sort, TermId, Unary};
use range::Spill;

/// When a conjunction of `p` and `q` may differ from the bit-vectors' value: when an
/// operand overflows and neither is false without overflowing. So a block's guard
/// `S > 1 && S < 2^30 && 2 * S <= n` does not overflow where its first conditions cut the
/// path, whatever the order of its operands: where an operand that computes the same in
/// both is false, both are, which is all [`Val::overflow`] must say. (Disjunctions keep
/// the plain rule, any operand's overflow: Z3 4.8.12's Spacer, given the refined rule for
/// them too, no longer proved `i != n || s != 2 * n` after a counting loop in 20 s.)
fn cut_unless<'c>(ctx: &'c Context, p: &Val<'c, Bool<'c>>, q: &Val<'c, Bool<'c>>) -> Bool<'c> {
    let cuts = |v: &Val<'c, Bool<'c>>| Bool::and(ctx, &[&v.value.not(), &v.overflow.not()]);
    let either = Bool::or(ctx, &[&p.overflow, &q.overflow]);
    Bool::and(ctx, &[&either, &cuts(p).not(), &cuts(q).not()])
}

/// A translated term: its value and when computing it overflows.
#[derive(Clone)]
pub struct Val<'c, T> {
    pub value: T,
    pub overflow: Bool<'c>,
}

/// The translation of the terms of one clause: the state it reads, the nondet values and
/// fresh values it draws (with their ranges).
pub struct Frame<'c, 'a> {
    ctx: &'c Context,
    cfa: &'a Cfa,
    layout: &'a Layout,
    state: &'a [Dynamic<'c>],
    /// Constants the clause draws (inputs, fresh values): quantified with the state.
    pub drawn: Vec<Dynamic<'c>>,
    /// The ranges of the drawn values.
    pub side: Vec<Bool<'c>>,
    natural: HashMap<TermId, Option<View>>,
    nums: HashMap<(TermId, View), Val<'c, Int<'c>>>,
    bits: HashMap<TermId, Val<'c, Bool<'c>>>,
    cells: HashMap<(TermId, View), Val<'c, Dynamic<'c>>>,
    /// Whether results wrap around as the bit-vectors do (see [`Frame::fit`]).
    exact: bool,
}

impl<'c, 'a> Frame<'c, 'a> {
    pub fn new(
        ctx: &'c Context,
        cfa: &'a Cfa,
        layout: &'a Layout,
        state: &'a [Dynamic<'c>],
        exact: bool,
    ) -> Frame<'c, 'a> {
        Frame {
            ctx,
            cfa,
            layout,
            state,
            drawn: Vec::new(),
            side: Vec::new(),
            natural: HashMap::new(),
            nums: HashMap::new(),
            bits: HashMap::new(),
            cells: HashMap::new(),
            exact,
        }
    }

    fn width(&self, t: TermId) -> u32 {
        match self.cfa.terms.sort(t) {
            Sort::Bv(w) => w,
            Sort::Array { element, .. } => element,
        }
    }

    fn no(&self) -> Bool<'c> {
        Bool::from_bool(self.ctx, false)
    }

    fn any(&self, overflows: &[&Bool<'c>]) -> Bool<'c> {
        any(self.ctx, overflows)
    }

    /// Whether the program computes a sum, difference, product, negation or left shift of
    /// unsigned words, the wrap-around that C defines: where it does not, the exact mode
    /// differs only in conversions, and [`super::Horn`] does not spend its time on it.
    pub fn computes_unsigned(&mut self) -> bool {
        (0..self.cfa.terms.num_terms()).any(|t| {
            let t = TermId(t as u32);
            let wraps = matches!(
                self.cfa.terms.term(t).op,
                Op::Binary(Binary::Add | Binary::Sub | Binary::Mul | Binary::Sll)
                    | Op::Unary(Unary::Neg | Unary::Inc | Unary::Dec)
            );
            wraps && self.width(t) > 1 && self.natural(t) == Some(View::Unsigned)
        })
    }

    /// The view the program computes `t` in: a variable's and an input's own, an operation's
    /// the first operand's that has one (`None`: constants and truncations, which fit any).
    fn natural(&mut self, t: TermId) -> Option<View> {
        if let Some(&v) = self.natural.get(&t) {
            return v;
        }
        let term = self.cfa.terms.term(t).clone();
        let view = match term.op {
            Op::Const(_) => None,
            Op::State(i) => Some(self.layout.views[i]),
            Op::Input(j) => Some(match self.cfa.nondets[j].signed {
                true => View::Signed,
                false => View::Unsigned,
            }),
            // A truncation keeps the number in whatever view it is read (an array index is
            // read unsigned, the same bits of a signed counter).
            Op::Slice { .. } => None,
            Op::Extend { signed: true, .. } => Some(View::Signed),
            Op::Extend { signed: false, .. } => Some(View::Unsigned),
            Op::Read => self.natural(term.args[0]),
            Op::Ite => {
                let then = self.natural(term.args[1]);
                then.or_else(|| self.natural(term.args[2]))
            }
            _ => (term.args.iter()).find_map(|&a| self.natural(a)),
        };
        self.natural.insert(t, view);
        view
    }

    fn view_of(&mut self, t: TermId) -> View {
        self.natural(t).unwrap_or(View::Signed)
    }

    /// A value of `t`'s width, in `view`, about which nothing is known but its range.
    fn fresh_num(&mut self, view: View, width: u32) -> Val<'c, Int<'c>> {
        let x = Int::fresh_const(self.ctx, "f");
        self.side.push(in_range(self.ctx, &x, view, width));
        self.drawn.push(Dynamic::from_ast(&x));
        Val {
            value: x,
            overflow: self.no(),
        }
    }

    fn fresh_bit(&mut self) -> Val<'c, Bool<'c>> {
        let b = Bool::fresh_const(self.ctx, "f");
        self.drawn.push(Dynamic::from_ast(&b));
        Val {
            value: b,
            overflow: self.no(),
        }
    }

    /// A value of the element sort of array term `t`, about which nothing is known.
    fn fresh_element(&mut self, t: TermId, view: View) -> Val<'c, Dynamic<'c>> {
        match self.width(t) {
            1 => dynamic(self.fresh_bit()),
            w => dynamic(self.fresh_num(view, w)),
        }
    }

    /// The value of the one-bit or word term `t` (a word in `view`).
    pub fn value(&mut self, t: TermId, view: View) -> Val<'c, Dynamic<'c>> {
        match self.cfa.terms.sort(t) {
            Sort::Bv(1) => dynamic(self.bit(t)),
            Sort::Bv(_) => dynamic(self.num(t, view)),
            Sort::Array { .. } => self.cell(t, view),
        }
    }

    /// The view of variable `i` (of its elements, for an array).
    pub fn var_view(&self, i: usize) -> View {
        self.layout.views[i]
    }

    /// The one-bit term `t` as a Boolean.
    pub fn bit(&mut self, t: TermId) -> Val<'c, Bool<'c>> {
        if let Some(v) = self.bits.get(&t) {
            return v.clone();
        }
        let v = self.bit_uncached(t);
        self.bits.insert(t, v.clone());
        v
    }

    fn bit_uncached(&mut self, t: TermId) -> Val<'c, Bool<'c>> {
        let ctx = self.ctx;
        let term = self.cfa.terms.term(t).clone();
        let a = term.args.first().copied();
        let exact = |value: Bool<'c>, overflow: Bool<'c>| Val { value, overflow };
        match term.op {
            Op::Const(c) => exact(
                Bool::from_bool(ctx, c.bits().next() == Some(true)),
                self.no(),
            ),
            Op::State(i) => exact(self.state[i].as_bool().expect("a one-bit slot"), self.no()),
            // Memoised by term: an input read twice in a clause is one value.
            Op::Input(_) => self.fresh_bit(),
            Op::Unary(Unary::Not | Unary::Inc | Unary::Dec) => {
                let x = self.bit(a.expect("unary"));
                exact(x.value.not(), x.overflow)
            }
            Op::Unary(Unary::Neg) => self.bit(a.expect("unary")),
            Op::Unary(Unary::RedOr) => {
                let a = a.expect("unary");
                let view = self.view_of(a);
                let x = self.num(a, view);
                exact(x.value._eq(&int(ctx, 0)).not(), x.overflow)
            }
            Op::Unary(Unary::RedAnd) => {
                let a = a.expect("unary");
                let x = self.num(a, View::Signed);
                exact(x.value._eq(&int(ctx, -1)), x.overflow)
            }
            Op::Binary(b) => self.bit_binary(b, term.args[0], term.args[1]),
            Op::Slice { upper, lower } if upper == lower => {
                let a = a.expect("slice");
                let w = self.width(a);
                if lower + 1 == w {
                    let x = self.num(a, View::Signed);
                    exact(x.value.lt(&int(ctx, 0)), x.overflow)
                } else if lower == 0 {
                    let x = self.num(a, View::Unsigned);
                    let odd = x.value.modulo(&int(ctx, 2))._eq(&int(ctx, 1));
                    exact(odd, x.overflow)
                } else {
                    self.fresh_bit()
                }
            }
            Op::Ite => {
                let c = self.bit(term.args[0]);
                let (x, y) = (self.bit(term.args[1]), self.bit(term.args[2]));
                let overflow = c.value.ite(&x.overflow, &y.overflow);
                exact(
                    c.value.ite(&x.value, &y.value),
                    self.any(&[&c.overflow, &overflow]),
                )
            }
            Op::Read => {
                let v = self.read(term.args[0], term.args[1], View::Signed);
                exact(v.value.as_bool().expect("a one-bit element"), v.overflow)
            }
            _ => self.fresh_bit(),
        }
    }

    fn bit_binary(&mut self, b: Binary, x: TermId, y: TermId) -> Val<'c, Bool<'c>> {
        use Binary::*;
        let ctx = self.ctx;
        let operand_width = self.width(x);
        if operand_width == 1 && !matches!(self.cfa.terms.sort(x), Sort::Array { .. }) {
            let (p, q) = (self.bit(x), self.bit(y));
            let overflow = match b {
                And | Mul | Nand => cut_unless(ctx, &p, &q),
                _ => self.any(&[&p.overflow, &q.overflow]),
            };
            let (p, q) = (p.value, q.value);
            let value = match b {
                And | Mul => Bool::and(ctx, &[&p, &q]),
                Or => Bool::or(ctx, &[&p, &q]),
                Xor | Add | Sub | Neq => p.xor(&q),
                Nand => Bool::and(ctx, &[&p, &q]).not(),
                Nor => Bool::or(ctx, &[&p, &q]).not(),
                Xnor | Iff | Eq => p.iff(&q),
                Implies => p.implies(&q),
                // One bit unsigned: 0 < 1; signed: -1 < 0.
                Ult | Sgt => Bool::and(ctx, &[&p.not(), &q]),
                Ugt | Slt => Bool::and(ctx, &[&p, &q.not()]),
                Ulte | Sgte => p.implies(&q),
                Ugte | Slte => q.implies(&p),
                _ => return self.fresh_bit(),
            };
            return Val { value, overflow };
        }
        if matches!(self.cfa.terms.sort(x), Sort::Array { .. }) {
            return self.fresh_bit();
        }
        let view = match b {
            Slt | Slte | Sgt | Sgte | Saddo | Ssubo | Smulo | Sdivo => View::Signed,
            Ult | Ulte | Ugt | Ugte | Uaddo | Usubo | Umulo => View::Unsigned,
            _ => match self.natural(x) {
                Some(v) => v,
                None => self.view_of(y),
            },
        };
        let (p, q) = (self.num(x, view), self.num(y, view));
        let overflow = self.any(&[&p.overflow, &q.overflow]);
        let (p, q) = (p.value, q.value);
        let outside = |r: Int<'c>| in_range(ctx, &r, view, operand_width).not();
        let value = match b {
            Eq => p._eq(&q),
            Neq => p._eq(&q).not(),
            Slt | Ult => p.lt(&q),
            Slte | Ulte => p.le(&q),
            Sgt | Ugt => p.gt(&q),
            Sgte | Ugte => p.ge(&q),
            Saddo | Uaddo => outside(Int::add(ctx, &[&p, &q])),
            Ssubo | Usubo => outside(Int::sub(ctx, &[&p, &q])),
            Sdivo => {
                let (lo, _) = bounds(View::Signed, operand_width);
                Bool::and(ctx, &[&p._eq(&int(ctx, lo)), &q._eq(&int(ctx, -1))])
            }
            Smulo | Umulo if self.is_constant(x) || self.is_constant(y) => {
                outside(Int::mul(ctx, &[&p, &q]))
            }
            _ => return self.fresh_bit(),
        };
        Val { value, overflow }
    }

    fn is_constant(&self, t: TermId) -> bool {
        self.cfa.terms.constant(t).is_some()
    }

    /// The word `t` as a number of `view`.
    pub fn num(&mut self, t: TermId, view: View) -> Val<'c, Int<'c>> {
        if let Some(v) = self.nums.get(&(t, view)) {
            return v.clone();
        }
        let v = self.num_uncached(t, view);
        self.nums.insert((t, view), v.clone());
        v
    }

    fn num_uncached(&mut self, t: TermId, view: View) -> Val<'c, Int<'c>> {
        let ctx = self.ctx;
        let width = self.width(t);
        if width == 1 {
            // A bit as a number: 1, or -1 signed.
            let b = self.bit(t);
            let one = int(ctx, if view == View::Signed { -1 } else { 1 });
            return Val {
                value: b.value.ite(&one, &int(ctx, 0)),
                overflow: b.overflow,
            };
        }
        // Computed in the view the program computes it in, then read in `view`.
        let own = self.natural(t).unwrap_or(view);
        if own != view {
            let x = self.num(t, own);
            return self.recast(x, own, view, width);
        }
        let term = self.cfa.terms.term(t).clone();
        let args = term.args.clone();
        let checked = |this: &mut Self, r: Int<'c>, spill: Spill, parts: &[&Bool<'c>]| {
            this.fit(r, view, width, spill, parts)
        };
        match term.op {
            // A lifted constant is its signed number: read unsigned, a negative one is a
            // numeral.
            Op::Const(c) => match (numeral(&c, View::Signed), numeral(&c, view)) {
                (Some(v), Some(u)) => {
                    let value = match self.layout.lifted_slot(v).filter(|_| u == v) {
                        Some(slot) => self.state[slot].as_int().expect("a lifted slot"),
                        None => int(ctx, u),
                    };
                    Val {
                        value,
                        overflow: self.no(),
                    }
                }
                _ => self.fresh_num(view, width),
            },
            Op::State(i) => Val {
                value: self.state[i].as_int().expect("a word slot"),
                overflow: self.no(),
            },
            Op::Input(_) => self.fresh_num(view, width),
            Op::Unary(u) => {
                let x = self.num(args[0], view);
                let one = int(ctx, 1);
                match u {
                    Unary::Neg => checked(self, x.value.unary_minus(), Spill::Once, &[&x.overflow]),
                    Unary::Inc => checked(
                        self,
                        Int::add(ctx, &[&x.value, &one]),
                        Spill::Once,
                        &[&x.overflow],
                    ),
                    Unary::Dec => checked(
                        self,
                        Int::sub(ctx, &[&x.value, &one]),
                        Spill::Once,
                        &[&x.overflow],
                    ),
                    // The complement: -x-1 signed, (2^w - 1) - x unsigned; never out of range.
                    Unary::Not => {
                        let (_, hi) = bounds(View::Unsigned, width);
                        let value = match view {
                            View::Signed => Int::sub(ctx, &[&x.value.unary_minus(), &one]),
                            View::Unsigned => Int::sub(ctx, &[&int(ctx, hi), &x.value]),
                        };
                        Val {
                            value,
                            overflow: x.overflow,
                        }
                    }
                    _ => self.fresh_num(view, width),
                }
            }
            Op::Binary(b) => self.num_binary(b, args[0], args[1], view, width),
            Op::Extend { signed, .. } => {
                let from = if signed { View::Signed } else { View::Unsigned };
                // The same number at the wider width, then read in `view` there.
                let x = self.num(args[0], from);
                self.recast(x, from, view, width)
            }
            // The low bits keep the number when it fits (a conversion to a narrower type);
            // otherwise C's result is implementation-defined, here an overflow.
            Op::Slice { lower: 0, .. } => {
                let x = self.num(args[0], view);
                checked(self, x.value, Spill::Far, &[&x.overflow])
            }
            Op::Ite => {
                let c = self.bit(args[0]);
                let (x, y) = (self.num(args[1], view), self.num(args[2], view));
                let overflow = c.value.ite(&x.overflow, &y.overflow);
                Val {
                    value: c.value.ite(&x.value, &y.value),
                    overflow: self.any(&[&c.overflow, &overflow]),
                }
            }
            Op::Read => {
                let v = self.read(args[0], args[1], view);
                Val {
                    value: v.value.as_int().expect("a word element"),
                    overflow: v.overflow,
                }
            }
            _ => self.fresh_num(view, width),
        }
    }

    fn num_binary(
        &mut self,
        b: Binary,
        x: TermId,
        y: TermId,
        view: View,
        width: u32,
    ) -> Val<'c, Int<'c>> {
        use Binary::*;
        let ctx = self.ctx;
        let constant = |this: &Self, t: TermId, v: View| {
            this.cfa.terms.constant(t).and_then(|c| numeral(c, v))
        };
        match b {
            Add | Sub | Mul => {
                if b == Mul
                    && constant(self, x, view).is_none()
                    && constant(self, y, view).is_none()
                {
                    return self.fresh_num(view, width);
                }
                let (p, q) = (self.num(x, view), self.num(y, view));
                let r = match b {
                    Add => Int::add(ctx, &[&p.value, &q.value]),
                    Sub => Int::sub(ctx, &[&p.value, &q.value]),
                    _ => Int::mul(ctx, &[&p.value, &q.value]),
                };
                let spill = if b == Mul { Spill::Far } else { Spill::Once };
                self.fit(r, view, width, spill, &[&p.overflow, &q.overflow])
            }
            // Division by a positive constant: floor for unsigned numbers, towards zero for
            // signed ones (`div` is floor for a positive divisor).
            Udiv | Urem | Sdiv | Srem => {
                let signed = matches!(b, Sdiv | Srem);
                let v = if signed { View::Signed } else { View::Unsigned };
                let d = match constant(self, y, v) {
                    Some(d) if d > 0 => d,
                    _ => return self.fresh_num(view, width),
                };
                let p = self.num(x, v);
                let dd = int(ctx, d);
                let floor = p.value.div(&dd);
                let quotient = match signed {
                    false => floor,
                    true => {
                        let zero = int(ctx, 0);
                        let towards = p.value.unary_minus().div(&dd).unary_minus();
                        p.value.ge(&zero).ite(&floor, &towards)
                    }
                };
                let value = match b {
                    Udiv | Sdiv => quotient,
                    _ => Int::sub(ctx, &[&p.value, &Int::mul(ctx, &[&quotient, &dd])]),
                };
                let result = Val {
                    value,
                    overflow: p.overflow,
                };
                self.recast(result, v, view, width)
            }
            // Shifts by a constant: a product or a floor division by a power of two.
            Sll | Srl | Sra => {
                let s = match constant(self, y, View::Unsigned) {
                    Some(s) if s < i128::from(width) => s as u32,
                    _ => return self.fresh_num(view, width),
                };
                let factor = int(ctx, 1i128 << s);
                if b == Sll {
                    let p = self.num(x, view);
                    let r = Int::mul(ctx, &[&p.value, &factor]);
                    return self.fit(r, view, width, Spill::Far, &[&p.overflow]);
                }
                let v = if b == Sra {
                    View::Signed
                } else {
                    View::Unsigned
                };
                let p = self.num(x, v);
                let result = Val {
                    value: p.value.div(&factor),
                    overflow: p.overflow,
                };
                self.recast(result, v, view, width)
            }
            _ => self.fresh_num(view, width),
        }
    }
}

fn dynamic<'c, T: Ast<'c>>(v: Val<'c, T>) -> Val<'c, Dynamic<'c>> {
    Val {
        value: Dynamic::from_ast(&v.value),
        overflow: v.overflow,
    }
}
