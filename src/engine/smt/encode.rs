//! Word-level terms as Z3 terms, one frame at a time, with the meaning [`crate::wl::eval`]
//! gives every operator (the simulator's reference semantics, which replays the answers).
//!
//! BTOR2 has no Boolean sort: one-bit vectors are Z3 bit-vectors of width 1 here too, and
//! become Z3 Booleans only where Z3 needs one (conditions, assertions) through [`truth`].

use z3::ast::{Array, Ast, Bool, Dynamic, BV};
use z3::{Context, Sort as ZSort};

use crate::wl::{Binary, BitVec, Model, Op, Sort, TermId, Unary};

/// The Z3 sort of a word-level sort.
pub fn sort(ctx: &Context, s: Sort) -> ZSort<'_> {
    match s {
        Sort::Bv(w) => ZSort::bitvector(ctx, w),
        Sort::Array { index, element } => ZSort::array(
            ctx,
            &ZSort::bitvector(ctx, index),
            &ZSort::bitvector(ctx, element),
        ),
    }
}

/// The Z3 numeral of `v` (built from 64-bit pieces: numerals of any width).
pub fn constant<'c>(ctx: &'c Context, v: &BitVec) -> BV<'c> {
    let bits: Vec<bool> = v.bits().collect();
    let mut pieces = bits.chunks(64).map(|c| {
        let value = c.iter().rev().fold(0u64, |acc, &b| (acc << 1) | b as u64);
        BV::from_u64(ctx, value, c.len() as u32)
    });
    let lowest = pieces.next().expect("widths are positive");
    pieces.fold(lowest, |low, high| high.concat(&low))
}

/// Whether the one-bit vector `t` is 1.
pub fn truth<'c>(t: &Dynamic<'c>) -> Bool<'c> {
    let bv = t.as_bv().expect("sort-checked one-bit term");
    bv._eq(&BV::from_u64(bv.get_ctx(), 1, 1))
}

/// The one-bit vector of `b`.
fn bit<'c>(b: &Bool<'c>) -> BV<'c> {
    let ctx = b.get_ctx();
    b.ite(&BV::from_u64(ctx, 1, 1), &BV::from_u64(ctx, 0, 1))
}

/// The most significant bit of `a` as a Boolean.
fn msb<'c>(a: &BV<'c>) -> Bool<'c> {
    let w = a.get_size();
    a.extract(w - 1, w - 1)
        ._eq(&BV::from_u64(a.get_ctx(), 1, 1))
}

/// Translates the terms of a model frame by frame. The terms of one frame are those in the
/// cone of the roots given to [`Encoder::new`].
pub struct Encoder<'c, 'm> {
    ctx: &'c Context,
    model: &'m Model,
    needed: Vec<bool>,
}

impl<'c, 'm> Encoder<'c, 'm> {
    pub fn new(ctx: &'c Context, model: &'m Model, roots: Vec<TermId>) -> Encoder<'c, 'm> {
        Encoder {
            ctx,
            model,
            needed: model.cone(roots),
        }
    }

