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
        // The length is positive and below 2^63 (a variable length below 2^31), so a
        // signed index is inside when it is not negative and below the length as signed
        // numbers. The bits are the same as the unsigned comparison's, but the Horn clauses
        // read a number in the other view only with an overflow to prove absent, which a
        // length or index that no invariant bounds cannot (`array_init_pair_symmetr`: not
        // proved in 30 s with the unsigned comparison of a signed index).
        let vla = self.vla_lengths.get(&var).copied();
        let signed = i.ty.signed && (vla.is_some() || i64::try_from(len).is_ok());
        let n = match vla {
            Some(length) => self.read(length),
            None => self.int_const(IntTy::new(64, signed), i128::from(len)).t,
        };
        let inside = if signed {
            let zero = self.zero(i.ty.bits);
            let negative = self.op(Op::Binary(Binary::Slt), &[i.t, zero])?;
            let natural = self.not(negative)?;
            let below = self.op(Op::Binary(Binary::Slt), &[wide.t, n])?;
            self.op(Op::Binary(Binary::And), &[natural, below])?
        } else {
            self.op(Op::Binary(Binary::Ult), &[wide.t, n])?
        };
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
