//! C's operators on word-level terms: unary and binary operators, compound assignments,
//! `&&`/`||` and `?:` with their short-circuit control flow.

use lang_c::ast::{BinaryOperator, Expression, UnaryOperator};
use lang_c::span::{Node, Span};

use super::expr::{has_call, Rv};
use super::{IntTy, Translator, R};
use crate::wl::{Binary, Op, TermId, Unary};

impl<'a> Translator<'a> {
    pub(super) fn unary(
        &mut self,
        op: UnaryOperator,
        operand: &Node<Expression>,
        span: &Span,
    ) -> R<Option<Rv>> {
        use UnaryOperator as U;
        let v = match op {
            U::Plus | U::Minus | U::Complement => {
                let v = self.value(operand)?;
                let v = self.conv(v, v.ty.promote())?;
                let t = match op {
                    U::Plus => v.t,
                    U::Minus => {
                        let zero = self.zero(v.ty.bits);
                        self.defined(v.ty, Binary::Ssubo, zero, v.t)?;
                        self.op(Op::Unary(Unary::Neg), &[v.t])?
                    }
                    _ => self.op(Op::Unary(Unary::Not), &[v.t])?,
                };
                Rv { t, ty: v.ty }
            }
            U::Negate => {
                let t = self.truth(operand)?;
                let n = self.not(t)?;
                self.truth_as_int(n)?
            }
            U::PreIncrement | U::PreDecrement | U::PostIncrement | U::PostDecrement => {
                let lv = self.lvalue(operand)?;
                let old = self.load(lv)?;
                let one = self.int_const(IntTy::INT, 1);
                let bop = match op {
                    U::PreIncrement | U::PostIncrement => BinaryOperator::Plus,
                    _ => BinaryOperator::Minus,
                };
                let new = self.arith(bop, old, one, span)?;
                let new = self.conv(new, lv.ty())?;
                self.store(lv, new.t)?;
                match op {
                    U::PreIncrement | U::PreDecrement => new,
                    _ => old,
                }
            }
            U::Address | U::Indirection => return self.unsupported(span, "pointer"),
        };
        Ok(Some(v))
    }

    pub(super) fn binary(
        &mut self,
        op: BinaryOperator,
        lhs: &Node<Expression>,
        rhs: &Node<Expression>,
        span: &Span,
    ) -> R<Option<Rv>> {
        use BinaryOperator as B;
        match op {
            B::LogicalAnd | B::LogicalOr => {
                return self.logical(op == B::LogicalAnd, lhs, rhs).map(Some)
            }
            B::Index => {
                let lv = self.lvalue_index(lhs, rhs, span)?;
                return self.load(lv).map(Some);
            }
            B::Assign => {
                let r = self.value(rhs)?;
                let r = self.hold(r, has_call(lhs))?;
                let lv = self.lvalue(lhs)?;
                let r = self.get(&r);
                let v = self.conv(r, lv.ty())?;
                self.store(lv, v.t)?;
                return Ok(Some(v));
            }
            _ => {}
        }
        if let Some(arith) = compound(&op) {
            let r = self.value(rhs)?;
            let r = self.hold(r, has_call(lhs))?;
            let lv = self.lvalue(lhs)?;
            let r = self.get(&r);
            let old = self.load(lv)?;
            let v = self.arith(arith, old, r, span)?;
            let v = self.conv(v, lv.ty())?;
            self.store(lv, v.t)?;
            return Ok(Some(v));
        }
        let a = self.value(lhs)?;
        let a = self.hold(a, has_call(rhs))?;
        let b = self.value(rhs)?;
        let a = self.get(&a);
        self.arith(op, a, b, span).map(Some)
    }

