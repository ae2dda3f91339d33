//! Expressions: C's integer semantics on word-level terms (every operator is a BTOR2 one:
//! `sdiv`/`srem` for signed `/` and `%`, `udiv`/`urem` for unsigned ones, `sra`/`srl`,
//! `sext`/`uext`/`slice` for conversions).

use lang_c::ast::{
    BinaryOperator, CallExpression, Constant, Expression, IntegerBase, IntegerSize,
    SpecifierQualifier, UnaryOperator,
};
use lang_c::span::{Node, Span};
use lang_c::visit::{self, Visit};

use super::decl::{index_bits, Declared};
use super::{Binding, CType, IntTy, Translator, R};
use crate::cfa::VarId;
use crate::wl::{Binary, BitVec, Op, TermId, Unary};

/// An rvalue: a term of the type's width.
#[derive(Copy, Clone, Debug)]
pub(super) struct Rv {
    pub t: TermId,
    pub ty: IntTy,
}

/// An assignable place.
#[derive(Copy, Clone)]
enum Lv {
    Var(VarId, IntTy),
    Elem {
        var: VarId,
        elem: IntTy,
        index: TermId,
    },
}

impl Lv {
    fn ty(self) -> IntTy {
        match self {
            Lv::Var(_, t) | Lv::Elem { elem: t, .. } => t,
        }
    }
}

/// A value kept across a possible block boundary.
pub(super) enum Held {
    Now(Rv),
    In(VarId, IntTy),
}

/// Whether evaluating `e` may end the current block: it calls a function other than a
/// nondet source, or holds a statement (GNU `({ ... })`, as glibc's `assert` expands to).
pub(super) fn has_call(e: &Node<Expression>) -> bool {
    struct Finder(bool);
    impl<'ast> Visit<'ast> for Finder {
        fn visit_expression(&mut self, e: &'ast Expression, span: &'ast Span) {
            if let Expression::Statement(_) = e {
                self.0 = true;
            }
            visit::visit_expression(self, e, span);
        }

        fn visit_call_expression(&mut self, c: &'ast CallExpression, span: &'ast Span) {
            if callee_name(c).is_none_or(|n| !n.starts_with("__VERIFIER_nondet_")) {
                self.0 = true;
            }
            visit::visit_call_expression(self, c, span);
        }
    }
    let mut f = Finder(false);
    f.visit_expression(&e.node, &e.span);
    f.0
}

pub(super) fn callee_name(c: &CallExpression) -> Option<&str> {
    match &c.callee.node {
        Expression::Identifier(id) => Some(&id.node.name),
        _ => None,
    }
}

impl<'a> Translator<'a> {
    /// The value of `e` (which must not be void).
    pub(super) fn value(&mut self, e: &Node<Expression>) -> R<Rv> {
        match self.eval(e)? {
            Some(v) => Ok(v),
            None => self.unsupported(&e.span, "use of a void value"),
        }
    }

    /// `e` as a 1-bit truth value.
    pub(super) fn truth(&mut self, e: &Node<Expression>) -> R<TermId> {
        let v = self.value(e)?;
        self.nonzero(v)
    }

    fn nonzero(&mut self, v: Rv) -> R<TermId> {
        let zero = self.zero(v.ty.bits);
        self.op(Op::Binary(Binary::Neq), &[v.t, zero])
    }

    fn zero(&mut self, bits: u32) -> TermId {
        self.cfa.terms.constant_term(BitVec::zero(bits))
    }

    pub(super) fn int_const(&mut self, ty: IntTy, value: i128) -> Rv {
        let bits = (0..ty.bits)
            .map(|i| (value >> i.min(127)) & 1 == 1)
            .collect::<Vec<_>>();
        Rv {
            t: self.cfa.terms.constant_term(BitVec::from_bits(&bits)),
            ty,
        }
    }

    /// A 1-bit truth value as an `int`.
    fn truth_as_int(&mut self, t: TermId) -> R<Rv> {
        let t = self.op(
            Op::Extend {
                signed: false,
                by: 31,
            },
            &[t],
        )?;
        Ok(Rv { t, ty: IntTy::INT })
    }

    /// `v` converted to `to` (C11 6.3.1.2-3: to `_Bool` is `!= 0`, else two's complement
    /// truncation or extension by the source's signedness).
    pub(super) fn convert(&mut self, v: Rv, to: IntTy) -> R<TermId> {
        if to == IntTy::BOOL && v.ty != IntTy::BOOL {
            return self.nonzero(v);
        }
        match to.bits.cmp(&v.ty.bits) {
            std::cmp::Ordering::Equal => Ok(v.t),
            std::cmp::Ordering::Greater => self.op(
                Op::Extend {
                    signed: v.ty.signed,
                    by: to.bits - v.ty.bits,
                },
                &[v.t],
            ),
            std::cmp::Ordering::Less => self.op(
                Op::Slice {
                    upper: to.bits - 1,
                    lower: 0,
                },
                &[v.t],
            ),
        }
    }

