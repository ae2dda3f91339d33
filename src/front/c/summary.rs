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
//! A summary over the parameters and the return value is the whole effect of a call when no
//! function the call can run writes anything but its own locals: the globals it reads keep
//! their values during the call, which the summary matches too. Recursive functions that
//! write globals are unsupported here (the inlining translation still reads them).
//! Reaching the error inside a run needs nothing more: that run's states are in the body.

use lang_c::span::Span;

use super::expr::{Held, Rv};
use super::{Binding, CType, IntTy, Translator, VarId, R};
use crate::cfa::Summarized;
use crate::wl::Sort;

/// The variables a summarized function's body keeps for its summary.
#[derive(Clone, Debug)]
pub(super) struct FrameSummary {
    /// The entry value of each parameter.
    ins: Vec<VarId>,
    /// Whether the run was started by a recursive call (1 bit).
    nested: VarId,
}

impl Translator<'_> {
    /// At the outermost call of recursive function `name` whose parameters `params` were
    /// just assigned: their entry copies, and the flag of an outermost run.
    pub(super) fn enter_summarized(
        &mut self,
        name: &str,
        params: &[(VarId, IntTy)],
        span: &Span,
    ) -> R<FrameSummary> {
        if !self.writes_only_own(name) {
            return self.unsupported(
                span,
                format!("a summary of recursive {name}, which writes more than its own locals"),
            );
        }
        if !self.is_true(self.cond) {
            return self.unsupported(span, format!("{name} called in a conditional operand"));
        }
        let mut ins = Vec::with_capacity(params.len());
        for &(p, ty) in params {
            let copy = self.fresh_name(&format!("{name}::in"));
            let v = (self.cfa).add_var(copy, Sort::Bv(ty.bits), ty.signed);
            let value = self.read(p);
            self.write(v, value)?;
            ins.push(v);
        }
        let flag = self.fresh_name(&format!("{name}::nested"));
        let nested = self.cfa.add_var(flag, Sort::Bv(1), false);
        let outermost = self.cfa.bool_const(false);
        self.write(nested, outermost)?;
        Ok(FrameSummary { ins, nested })
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
        let started = self.cfa.bool_const(true);
        self.write(summary.nested, started)?;
        self.edge_to(entry, started)?;
        self.store = store;
        // The value it returns, as its summary says.
        let mut equal: Vec<(VarId, crate::wl::TermId)> =
            summary.ins.iter().copied().zip(values).collect();
        let mut globals: Vec<VarId> = (self.globals.values())
            .filter_map(|b| match b {
                Binding::Var(v, CType::Int(_)) => Some(*v),
                _ => None,
            })
            .collect();
        globals.sort_unstable();
        equal.extend(globals.into_iter().map(|g| (g, self.read(g))));
        let (bits, signed) = ret_ty.map_or((1, false), |t| (t.bits, t.signed));
        let line = self.line(span);
        let what = format!("{name}() by its summary");
        let n = self.cfa.add_nondet(Sort::Bv(bits), what, line, signed);
        self.cfa.nondets[n].summarized = Some(Summarized {
            returns,
            equal,
            result: ret_ty.and(ret_var.map(|(v, _)| v)),
        });
        self.drawn.push(n);
        let t = self.cfa.nondets[n].term;
        Ok(ret_ty.map(|ty| Rv { t, ty }))
    }
}
