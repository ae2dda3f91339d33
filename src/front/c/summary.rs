//! Recursion by procedure summaries, for the Horn clauses ([`super::translate_summarized`]).
//!
//! A recursive function's body is translated once, at its outermost call, and stands for
//! every run of it: every call of it, the outermost one too, starts a run there (an edge into
//! the body with the parameters set) and takes its value from the states at the body's end,
//! where every run ends ([`crate::cfa::Summarized`]); the caller goes on from a location of
//! its own. The body's states are then those of all runs, and no run returns into a caller,
//! so what a caller alone reads is dead in the body: these are the usual non-linear clauses
//! of a procedure, one summary per function (`Ackermann03`: 2 s; 9 s or more when the
//! outermost run went on into `main` and the body's states carried `main`'s variables).
//! The summary matches a parameter's value at the body's end against the call's argument:
//! the parameter itself when the body never assigns it (no tail call jumps back to the body
//! here either, [`super::tail`]), else a copy of its entry value that the body keeps.
//!
//! The globals a call can write are the rest of its effect: the body keeps a copy of each
//! one's entry value too, the summary matches the copies against the globals' values at the
//! call, and the call's caller goes on with their values at the end of the body. The globals
//! it only reads keep their values during the call, which the summary matches as they are.
//! Recursive functions that write anything else (an array, a `static` local, through a
//! pointer) are unsupported here (the inlining translation still reads them). Reaching the
//! error inside a run needs nothing more: that run's states are in the body.

use std::collections::HashMap;

use lang_c::ast::FunctionDefinition;
use lang_c::span::Span;

use super::expr::{Held, Rv};
use super::{Binding, CType, IntTy, Translator, VarId, R};
use crate::cfa::Summarized;
use crate::wl::{Sort, TermId};

/// The variables a summarized function's body keeps for its summary.
#[derive(Clone, Debug)]
pub(super) struct FrameSummary {
    /// The entry value of each parameter.
    ins: Vec<VarId>,
    /// Each global scalar the function can write, with the copy of its entry value.
    globals: Vec<(VarId, VarId)>,
}

impl<'a> Translator<'a> {
    /// The outermost call of recursive function `f`, whose frame is the last, with the
    /// arguments `held` for its parameters `params` (in the scope `scope`): a summarized call
    /// like the recursive ones, whose run of the body, translated here once, starts at the
    /// body's entry. The caller goes on with the summary's values, from a new location: no
    /// run of the body returns into it, so what the caller alone reads is dead in the body.
    pub(super) fn outermost_summarized(
        &mut self,
        f: &'a FunctionDefinition,
        scope: HashMap<String, Binding>,
        params: Vec<(VarId, IntTy)>,
        held: Vec<Held>,
        ret_ty: Option<IntTy>,
        span: &Span,
    ) -> R<Option<Rv>> {
        let name = self.frames.last().expect("pushed").name.clone();
        // A parameter that the body never assigns keeps its entry value to the end.
        let written = super::effects::names_written(f);
        let assigned: Vec<VarId> = (scope.iter())
            .filter(|(n, _)| written.contains(n))
            .filter_map(|(_, b)| match b {
                Binding::Var(v, _) => Some(*v),
                _ => None,
            })
            .collect();
        let summary = self.frame_summary(&name, &params, &assigned, span)?;
        let entry = self.new_loc(span);
        let frame = self.frames.last_mut().expect("pushed");
        (frame.params, frame.entry, frame.summary) = (params, Some(entry), Some(summary));
        let (ret, ret_var) = (frame.ret, frame.ret_var);
        let value = self.summarized_call(&name, held, ret_ty, span)?;
        if let (Some(value), Some((v, _))) = (value, ret_var) {
            self.write(v, value.t)?;
        }
        let resume = self.new_loc(span);
        let t = self.cfa.bool_const(true);
        self.edge_to(resume, t)?;
        self.start(entry);
        self.function_body(f, scope)?;
        self.goto_and_start(ret)?;
        self.frames.pop();
        self.start(resume);
        Ok(ret_var.map(|(v, ty)| Rv {
            t: self.read(v),
            ty,
        }))
    }

