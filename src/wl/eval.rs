//! The meaning of every operator on values: the reference semantics the simulator uses and
//! the blaster is tested against.

use super::{ArrayValue, Binary, BitVec, Op, Sort, Unary, Value};

/// The value of a bit-vector unary operator.
pub fn unary(op: Unary, a: &BitVec) -> BitVec {
    let w = a.width();
    let bit = |b: bool| BitVec::from_u64(1, b as u64);
    match op {
        Unary::Not => a.not(),
        Unary::Inc => a.add(&BitVec::from_u64(w, 1)),
        Unary::Dec => a.sub(&BitVec::from_u64(w, 1)),
        Unary::Neg => a.neg(),
        Unary::RedAnd => bit(*a == BitVec::ones(w)),
        Unary::RedOr => bit(a.is_true()),
        Unary::RedXor => bit(a.bits().filter(|&b| b).count() % 2 == 1),
    }
}

/// The value of a bit-vector binary operator.
pub fn binary(op: Binary, a: &BitVec, b: &BitVec) -> BitVec {
    use Binary::*;
    let bit = |v: bool| BitVec::from_u64(1, v as u64);
    let w = a.width();
    match op {
        Iff | Eq => bit(a == b),
        Neq => bit(a != b),
        Implies => a.not().or(b),
        Sgt => bit(b.slt(a)),
        Sgte => bit(!a.slt(b)),
        Slt => bit(a.slt(b)),
        Slte => bit(!b.slt(a)),
        Ugt => bit(b.ult(a)),
        Ugte => bit(!a.ult(b)),
        Ult => bit(a.ult(b)),
        Ulte => bit(!b.ult(a)),
        And => a.and(b),
        Nand => a.and(b).not(),
        Nor => a.or(b).not(),
        Or => a.or(b),
        Xnor => a.xor(b).not(),
        Xor => a.xor(b),
        Rol => a.rol(b),
        Ror => a.ror(b),
        Sll => a.sll(b),
        Sra => a.sra(b),
        Srl => a.srl(b),
        Add => a.add(b),
        Mul => a.mul(b),
        Sdiv => a.sdiv(b),
        Smod => a.smod(b),
        Srem => a.srem(b),
        Sub => a.sub(b),
        Udiv => a.udiv(b),
        Urem => a.urem(b),
        Concat => a.concat(b),
        Saddo => {
            let s = a.add(b);
            bit(a.msb() == b.msb() && s.msb() != a.msb())
        }
        Uaddo => bit(a.add(b).ult(a)),
        Ssubo => {
            let d = a.sub(b);
            bit(a.msb() != b.msb() && d.msb() != a.msb())
        }
        Usubo => bit(a.ult(b)),
        Sdivo => {
            let mut min = BitVec::zero(w);
            min.set_bit(w - 1, true);
            bit(*a == min && *b == BitVec::ones(w))
        }
        Umulo => {
            let p = a.extend(w, false).mul(&b.extend(w, false));
            bit(p.slice(2 * w - 1, w).is_true())
        }
        Smulo => {
            let p = a.extend(w, true).mul(&b.extend(w, true));
            bit(p != p.slice(w - 1, 0).extend(w, true))
        }
    }
}

/// The value of a non-leaf term with operator `op` and result sort `sort` on `args`. The
/// arguments have the sorts [`Op::result_sort`] demands (the model checked them).
pub fn apply(op: &Op, sort: Sort, args: &[&Value]) -> Value {
    let bv = |i: usize| args[i].as_bv().expect("sort-checked bit-vector operand");
    let array = |i: usize| args[i].as_array().expect("sort-checked array operand");
    match *op {
        Op::Const(ref v) => Value::Bv(v.clone()),
        Op::Input(_) | Op::State(_) => unreachable!("leaves are valued by the simulator"),
        Op::ConstArray => {
            let Sort::Array { index, .. } = sort else {
                unreachable!("constant arrays have array sorts")
            };
            Value::Array(ArrayValue::constant(index, bv(0).clone()))
        }
        Op::Unary(u) => Value::Bv(unary(u, bv(0))),
        Op::Binary(b @ (Binary::Eq | Binary::Neq)) if args[0].as_array().is_some() => {
            let same = array(0).equals(array(1));
            Value::Bv(BitVec::from_u64(1, (same == (b == Binary::Eq)) as u64))
        }
        Op::Binary(b) => Value::Bv(binary(b, bv(0), bv(1))),
        Op::Extend { signed, by } => Value::Bv(bv(0).extend(by, signed)),
        Op::Slice { upper, lower } => Value::Bv(bv(0).slice(upper, lower)),
        Op::Ite => {
            if bv(0).is_true() {
                args[1].clone()
            } else {
                args[2].clone()
            }
        }
        Op::Read => Value::Bv(array(0).read(bv(1))),
        Op::Write => Value::Array(array(0).write(bv(1), bv(2))),
    }
}