    fn conv(&mut self, v: Rv, to: IntTy) -> R<Rv> {
        Ok(Rv {
            t: self.convert(v, to)?,
            ty: to,
        })
    }

    /// Keeps `v` in a temporary when evaluating something later may end the block.
    pub(super) fn hold(&mut self, v: Rv, later_may_jump: bool) -> R<Held> {
        if !later_may_jump || self.cfa.terms.constant(v.t).is_some() {
            return Ok(Held::Now(v));
        }
        let v_id = self.temp(v.ty);
        self.write(v_id, v.t)?;
        Ok(Held::In(v_id, v.ty))
    }

    pub(super) fn get(&self, h: &Held) -> Rv {
        match *h {
            Held::Now(v) => v,
            Held::In(var, ty) => Rv {
                t: self.read(var),
                ty,
            },
        }
    }

    /// A fresh temporary variable.
    pub(super) fn temp(&mut self, ty: IntTy) -> VarId {
        let name = self.fresh_name("tmp");
        self.cfa
            .add_var(name, crate::wl::Sort::Bv(ty.bits), ty.signed)
    }

    /// Evaluates `e` for its value (`None` for void) and side effects.
    pub(super) fn eval(&mut self, e: &Node<Expression>) -> R<Option<Rv>> {
        let span = &e.span;
        Ok(Some(match &e.node {
            Expression::Identifier(id) => match self.lookup(&id.node.name, span)? {
                Binding::Var(v, CType::Int(ty)) => Rv {
                    t: self.read(v),
                    ty,
                },
                Binding::Var(..) => return self.unsupported(span, "array used as a value"),
                Binding::Const(c) => self.int_const(IntTy::INT, c),
                Binding::Unsupported(why) => return self.unsupported(span, why),
            },
            Expression::Constant(c) => self.literal(&c.node, span)?,
            Expression::Call(c) => return self.call(&c.node, span),
            Expression::UnaryOperator(u) => {
                return self.unary(u.node.operator.node.clone(), &u.node.operand, span)
            }
            Expression::BinaryOperator(b) => {
                return self.binary(b.node.operator.node.clone(), &b.node.lhs, &b.node.rhs, span)
            }
            Expression::Cast(c) => {
                let to = self.type_name(&c.node.type_name.node.specifiers, &c.node.type_name)?;
                let v = self.eval(&c.node.expression)?;
                match (to, v) {
                    (CType::Void, _) => return Ok(None),
                    (CType::Int(t), Some(v)) => self.conv(v, t)?,
                    (CType::Int(_), None) => return self.unsupported(span, "cast of void"),
                    (CType::Array(..), _) => return self.unsupported(span, "cast to an array"),
                }
            }
            Expression::Conditional(c) => {
                return self.conditional(
                    &c.node.condition,
                    &c.node.then_expression,
                    &c.node.else_expression,
                    span,
                )
            }
            Expression::Comma(items) => {
                let mut last = None;
                for item in items.iter() {
                    last = self.eval(item)?;
                }
                return Ok(last);
            }
            Expression::SizeOfTy(s) => {
                let t = self.type_name(&s.node.0.node.specifiers, &s.node.0)?;
                self.size_of(t, span)?
            }
            Expression::SizeOfVal(s) => {
                if let Expression::Identifier(id) = &s.node.0.node {
                    if let Binding::Var(v, _) = self.lookup(&id.node.name, span)? {
                        if self.vla_lengths.contains_key(&v) {
                            return self.unsupported(span, "sizeof of a variable-length array");
                        }
                    }
                }
                let t = self.type_of(&s.node.0)?;
                self.size_of(t, span)?
            }
            Expression::Statement(s) => {
                // A GNU statement expression; its value is unsupported (void).
                self.stmt(s)?;
                return Ok(None);
            }
            Expression::StringLiteral(_) => return self.unsupported(span, "string literal"),
            Expression::Member(_) => return self.unsupported(span, "struct member access"),
            _ => return self.unsupported(span, "expression of this kind"),
        }))
    }

