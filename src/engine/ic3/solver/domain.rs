//! The domain of a query for the CDCL back end: the variables it decides (GipSAT's domain
//! restriction, after rIC3). A relative-induction query about a small cube only needs the cone
//! of that cube's next-state functions; deciding the whole transition relation held by the
//! frame's solver is what made the unrestricted solver slow on large frames.
//!
//! What the domain holds: every assumption, the activation and `valid` literals, the variables
//! of the query's temporary clause and of every clause the IC3 layer added (lemmas, shared
//! candidates and their guards: [`FrameSolver::add_clause`] names them), and the cones of the
//! roots, closed under gate inputs: the target (the cube's latches in the next state, or the
//! bad literals and `bad` itself), the constraints of the current state (in frame solvers on
//! this back end only the conjuncts a model has broken: [`super::lazy_cst`]), those of the next
//! state when the query assumes `next_valid`, and the state signals (`--ic3-inn`) that lemmas
//! or temporary clauses name in the current state. Latches and inputs in none of these are not
//! decided (rIC3 decides the same set: the cone of the cube plus the variables of the lemmas);
//! before, every encoded latch and input was, which on wide designs made every query assign the
//! whole state.
//!
//! Why a `Sat` answer restricted to the domain is sound (the contract of
//! [`crate::sat::Cdcl::solve_in`]). Every original clause of a frame solver is either (a) made
//! of domain variables only: lemmas, candidates and guards (named) and the query's temporary
//! clause, the clauses of the gates of the domain (whose inputs are in it: the walk goes
//! through the gates the unroller merged into wider ones to their operands), the constraint
//! units (those whose cones are not roots are checked by evaluation before `Sat` is
//! answered, see [`super::lazy_cst`]), the definition of `valid`, and that of `next_valid` when it is assumed (their cones
//! are roots); or (b) the definition of a gate outside the domain, or of `bad` when the target
//! is a cube; or (c) a retired temporary clause, satisfied by its level-0 unit, or the
//! definition of an unassumed `next_valid` (`v -> c'`), satisfied by `v` false. Take the
//! trail's values for the domain, any values for the leaves (latches, inputs) outside it (their
//! level-0 values, or false as [`FrameSolver::state`] reads them), `next_valid` false when it
//! is outside, and evaluate the gates and `bad` outside the domain from the leaves: (a) holds
//! because the solver assigned the whole domain without conflict, (b) by evaluation, (c) by its
//! unit or `v` false. That is a model of the original clauses, so learnt clauses (implied by
//! them) hold in it too, and the state and inputs IC3 reads are that model's.

use super::{FrameSolver, Target};
use crate::aig::{self, Node};
use crate::sat;