    /// A non-assigning binary operator on two values.
    pub(super) fn arith(&mut self, op: BinaryOperator, a: Rv, b: Rv, span: &Span) -> R<Rv> {
        use BinaryOperator as B;
        if matches!(op, B::ShiftLeft | B::ShiftRight) {
            return self.shift(op == B::ShiftLeft, a, b);
        }
        let ty = IntTy::usual(a.ty, b.ty);
        let (x, y) = (self.convert(a, ty)?, self.convert(b, ty)?);
        let s = ty.signed;
        let bin = match op {
            B::Multiply => {
                self.defined(ty, Binary::Smulo, x, y)?;
                Binary::Mul
            }
            B::Plus => {
                self.defined(ty, Binary::Saddo, x, y)?;
                Binary::Add
            }
            B::Minus => {
                self.defined(ty, Binary::Ssubo, x, y)?;
                Binary::Sub
            }
            B::BitwiseAnd => Binary::And,
            B::BitwiseOr => Binary::Or,
            B::BitwiseXor => Binary::Xor,
            B::Divide | B::Modulo => {
                // Division by zero is undefined: the no-UB assumption cuts the path.
                let defined = self.nonzero(Rv { t: y, ty })?;
                self.assume(defined)?;
                // So is the quotient `MIN / -1` (and `MIN % -1` with it, C11 6.5.5).
                self.defined(ty, Binary::Sdivo, x, y)?;
                match (op == B::Divide, s) {
                    (true, true) => Binary::Sdiv,
                    (true, false) => Binary::Udiv,
                    (false, true) => Binary::Srem,
                    (false, false) => Binary::Urem,
                }
            }
            B::Less
            | B::Greater
            | B::LessOrEqual
            | B::GreaterOrEqual
            | B::Equals
            | B::NotEquals => {
                let cmp = match (op, s) {
                    (B::Less, true) => Binary::Slt,
                    (B::Less, false) => Binary::Ult,
                    (B::Greater, true) => Binary::Sgt,
                    (B::Greater, false) => Binary::Ugt,
                    (B::LessOrEqual, true) => Binary::Slte,
                    (B::LessOrEqual, false) => Binary::Ulte,
                    (B::GreaterOrEqual, true) => Binary::Sgte,
                    (B::GreaterOrEqual, false) => Binary::Ugte,
                    (B::Equals, _) => Binary::Eq,
                    _ => Binary::Neq,
                };
                let t = self.op(Op::Binary(cmp), &[x, y])?;
                return self.truth_as_int(t);
            }
            _ => return self.unsupported(span, "operator"),
        };
        let t = self.op(Op::Binary(bin), &[x, y])?;
        Ok(Rv { t, ty })
    }

    /// Signed overflow is undefined (C11 6.5p5): where `overflow` (one of the `s*o`
    /// operators) says the signed operation on `x` and `y` overflows, the no-UB assumption
    /// cuts the path, as SV-COMP's reachability tasks mean it (their `true` verdicts rest on
    /// it: `var_plus_ind` overflows only where C leaves the result undefined). Unsigned
    /// operations wrap around, as C defines them; conversions to a narrower signed type keep
    /// the low bits (implementation-defined, gcc's choice).
    fn defined(&mut self, ty: IntTy, overflow: Binary, x: TermId, y: TermId) -> R<()> {
        if !ty.signed {
            return Ok(());
        }
        let o = self.op(Op::Binary(overflow), &[x, y])?;
        let ok = self.not(o)?;
        self.assume(ok)
    }

    /// `<<` and `>>`: each operand promoted on its own, the result has the left one's type;
    /// an amount outside `0..width` is undefined (the path is cut).
    pub(super) fn shift(&mut self, left: bool, a: Rv, b: Rv) -> R<Rv> {
        let a = self.conv(a, a.ty.promote())?;
        let b = self.conv(b, b.ty.promote())?;
        let w = a.ty.bits;
        let wide = self.conv(b, IntTy::new(64, b.ty.signed))?;
        let limit = self.int_const(IntTy::new(64, false), i128::from(w));
        let below = self.op(Op::Binary(Binary::Ult), &[wide.t, limit.t])?;
        self.assume(below)?;
        let amount = self.convert(b, IntTy::new(w, false))?;
        let bin = match (left, a.ty.signed) {
            (true, _) => Binary::Sll,
            (false, true) => Binary::Sra,
            (false, false) => Binary::Srl,
        };
        let t = self.op(Op::Binary(bin), &[a.t, amount])?;
        Ok(Rv { t, ty: a.ty })
    }

