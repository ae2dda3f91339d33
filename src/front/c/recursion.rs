//! Recursion in the inlining translation: calls beyond the recursion bound
//! ([`super::Recursion`]), either to [`crate::cfa::Cfa::unwind`] or, for functions without
//! effects in the over-approximation, to an arbitrary value; and the shared copies of
//! recursive bodies ([`SharedCall`]).

use lang_c::span::Span;

use super::expr::Rv;
use super::{IntTy, Loc, Translator, VarId, R};
use crate::wl::{Binary, Op, Sort};

/// The body of a recursive function translated once for every call made with the same chain
/// of active calls (the same variables, the same recursion level): each call site writes its
/// number into the copy's call-site variable and jumps to the body, whose end returns to the
/// site that number names. A function that calls itself twice then makes a CFA linear in the
/// recursion bound, not exponential (each level of `fib(n-1) + fib(n-2)` once, not 2^level
/// times), so deep recursion bounds stay small enough to translate and to execute
/// ([`crate::engine::execute`] runs such CFAs). Only with [`super::Recursion::shared`]: the
/// symbolic engines prove more from one copy per call, whose paths stay separate (SV-COMP's
/// Fibonacci02 is proved with them and not with shared copies).
#[derive(Clone)]
pub(super) struct SharedCall {
    /// The start of the body, after the parameters are assigned.
    pub(super) entry: Loc,
    /// The end of the body, where `return` goes.
    pub(super) ret: Loc,
    /// The call-site variable.
    pub(super) site: VarId,
    /// Call sites so far.
    pub(super) sites: u32,
    pub(super) ret_var: Option<(VarId, IntTy)>,
    pub(super) params: Vec<(VarId, IntTy)>,
}

/// The type of call-site variables, and how many sites one copy serves (past that, a call
/// is inlined on its own).
pub(super) const SITE_TY: IntTy = IntTy::new(16, false);
pub(super) const SITES: u32 = 1 << 16;

impl Translator<'_> {
    /// The chain of active calls (function and whether it was a tail call) that a call of
    /// `name` would push: what the translation of its body depends on.
    pub(super) fn call_string(&self, name: &str, tail: bool) -> Vec<(String, bool)> {
        let active = self.frames.iter().map(|fr| (fr.name.clone(), fr.tail));
        active.chain([(name.to_owned(), tail)]).collect()
    }

    /// A call that runs the shared `copy` of the body (its parameters already assigned):
    /// records the call site, jumps to the body and continues after it.
    pub(super) fn enter_copy(&mut self, key: &[(String, bool)], copy: SharedCall) -> R<Option<Rv>> {
        let site = copy.sites;
        let value = self.int_const(SITE_TY, site.into()).t;
        self.write(copy.site, value)?;
        let t = self.cfa.bool_const(true);
        self.edge_to(copy.entry, t)?;
        self.shared.get_mut(key).expect("entered").sites += 1;
        self.return_to_site(&copy, site)
    }

    /// Adds the return of `copy` to its call site `site` (an edge from the body's end, taken
    /// when the call-site variable says `site`) and continues the caller there.
    pub(super) fn return_to_site(&mut self, copy: &SharedCall, site: u32) -> R<Option<Rv>> {
        let cont = self
            .cfa
            .add_location(self.cfa.locations[copy.ret.index()].line);
        let here = self.int_const(SITE_TY, site.into()).t;
        let site_term = self.cfa.vars[copy.site.index()].term;
        let guard = self.op(Op::Binary(Binary::Eq), &[site_term, here])?;
        self.cfa.edges.push(crate::cfa::Edge {
            from: copy.ret,
            to: cont,
            guard,
            assigns: Vec::new(),
            nondets: Vec::new(),
            lines: Vec::new(),
        });
        self.start(cont);
        Ok(copy.ret_var.map(|(v, ty)| Rv {
            t: self.read(v),
            ty,
        }))
    }

    /// The value of a call of `name`, a function without effects ([`super::effects`]), deeper
    /// than the recursion bound, in the over-approximation: any value of its return type
    /// ([`crate::cfa::Nondet::beyond_bound`]). A `void` function draws a bit nothing reads,
    /// so that a run through the call is still known to have cut it (the real call might
    /// never return, or end the program).
    pub(super) fn beyond_bound(
        &mut self,
        name: &str,
        ty: Option<IntTy>,
        span: &Span,
    ) -> Option<Rv> {
        let line = self.line(span);
        let what = format!("{name}() beyond the recursion bound");
        let (bits, signed) = ty.map_or((1, false), |t| (t.bits, t.signed));
        let n = self.cfa.add_nondet(Sort::Bv(bits), what, line, signed);
        self.cfa.nondets[n].beyond_bound = true;
        self.drawn.push(n);
        let t = self.cfa.nondets[n].term;
        ty.map(|ty| Rv { t, ty })
    }

    /// Ends the block with a jump to [`crate::cfa::Cfa::unwind`] (made on first use, with its
    /// edge to the error when exceeding the bound is an error, see [`super::Recursion`]).
    pub(super) fn exceed_recursion_bound(&mut self) -> R<()> {
        let unwind = match self.cfa.unwind {
            Some(u) => u,
            None => {
                let u = self.cfa.add_location(None);
                self.cfa.unwind = Some(u);
                if self.recursion.exceeded_is_error {
                    let t = self.cfa.bool_const(true);
                    let error = self.cfa.error;
                    self.cfa.edges.push(crate::cfa::Edge {
                        from: u,
                        to: error,
                        guard: t,
                        assigns: Vec::new(),
                        nondets: Vec::new(),
                        lines: Vec::new(),
                    });
                }
                u
            }
        };
        self.jump(unwind)
    }
}