    /// The Z3 term of every needed term of one frame whose states are `states` and inputs
    /// `inputs` (indexed by term; `None` outside the cone).
    pub fn frame(
        &self,
        states: &[Dynamic<'c>],
        inputs: &[Dynamic<'c>],
    ) -> Vec<Option<Dynamic<'c>>> {
        let mut values: Vec<Option<Dynamic<'c>>> = vec![None; self.model.num_terms()];
        for t in (0..values.len()).filter(|&t| self.needed[t]) {
            let term = self.model.term(TermId(t as u32));
            let args: Vec<&Dynamic<'c>> = (term.args.iter())
                .map(|a| values[a.index()].as_ref().expect("arguments come first"))
                .collect();
            let value = match term.op {
                Op::State(i) => states[i].clone(),
                Op::Input(i) => inputs[i].clone(),
                ref op => self.apply(op, term.sort, &args),
            };
            values[t] = Some(value);
        }
        values
    }

    fn apply(&self, op: &Op, result: Sort, args: &[&Dynamic<'c>]) -> Dynamic<'c> {
        let ctx = self.ctx;
        let bv = |i: usize| args[i].as_bv().expect("sort-checked bit-vector operand");
        let array = |i: usize| args[i].as_array().expect("sort-checked array operand");
        let out = |b: BV<'c>| Dynamic::from_ast(&b);
        match *op {
            Op::Const(ref v) => out(constant(ctx, v)),
            Op::Input(_) | Op::State(_) => unreachable!("leaves are given per frame"),
            Op::ConstArray => {
                let Sort::Array { index, .. } = result else {
                    unreachable!("constant arrays have array sorts")
                };
                let domain = ZSort::bitvector(ctx, index);
                Dynamic::from_ast(&Array::const_array(ctx, &domain, &bv(0)))
            }
            Op::Unary(u) => out(unary(u, &bv(0))),
            Op::Binary(b @ (Binary::Eq | Binary::Neq)) => {
                let same = args[0]._eq(args[1]);
                out(bit(&if b == Binary::Eq { same } else { same.not() }))
            }
            Op::Binary(b) => out(binary(b, &bv(0), &bv(1))),
            Op::Extend { signed: true, by } => out(bv(0).sign_ext(by)),
            Op::Extend { signed: false, by } => out(bv(0).zero_ext(by)),
            Op::Slice { upper, lower } => out(bv(0).extract(upper, lower)),
            Op::Ite => truth(args[0]).ite(args[1], args[2]),
            Op::Read => array(0).select(&bv(1)),
            Op::Write => Dynamic::from_ast(&array(0).store(&bv(1), &bv(2))),
        }
    }
}

fn unary<'c>(op: Unary, a: &BV<'c>) -> BV<'c> {
    let (ctx, w) = (a.get_ctx(), a.get_size());
    match op {
        Unary::Not => a.bvnot(),
        Unary::Inc => a.bvadd(&BV::from_u64(ctx, 1, w)),
        Unary::Dec => a.bvsub(&BV::from_u64(ctx, 1, w)),
        Unary::Neg => a.bvneg(),
        Unary::RedAnd => a.bvredand(),
        Unary::RedOr => a.bvredor(),
        Unary::RedXor => (1..w).fold(a.extract(0, 0), |acc, i| acc.bvxor(&a.extract(i, i))),
    }
}

fn binary<'c>(op: Binary, a: &BV<'c>, b: &BV<'c>) -> BV<'c> {
    use Binary::*;
    let (ctx, w) = (a.get_ctx(), a.get_size());
    // `w` in the operands' sort: the amount of a rotation's second shift (as btorsim has it).
    let width = || constant(ctx, &BitVec::from_u64(w, w as u64));
    // btorsim's left shift, which does not read bits 32 to 63 of its amount (`BitVec::sll`).
    let sll =
        |x: &BV<'c>, by: &BV<'c>| x.bvshl(&by.bvand(&constant(ctx, &BitVec::sll_amount_mask(w))));
    match op {
        Iff | Eq => bit(&a._eq(b)),
        Neq => bit(&a._eq(b).not()),
        Implies => a.bvnot().bvor(b),
        Sgt => bit(&a.bvsgt(b)),
        Sgte => bit(&a.bvsge(b)),
        Slt => bit(&a.bvslt(b)),
        Slte => bit(&a.bvsle(b)),
        Ugt => bit(&a.bvugt(b)),
        Ugte => bit(&a.bvuge(b)),
        Ult => bit(&a.bvult(b)),
        Ulte => bit(&a.bvule(b)),
        And => a.bvand(b),
        Nand => a.bvnand(b),
        Nor => a.bvnor(b),
        Or => a.bvor(b),
        Xnor => a.bvxnor(b),
        Xor => a.bvxor(b),
        Rol => sll(a, b).bvor(&a.bvlshr(&width().bvsub(b))),
        Ror => a.bvlshr(b).bvor(&sll(a, &width().bvsub(b))),
        Sll => sll(a, b),
        Sra => a.bvashr(b),
        Srl => a.bvlshr(b),
        Add => a.bvadd(b),
        Mul => a.bvmul(b),
        Sdiv => a.bvsdiv(b),
        Smod => a.bvsmod(b),
        Srem => a.bvsrem(b),
        Sub => a.bvsub(b),
        Udiv => a.bvudiv(b),
        Urem => a.bvurem(b),
        Concat => a.concat(b),
        Saddo => {
            let s = a.bvadd(b);
            bit(&Bool::and(
                ctx,
                &[&msb(a)._eq(&msb(b)), &msb(&s)._eq(&msb(a)).not()],
            ))
        }
        Uaddo => bit(&a.bvadd(b).bvult(a)),
        Ssubo => {
            let d = a.bvsub(b);
            let differ = msb(a)._eq(&msb(b)).not();
            bit(&Bool::and(ctx, &[&differ, &msb(&d)._eq(&msb(a)).not()]))
        }
        Usubo => bit(&a.bvult(b)),
        Sdivo => {
            let mut min = BitVec::zero(w);
            min.set_bit(w - 1, true);
            let min = a._eq(&constant(ctx, &min));
            bit(&Bool::and(
                ctx,
                &[&min, &b._eq(&constant(ctx, &BitVec::ones(w)))],
            ))
        }
        Umulo => {
            let p = a.zero_ext(w).bvmul(&b.zero_ext(w));
            bit(&p.extract(2 * w - 1, w)._eq(&BV::from_u64(ctx, 0, w)).not())
        }
        Smulo => {
            let p = a.sign_ext(w).bvmul(&b.sign_ext(w));
            bit(&p._eq(&p.extract(w - 1, 0).sign_ext(w)).not())
        }
    }
}