    /// The copies of the entry values that the body of recursive function `name`, with the
    /// parameters `params`, keeps for its summary: a parameter is its own copy unless it is
    /// among those the body assigns, `assigned` (an equality fewer for Spacer to find).
    fn frame_summary(
        &mut self,
        name: &str,
        params: &[(VarId, IntTy)],
        assigned: &[VarId],
        span: &Span,
    ) -> R<FrameSummary> {
        let written = self.globals_written(name);
        let scalars: Option<Vec<(VarId, IntTy)>> = (written.iter().flatten())
            .map(|g| match self.globals.get(g) {
                Some(Binding::Var(v, CType::Int(ty))) => Some((*v, *ty)),
                _ => None,
            })
            .collect();
        let Some(scalars) = scalars.filter(|_| written.is_some()) else {
            return self.unsupported(
                span,
                format!(
                    "a summary of recursive {name}, which writes more than its own locals and \
                     global scalars"
                ),
            );
        };
        if !self.is_true(self.cond) {
            return self.unsupported(span, format!("{name} called in a conditional operand"));
        }
        let copy = |this: &mut Self, base: String, ty: IntTy| {
            let name = this.fresh_name(&base);
            this.cfa.add_var(name, Sort::Bv(ty.bits), ty.signed)
        };
        let ins = (params.iter())
            .map(|&(p, ty)| match assigned.contains(&p) {
                true => copy(self, format!("{name}::in"), ty),
                false => p,
            })
            .collect();
        let globals = (scalars.into_iter())
            .map(|(g, ty)| (g, copy(self, format!("{name}::entry"), ty)))
            .collect();
        Ok(FrameSummary { ins, globals })
    }

    /// A call of `name` while it is active: a run of its body started with the arguments
    /// `held`, and a value its summary gives.
    pub(super) fn summarized_call(
        &mut self,
        name: &str,
        held: Vec<Held>,
        ret_ty: Option<IntTy>,
        span: &Span,
    ) -> R<Option<Rv>> {
        let frame = (self.frames.iter().rev())
            .find(|fr| fr.name == name)
            .expect("an active call");
        let (Some(entry), Some(summary), true) =
            (frame.entry, frame.summary.clone(), self.is_true(self.cond))
        else {
            return self.unsupported(
                span,
                format!("a summary of {name} called in a conditional operand"),
            );
        };
        let (params, returns, ret_var) = (frame.params.clone(), frame.ret, frame.ret_var);
        let mut values = Vec::with_capacity(params.len());
        for (&(_, ty), h) in params.iter().zip(&held) {
            let v = self.get(h);
            values.push(self.convert(v, ty)?);
        }
        // The run the call starts: the edge into the body, the block's store set aside.
        let store = self.store.clone();
        for (&(p, _), (&copy, &v)) in params.iter().zip(summary.ins.iter().zip(&values)) {
            self.write(p, v)?;
            self.write(copy, v)?;
        }
        let at_call: Vec<(VarId, TermId)> = (summary.globals.iter())
            .map(|&(g, copy)| (copy, self.read(g)))
            .collect();
        for &(copy, v) in &at_call {
            self.write(copy, v)?;
        }
        let started = self.cfa.bool_const(true);
        self.edge_to(entry, started)?;
        self.store = store;
        // What it returns and leaves in the globals it writes, as its summary says.
        let mut equal: Vec<(VarId, TermId)> = summary.ins.iter().copied().zip(values).collect();
        equal.extend(at_call);
        let written: Vec<VarId> = summary.globals.iter().map(|&(g, _)| g).collect();
        let mut read_only: Vec<VarId> = (self.globals.values())
            .filter_map(|b| match b {
                Binding::Var(v, CType::Int(_)) if !written.contains(v) => Some(*v),
                _ => None,
            })
            .collect();
        read_only.sort_unstable();
        equal.extend(read_only.into_iter().map(|g| (g, self.read(g))));
        let line = self.line(span);
        let draw = |this: &mut Self, what: String, bits: u32, signed: bool| {
            let n = this.cfa.add_nondet(Sort::Bv(bits), what, line, signed);
            this.drawn.push(n);
            n
        };
        let (bits, signed) = ret_ty.map_or((1, false), |t| (t.bits, t.signed));
        let n = draw(self, format!("{name}() by its summary"), bits, signed);
        let r = self.cfa.nondets[n].term;
        let mut outputs: Vec<(VarId, TermId)> = match (ret_ty, ret_var) {
            (Some(_), Some((v, _))) => vec![(v, r)],
            _ => Vec::new(),
        };
        for g in written {
            let var = &self.cfa.vars[g.index()];
            let (what, signed) = (format!("{} after {name}()", var.name), var.signed);
            let Sort::Bv(bits) = var.sort else {
                unreachable!("a global scalar")
            };
            let after = draw(self, what, bits, signed);
            let t = self.cfa.nondets[after].term;
            self.write(g, t)?;
            outputs.push((g, t));
        }
        self.cfa.nondets[n].summarized = Some(Summarized {
            returns,
            equal,
            outputs,
        });
        Ok(ret_ty.map(|ty| Rv { t: r, ty }))
    }
}