    /// The type of `e` without its side effects (the operand of `sizeof`): it is evaluated in
    /// a scratch copy of the block state, which is then restored.
    pub(super) fn type_of(&mut self, e: &Node<Expression>) -> R<CType> {
        if let Expression::Identifier(id) = &e.node {
            if let Binding::Var(_, t) = self.lookup(&id.node.name, &e.span)? {
                return Ok(t);
            }
        }
        if has_call(e) {
            return self.unsupported(&e.span, "sizeof of an expression with calls");
        }
        let saved = (
            self.store.clone(),
            self.guard,
            self.drawn.clone(),
            self.block_lines.clone(),
        );
        let v = self.eval(e);
        (self.store, self.guard, self.drawn, self.block_lines) = saved;
        match v? {
            Some(v) => Ok(CType::Int(v.ty)),
            None => Ok(CType::Void),
        }
    }

    fn size_of(&mut self, t: CType, span: &Span) -> R<Rv> {
        let size_t = IntTy::new(self.dm.long_bits(), false);
        match t.bytes() {
            Some(b) => Ok(self.int_const(size_t, i128::from(b))),
            None => self.unsupported(span, "sizeof(void)"),
        }
    }

    /// The type a type name denotes.
    fn type_name(
        &mut self,
        specs: &[Node<SpecifierQualifier>],
        tn: &Node<lang_c::ast::TypeName>,
    ) -> R<CType> {
        let base = self.base_type(specs.iter().filter_map(|s| match &s.node {
            SpecifierQualifier::TypeSpecifier(t) => Some(t),
            _ => None,
        }));
        match &tn.node.declarator {
            Some(d) => match self.declared(base, d, None)? {
                Declared::Object(_, t) => Ok(t),
                Declared::Function(_) => self.unsupported(&tn.span, "function type"),
                Declared::Vla(..) => self.unsupported(&tn.span, "variable-length array type"),
            },
            None => match base {
                Ok(t) => Ok(t),
                Err(c) => self.unsupported(&tn.span, c),
            },
        }
    }

    pub(super) fn lookup(&self, name: &str, span: &Span) -> R<Binding> {
        let found = (self.scopes.iter().rev())
            .find_map(|s| s.get(name))
            .or_else(|| self.globals.get(name));
        match found {
            Some(b) => Ok(b.clone()),
            None => self.unsupported(span, format!("undeclared identifier {name}")),
        }
    }

    /// An integer or character constant with its C type (C11 6.4.4.1).
    fn literal(&mut self, c: &Constant, span: &Span) -> R<Rv> {
        match c {
            Constant::Integer(i) => {
                let radix = match i.base {
                    IntegerBase::Decimal => 10,
                    IntegerBase::Octal => 8,
                    IntegerBase::Hexadecimal => 16,
                    IntegerBase::Binary => 2,
                };
                let Ok(value) = u64::from_str_radix(&i.number, radix) else {
                    return self.unsupported(span, "integer constant too large");
                };
                let long = self.dm.long_bits();
                let min_bits = match i.suffix.size {
                    IntegerSize::Int => 32,
                    IntegerSize::Long => long,
                    IntegerSize::LongLong => 64,
                };
                let decimal = matches!(i.base, IntegerBase::Decimal);
                let candidates = [32, long, 64]
                    .into_iter()
                    .filter(|&b| b >= min_bits)
                    .flat_map(|b| match (i.suffix.unsigned, decimal) {
                        (true, _) => vec![IntTy::new(b, false)],
                        (false, true) => vec![IntTy::new(b, true)],
                        (false, false) => vec![IntTy::new(b, true), IntTy::new(b, false)],
                    });
                for ty in candidates {
                    let max = match ty.signed {
                        true => (1u128 << (ty.bits - 1)) - 1,
                        false => (1u128 << ty.bits) - 1,
                    };
                    if u128::from(value) <= max {
                        return Ok(self.int_const(ty, i128::from(value)));
                    }
                }
                // A decimal constant beyond long long: unsigned long long as gcc does.
                Ok(self.int_const(IntTy::new(64, false), i128::from(value)))
            }
            Constant::Character(s) => match char_value(s) {
                Some(v) => Ok(self.int_const(IntTy::INT, v)),
                None => self.unsupported(span, "character constant"),
            },
            Constant::Float(_) => self.unsupported(span, "floating-point constant"),
        }
    }

