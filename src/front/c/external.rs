//! Calls of functions without a body (read as nondet values, see [`super::Externs`]) and
//! the verifier's `__VERIFIER_nondet_<type>()` values.

use lang_c::ast::Expression;
use lang_c::span::{Node, Span};

use super::expr::Rv;
use super::{Binding, CType, IntTy, Translator, R};
use crate::wl::Sort;

impl Translator<'_> {
    /// A call of `name`, a function without a body: a nondet value of its return type after
    /// the arguments are evaluated, unless [`super::Externs`] or the call's form rules that
    /// out (then unsupported, with the reason).
    pub(super) fn external(
        &mut self,
        name: &str,
        args: &[Node<Expression>],
        span: &Span,
    ) -> R<Option<Rv>> {
        let declared = self.prototypes.get(name).cloned();
        let allowed = self.externs.nondet.iter().any(|f| f == name);
        if self.externs.strict && !allowed {
            return match declared {
                Some(_) => {
                    self.unsupported(span, format!("call to function {name} without a body"))
                }
                None => self.unsupported(span, format!("call to undeclared function {name}")),
            };
        }
        if super::never_nondet(name) {
            return self.unsupported(
                span,
                format!("call to {name} (heap, memory and thread functions are not modelled)"),
            );
        }
        if let Some(Binding::Unsupported(why)) = self.globals.get(name) {
            let why = why.clone();
            return self.unsupported(span, format!("call to {name}: {why}"));
        }
        let ret = match declared {
            None => Some(IntTy::INT),
            Some((_, Ok(CType::Void))) => None,
            Some((_, Ok(CType::Int(t)))) => Some(t),
            Some((_, Ok(CType::Array(..)))) => {
                return self.unsupported(span, format!("call to {name} returning an array"))
            }
            Some((line, Err(c))) => {
                return self.unsupported(
                    span,
                    format!("call to {name} returning {c} (declared at line {line})"),
                )
            }
        };
        for a in args {
            if let CType::Array(..) = self.type_of(a)? {
                return self.unsupported(span, format!("array passed to {name}, a function without a body (it could write into it)"));
            }
            self.eval(a)?;
        }
        self.assumed_nondet.insert(name.to_owned());
        Ok(ret.map(|ty| self.nondet(name, ty, span)))
    }

    /// A fresh value of `ty` returned by the call of `name` at `span`.
    pub(super) fn nondet(&mut self, name: &str, ty: IntTy, span: &Span) -> Rv {
        let line = self.line(span);
        let n = (self.cfa).add_nondet(Sort::Bv(ty.bits), format!("{name}()"), line, ty.signed);
        // The span ends just after the closing parenthesis.
        self.cfa.nondets[n].column = Some(self.lines.column(span.end.saturating_sub(1)));
        self.drawn.push(n);
        Rv {
            t: self.cfa.nondets[n].term,
            ty,
        }
    }

    pub(super) fn nondet_type(&self, suffix: &str) -> Option<IntTy> {
        let long = self.dm.long_bits();
        Some(match suffix {
            "bool" | "_Bool" => IntTy::BOOL,
            "char" => IntTy::new(8, true),
            "uchar" | "unsigned_char" => IntTy::new(8, false),
            "short" => IntTy::new(16, true),
            "ushort" | "unsigned_short" => IntTy::new(16, false),
            "int" => IntTy::INT,
            "uint" | "unsigned" | "unsigned_int" | "u32" => IntTy::new(32, false),
            "long" => IntTy::new(long, true),
            "ulong" | "unsigned_long" | "size_t" => IntTy::new(long, false),
            "longlong" | "long_long" => IntTy::new(64, true),
            "ulonglong" | "unsigned_long_long" => IntTy::new(64, false),
            _ => return None,
        })
    }
}
