//! Tail calls as jumps: `return f(args)` where an active call of `f` would return this
//! call's value unchanged reassigns that call's parameters and jumps back to the start of its
//! body, instead of inlining one more level.
//!
//! Tail-recursive functions (`gcd`, `isEven`/`isOdd`, accumulator-style sums) then become
//! loops: the CFA is finite whatever the recursion depth, no recursion bound is needed, and
//! the engines prove them with loop invariants instead of unwinding them level by level.
//!
//! The reuse is exact when every frame from the active call of `f` (frame `a`) down to the
//! current one was itself entered by a tail call and all of them return the same type: each
//! of them then returns exactly what the new call returns (no conversion, nothing left to do
//! after it), so the frames between are dead and frame `a` can run the new call. Mutual
//! recursion works the same way (frame `a` is the nearest call of `f`, whatever lies between).

use lang_c::ast::Expression;
use lang_c::span::Node;

use super::expr::{callee_name, has_call, Held};
use super::{IntTy, Translator, VarId, R};

impl<'a> Translator<'a> {
    /// Handles `return e` when `e` is a call that can reuse an active call's frame (a jump,
    /// and `true`); otherwise marks a call of a function with a body as a tail call for the
    /// frame it pushes, and leaves the `return` to the caller (`false`).
    pub(super) fn tail_return(&mut self, e: &Node<Expression>) -> R<bool> {
        // With procedure summaries a recursive call is a summarized call: a jump would
        // reassign the parameters, whose values at the body's end the summary reads as the
        // entry values ([`super::summary`]).
        if self.summaries {
            return Ok(false);
        }
        let Expression::Call(c) = &e.node else {
            return Ok(false);
        };
        let Some(name) = callee_name(&c.node) else {
            return Ok(false);
        };
        if self.is_builtin(name) || !self.functions.contains_key(name) {
            return Ok(false);
        }
        let Some(a) = self.frames.iter().rposition(|fr| fr.name == name) else {
            self.tail_pending = true;
            return Ok(false);
        };
        let returns = |i: usize| self.frames[i].ret_var.map(|(_, t)| t);
        let chained = self.frames[a + 1..].iter().all(|fr| fr.tail)
            && (a..self.frames.len()).all(|i| returns(i) == returns(a));
        let params = self.frames[a].params.clone();
        let target = self.frames[a]
            .entry
            .filter(|_| chained && self.is_true(self.cond));
        let (Some(entry), true) = (target, params.len() == c.node.arguments.len()) else {
            self.tail_pending = true;
            return Ok(false);
        };
        let held = self.arguments(&c.node.arguments)?;
        self.assign_parameters(&params, held)?;
        self.jump(entry)?;
        Ok(true)
    }

    /// The values of a call's arguments, in order; a value is held in a temporary when a
    /// later argument has a call (which ends the block).
    pub(super) fn arguments(&mut self, args: &[Node<Expression>]) -> R<Vec<Held>> {
        let mut held = Vec::with_capacity(args.len());
        for (i, a) in args.iter().enumerate() {
            let v = self.value(a)?;
            let later = args[i + 1..].iter().any(has_call);
            held.push(self.hold(v, later)?);
        }
        Ok(held)
    }

    /// Assigns the argument values `held` to the parameters `params`, converted to their
    /// types, all at once (each value was computed before any parameter changes).
    pub(super) fn assign_parameters(
        &mut self,
        params: &[(VarId, IntTy)],
        held: Vec<Held>,
    ) -> R<()> {
        let values: Vec<_> = held.iter().map(|h| self.get(h)).collect();
        for (&(var, ty), value) in params.iter().zip(values) {
            let c = self.convert(value, ty)?;
            self.write(var, c)?;
        }
        Ok(())
    }
}