    /// `a && b` / `a || b`: `b` is evaluated only when it decides. Without calls in `b` this
    /// is a term (side effects of `b` conditional on `a`); else a branch.
    pub(super) fn logical(
        &mut self,
        and: bool,
        a: &Node<Expression>,
        b: &Node<Expression>,
    ) -> R<Rv> {
        let ta = self.truth(a)?;
        // `b` runs when `go` holds.
        let go = if and { ta } else { self.not(ta)? };
        if !has_call(b) {
            let saved = self.cond;
            self.cond = self.op(Op::Binary(Binary::And), &[saved, go])?;
            let tb = self.truth(b);
            self.cond = saved;
            let tb = tb?;
            let bin = if and { Binary::And } else { Binary::Or };
            let t = self.op(Op::Binary(bin), &[ta, tb])?;
            return self.truth_as_int(t);
        }
        let tmp = self.temp(IntTy::INT);
        let skipped = self.int_const(IntTy::INT, i128::from(!and));
        self.write(tmp, skipped.t)?;
        let (run, join) = (self.new_loc(&b.span), self.new_loc(&b.span));
        self.branch_to(go, run, join)?;
        self.start(run);
        let tb = self.truth(b)?;
        let vb = self.truth_as_int(tb)?;
        self.write(tmp, vb.t)?;
        self.goto_and_start(join)?;
        Ok(Rv {
            t: self.read(tmp),
            ty: IntTy::INT,
        })
    }

    pub(super) fn conditional(
        &mut self,
        c: &Node<Expression>,
        x: &Node<Expression>,
        y: &Node<Expression>,
        span: &Span,
    ) -> R<Option<Rv>> {
        let tc = self.truth(c)?;
        if !has_call(x) && !has_call(y) {
            let saved = self.cond;
            let nc = self.not(tc)?;
            self.cond = self.op(Op::Binary(Binary::And), &[saved, tc])?;
            let vx = self.eval(x);
            self.cond = self.op(Op::Binary(Binary::And), &[saved, nc])?;
            let vy = vx.and_then(|vx| Ok((vx, self.eval(y)?)));
            self.cond = saved;
            return match vy? {
                (Some(vx), Some(vy)) => {
                    let ty = IntTy::usual(vx.ty, vy.ty);
                    let (tx, ty_) = (self.convert(vx, ty)?, self.convert(vy, ty)?);
                    let t = self.op(Op::Ite, &[tc, tx, ty_])?;
                    Ok(Some(Rv { t, ty }))
                }
                // One void operand (`c ? (void)0 : f()`, as glibc's `assert` expands to):
                // the conditional is void (a GNU extension; ISO C wants both void).
                _ => Ok(None),
            };
        }
        // With calls: a branch, each side's value kept in a temporary, and the condition
        // kept to pick the value at the join.
        let flag = self.temp(IntTy::BOOL);
        self.write(flag, tc)?;
        let (then_loc, else_loc, join) = (
            self.new_loc(&x.span),
            self.new_loc(&y.span),
            self.new_loc(span),
        );
        self.branch_to(tc, then_loc, else_loc)?;
        self.start(then_loc);
        let hx = match self.eval(x)? {
            Some(v) => Some(self.hold(v, true)?),
            None => None,
        };
        self.jump(join)?;
        self.start(else_loc);
        let hy = match self.eval(y)? {
            Some(v) => Some(self.hold(v, true)?),
            None => None,
        };
        self.goto_and_start(join)?;
        match (hx, hy) {
            (Some(hx), Some(hy)) => {
                let (vx, vy) = (self.get(&hx), self.get(&hy));
                let ty = IntTy::usual(vx.ty, vy.ty);
                let (tx, ty_) = (self.convert(vx, ty)?, self.convert(vy, ty)?);
                let f = self.read(flag);
                let t = self.op(Op::Ite, &[f, tx, ty_])?;
                Ok(Some(Rv { t, ty }))
            }
            // A void operand makes the conditional void, as above.
            _ => Ok(None),
        }
    }
}

/// The arithmetic of a compound assignment operator.
fn compound(op: &BinaryOperator) -> Option<BinaryOperator> {
    use BinaryOperator as B;
    Some(match op {
        B::AssignMultiply => B::Multiply,
        B::AssignDivide => B::Divide,
        B::AssignModulo => B::Modulo,
        B::AssignPlus => B::Plus,
        B::AssignMinus => B::Minus,
        B::AssignShiftLeft => B::ShiftLeft,
        B::AssignShiftRight => B::ShiftRight,
        B::AssignBitwiseAnd => B::BitwiseAnd,
        B::AssignBitwiseXor => B::BitwiseXor,
        B::AssignBitwiseOr => B::BitwiseOr,
        _ => return None,
    })
}
