//! Recursion by procedure summaries, for the Horn clauses ([`super::translate_summarized`]).
//!
//! A recursive function's body is translated once, where its outermost call inlines it, and
//! stands for every run of it: a recursive call (one made while the function is active)
//! starts a run there (an edge into the body with the parameters set) and takes its value
//! from the states at the body's end, where every run returns ([`crate::cfa::Summarized`]).
//! The body's states are then those of all runs, told apart by what the summary needs:
//! - a copy of each parameter's entry value (the parameters themselves may be assigned),
//!   which the summary matches against the call's arguments;
//! - a flag set in the runs the recursive calls start: only the outermost run returns into
//!   its caller, the others only answer summaries.
//!
//! The globals a call can write are the rest of its effect: the body keeps a copy of each
//! one's entry value too, the summary matches the copies against the globals' values at the
//! call, and the call's caller goes on with their values at the end of the body. The globals
//! it only reads keep their values during the call, which the summary matches as they are.
//! Recursive functions that write anything else (an array, a `static` local, through a
//! pointer) are unsupported here (the inlining translation still reads them). Reaching the
//! error inside a run needs nothing more: that run's states are in the body.

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
    /// Whether the run was started by a recursive call (1 bit).
    nested: VarId,
}

impl Translator<'_> {
    /// At the outermost call of recursive function `name` whose parameters `params` were
    /// just assigned: their entry copies and the written globals', and the flag of an
    /// outermost run.
    pub(super) fn enter_summarized(
        &mut self,
        name: &str,
        params: &[(VarId, IntTy)],
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
        let mut ins = Vec::with_capacity(params.len());
        for &(p, ty) in params {
            ins.push(self.entry_copy(&format!("{name}::in"), p, ty)?);
        }
        let mut globals = Vec::with_capacity(scalars.len());
        for (g, ty) in scalars {
            globals.push((g, self.entry_copy(&format!("{name}::entry"), g, ty)?));
        }
        let flag = self.fresh_name(&format!("{name}::nested"));
        let nested = self.cfa.add_var(flag, Sort::Bv(1), false);
        let outermost = self.cfa.bool_const(false);
        self.write(nested, outermost)?;
        Ok(FrameSummary {
            ins,
            globals,
            nested,
        })
    }

    /// A variable named after `base` holding the current value of `v` (of type `ty`).
    fn entry_copy(&mut self, base: &str, v: VarId, ty: IntTy) -> R<VarId> {
        let name = self.fresh_name(base);
        let copy = (self.cfa).add_var(name, Sort::Bv(ty.bits), ty.signed);
        let value = self.read(v);
        self.write(copy, value)?;
        Ok(copy)
    }

    /// After the outermost call's body: only its own run goes on into the caller.
    pub(super) fn leave_summarized(&mut self, summary: &FrameSummary) -> R<()> {
        let nested = self.read(summary.nested);
        let outermost = self.not(nested)?;
        self.assume(outermost)
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
        self.write(summary.nested, started)?;
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
