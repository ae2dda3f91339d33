//! Expressions: C's integer semantics on word-level terms (every operator is a BTOR2 one:
//! `sdiv`/`srem` for signed `/` and `%`, `udiv`/`urem` for unsigned ones, `sra`/`srl`,
//! `sext`/`uext`/`slice` for conversions).

use lang_c::ast::{
    CallExpression, Constant, Expression, IntegerBase, IntegerSize, SpecifierQualifier,
};
use lang_c::span::{Node, Span};
use lang_c::visit::{self, Visit};

use super::decl::Declared;
use super::{Binding, CType, IntTy, Translator, R};
use crate::cfa::VarId;
use crate::wl::{Binary, BitVec, Op, TermId};

/// An rvalue: a term of the type's width.
#[derive(Copy, Clone, Debug)]
pub(super) struct Rv {
    pub t: TermId,
    pub ty: IntTy,
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

    pub(super) fn nonzero(&mut self, v: Rv) -> R<TermId> {
        let zero = self.zero(v.ty.bits);
        self.op(Op::Binary(Binary::Neq), &[v.t, zero])
    }

    pub(super) fn zero(&mut self, bits: u32) -> TermId {
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
    pub(super) fn truth_as_int(&mut self, t: TermId) -> R<Rv> {
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

    pub(super) fn conv(&mut self, v: Rv, to: IntTy) -> R<Rv> {
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