    fn unary(
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
                    U::Minus => self.op(Op::Unary(Unary::Neg), &[v.t])?,
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

    fn binary(
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
    fn arith(&mut self, op: BinaryOperator, a: Rv, b: Rv, span: &Span) -> R<Rv> {
        use BinaryOperator as B;
        if matches!(op, B::ShiftLeft | B::ShiftRight) {
            return self.shift(op == B::ShiftLeft, a, b);
        }
        let ty = IntTy::usual(a.ty, b.ty);
        let (x, y) = (self.convert(a, ty)?, self.convert(b, ty)?);
        let s = ty.signed;
        let bin = match op {
            B::Multiply => Binary::Mul,
            B::Plus => Binary::Add,
            B::Minus => Binary::Sub,
            B::BitwiseAnd => Binary::And,
            B::BitwiseOr => Binary::Or,
            B::BitwiseXor => Binary::Xor,
            B::Divide | B::Modulo => {
                // Division by zero is undefined: the no-UB assumption cuts the path.
                let defined = self.nonzero(Rv { t: y, ty })?;
                self.assume(defined)?;
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

    /// `<<` and `>>`: each operand promoted on its own, the result has the left one's type;
    /// an amount outside `0..width` is undefined (the path is cut).
    fn shift(&mut self, left: bool, a: Rv, b: Rv) -> R<Rv> {
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
    fn logical(&mut self, and: bool, a: &Node<Expression>, b: &Node<Expression>) -> R<Rv> {
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

    fn conditional(
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

    /// The place `e` denotes.
    fn lvalue(&mut self, e: &Node<Expression>) -> R<Lv> {
        match &e.node {
            Expression::Identifier(id) => match self.lookup(&id.node.name, &e.span)? {
                Binding::Var(v, CType::Int(t)) => Ok(Lv::Var(v, t)),
                Binding::Unsupported(why) => self.unsupported(&e.span, why),
                _ => self.unsupported(&e.span, "assignment to a non-scalar"),
            },
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                self.lvalue_index(&b.node.lhs, &b.node.rhs, &e.span)
            }
            _ => self.unsupported(&e.span, "assignment target of this kind"),
        }
    }

    /// `array[index]`; an index out of bounds is undefined (the path is cut).
    fn lvalue_index(
        &mut self,
        array: &Node<Expression>,
        index: &Node<Expression>,
        span: &Span,
    ) -> R<Lv> {
        let Expression::Identifier(id) = &array.node else {
            return self.unsupported(span, "indexing of a non-array");
        };
        let (var, elem, len) = match self.lookup(&id.node.name, span)? {
            Binding::Var(v, CType::Array(e, n)) => (v, e, n),
            _ => return self.unsupported(span, "indexing of a non-array"),
        };
        let i = self.value(index)?;
        let wide = self.conv(i, IntTy::new(64, i.ty.signed))?;
        let n = match self.vla_lengths.get(&var) {
            // Positive, so the unsigned comparison also rejects negative indices.
            Some(&length) => self.read(length),
            None => self.int_const(IntTy::new(64, false), i128::from(len)).t,
        };
        let inside = self.op(Op::Binary(Binary::Ult), &[wide.t, n])?;
        self.assume(inside)?;
        let index = self.convert(i, IntTy::new(index_bits(len), false))?;
        Ok(Lv::Elem { var, elem, index })
    }

    fn load(&mut self, lv: Lv) -> R<Rv> {
        match lv {
            Lv::Var(v, ty) => Ok(Rv {
                t: self.read(v),
                ty,
            }),
            Lv::Elem { var, elem, index } => {
                let a = self.read(var);
                let t = self.op(Op::Read, &[a, index])?;
                Ok(Rv { t, ty: elem })
            }
        }
    }

    fn store(&mut self, lv: Lv, t: TermId) -> R<()> {
        match lv {
            Lv::Var(v, _) => self.write(v, t),
            Lv::Elem { var, index, .. } => {
                let a = self.read(var);
                let new = self.op(Op::Write, &[a, index, t])?;
                self.write(var, new)
            }
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

/// The value of a character constant such as `'a'`, `'\n'`, `'\x41'` (as `int`; plain
/// `char` is signed).
fn char_value(s: &str) -> Option<i128> {
    let inner = s.strip_prefix('\'')?.strip_suffix('\'')?;
    let v: u32 = match inner.strip_prefix('\\') {
        None => {
            let mut cs = inner.chars();
            let c = cs.next()?;
            if cs.next().is_some() || !c.is_ascii() {
                return None;
            }
            c as u32
        }
        Some(esc) => match esc {
            "n" => 10,
            "t" => 9,
            "r" => 13,
            "0" => 0,
            "\\" => 92,
            "'" => 39,
            "\"" => 34,
            "a" => 7,
            "b" => 8,
            "f" => 12,
            "v" => 11,
            _ if esc.starts_with('x') => u32::from_str_radix(&esc[1..], 16).ok()?,
            _ => u32::from_str_radix(esc, 8).ok()?,
        },
    };
    let v = i128::from(v & 0xff);
    Some(if v >= 128 { v - 256 } else { v })
}