impl FrameSolver<'_> {
    /// The variables a query about `target` under `assumptions` decides (see the module
    /// documentation for why they suffice).
    pub(super) fn domain(&mut self, target: Target, assumptions: &[sat::Lit]) -> Vec<sat::Var> {
        let ts = self.un.ts();
        let mut domain: Vec<sat::Var> = (assumptions.iter().copied())
            .chain([self.valid, self.temp].into_iter().flatten())
            .map(|l| l.var())
            .chain(self.named.iter().copied())
            .chain(self.temp_vars.iter().copied())
            .collect();
        // The next state's constraints only when the query assumes them: their cone runs
        // through the next-state functions of their latches and is most of the domain on
        // designs with many constraints (zipcpu: 8,172 variables of it in the next state,
        // 1,200 in the current one).
        let next = self.next_valid.is_some_and(|v| assumptions.contains(&v));
        // In the current state, the constraints or only their active conjuncts (see
        // [`super::lazy_cst`]).
        let current = match &self.lazy {
            Some(lazy) => lazy.roots(),
            None => &ts.constraints,
        };
        let mut roots: Vec<(aig::Var, usize)> = (current.iter().map(|c| (c.var(), 0)))
            .chain(ts.constraints.iter().filter(|_| next).map(|c| (c.var(), 1)))
            .chain(self.signals.iter().map(|&v| (v, 0)))
            .collect();
        match target {
            Target::Cube(cube) => roots.extend(cube.iter().map(|l| (l.var(), 1))),
            Target::Bad => {
                roots.extend(ts.bad.iter().map(|b| (b.var(), 0)));
                domain.extend(self.bad.map(|b| b.var()));
            }
        }
        self.cone(roots, &mut domain);
        domain
    }

    /// Adds to `domain` the encoded variables of the cones of `roots` (variable, frame),
    /// walking through the gates the unroller merged away.
    fn cone(&mut self, mut stack: Vec<(aig::Var, usize)>, domain: &mut Vec<sat::Var>) {
        let ts = self.un.ts();
        self.stamp += 1;
        if self.visited.len() < 2 * ts.aig.num_vars() {
            self.visited.resize(2 * ts.aig.num_vars(), 0);
        }
        while let Some((v, k)) = stack.pop() {
            let seen = &mut self.visited[2 * v.index() + k];
            if *seen == self.stamp {
                continue;
            }
            *seen = self.stamp;
            // A gate merged into a wider one has no variable, but its inputs may.
            let encoded = self.un.encoded(v.lit(), k);
            domain.extend(encoded.map(|x| x.var()));
            match ts.aig.node(v) {
                Node::And(a, b) => stack.extend([(a.var(), k), (b.var(), k)]),
                Node::Leaf if k == 1 && encoded.is_some() => {
                    if let Some(i) = self.un.latch_of(v) {
                        stack.push((ts.latches[i].next.var(), 0));
                    }
                }
                _ => {}
            }
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::{FrameSolver, Role, Target};
    use crate::engine::ic3::options::Ic3Sat;
    use crate::ts::TransitionSystem;
    use crate::Budget;

    /// Two independent latches, each loading an input of its own: `a' = x`, `b' = y`.
    pub(in crate::engine::ic3::solver) fn two_registers() -> TransitionSystem {
        let mut ts = TransitionSystem::default();
        let x = ts.add_input(None).lit();
        let y = ts.add_input(None).lit();
        ts.add_latch(Some(false), None);
        ts.add_latch(Some(false), None);
        ts.set_next(0, x);
        ts.set_next(1, y);
        let bad = ts.latches[0].var.lit();
        ts.bad.push(bad);
        ts.names.bad.push(None);
        ts
    }

    #[test]
    fn a_query_decides_its_cone_and_the_lemmas_variables_only() {
        let ts = two_registers();
        let (a, b) = (ts.latches[0].var.lit(), ts.latches[1].var.lit());
        let (x, y) = (ts.inputs[0], ts.inputs[1]);
        let mut s = FrameSolver::new(&ts, Role::Frame, &Budget::new(None), Ic3Sat::Cdcl);
        // Encode everything of both registers in both frames.
        assert!(s.relative_induction(&[a, b]).unwrap());
        let vars = |s: &FrameSolver, l: crate::aig::Lit, k| s.un.encoded(l, k).unwrap().var();
        let (a0, b0, x0, y0) = (
            vars(&s, a, 0),
            vars(&s, b, 0),
            vars(&s, x.lit(), 0),
            vars(&s, y.lit(), 0),
        );

        // A query about `a'` decides `x` (its next-state function) and the cube's own
        // current-state literal (the temporary clause), not `b` nor `y`.
        let cube = [a];
        assert!(s.relative_induction(&cube).unwrap());
        let domain = s.domain(Target::Cube(&cube), &[]);
        assert!(domain.contains(&x0) && domain.contains(&a0));
        assert!(!domain.contains(&b0) && !domain.contains(&y0));
        // The predecessor reads `b` as false, and it is one: `b` is unconstrained.
        let (state, _) = s.state();
        assert!(state.contains(&!b));

        // A lemma naming `b` (here: `b` holds in the frame) makes `b` part of every domain,
        // so the predecessor satisfies it.
        s.block(&[!b]);
        assert!(s.domain(Target::Cube(&cube), &[]).contains(&b0));
        assert!(s.relative_induction(&cube).unwrap());
        let (state, _) = s.state();
        assert!(state.contains(&b), "the lemma says b");
    }
}
