//! Assignable places (lvalues): scalar variables and array elements, read and written.

use lang_c::ast::{BinaryOperator, Expression};
use lang_c::span::{Node, Span};

use super::decl::index_bits;
use super::expr::Rv;
use super::{Binding, CType, IntTy, Translator, R};
use crate::cfa::VarId;
use crate::wl::{Binary, Op, TermId};

/// An assignable place.
#[derive(Copy, Clone)]
pub(super) enum Lv {
    Var(VarId, IntTy),
    Elem {
        var: VarId,
        elem: IntTy,
        index: TermId,
    },
}

impl Lv {
    pub(super) fn ty(self) -> IntTy {
        match self {
            Lv::Var(_, t) | Lv::Elem { elem: t, .. } => t,
        }
    }
}

impl<'a> Translator<'a> {
    /// The place `e` denotes.
    pub(super) fn lvalue(&mut self, e: &Node<Expression>) -> R<Lv> {
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
    pub(super) fn lvalue_index(
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

    pub(super) fn load(&mut self, lv: Lv) -> R<Rv> {
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

    pub(super) fn store(&mut self, lv: Lv, t: TermId) -> R<()> {
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
