//! The domain of a query for the CDCL back end: the variables it decides (GipSAT's domain
//! restriction, after rIC3). A relative-induction query about a small cube only needs the
//! cone of that cube's next-state functions; deciding the whole transition relation held
//! by the frame's solver is what made the unrestricted solver slow on large frames.
//!
//! Why a `Sat` answer restricted to the domain is sound (the contract of
//! [`crate::sat::Cdcl::solve_in`]). The domain holds every state and input variable the
//! solver has encoded (the leaves of both frames), every assumption and the activation,
//! `valid` and `next_valid` literals, and is closed under gate inputs from the roots: the
//! target (the cube's latches in the next state, or the bad literals and `bad` itself),
//! the constraints of both frames and the state signals (`--ic3-inn`) that lemmas or
//! temporary clauses name in the current state. Every clause of a frame solver is then
//! either (a) made of domain variables only: lemmas and temporary clauses (state variables,
//! signals and activation literals), the clauses of the gates of the domain (whose inputs
//! are in it: the walk goes through the gates the unroller merged into wider ones to their
//! operands), the constraint units and the definitions of `valid` and `next_valid` (whose
//! cones are roots); or (b) the definition of a gate outside the domain, or of `bad` when the target
//! is a cube; or (c) a clause of a guard that is neither assumed nor retired, whose
//! negation satisfies it. Given any assignment of the domain that satisfies the clauses of
//! (a), evaluating the gates and `bad` outside the domain from the leaves (all assigned)
//! and setting the free guards false satisfies (b) and (c): a model. Learnt clauses follow
//! from the others, so they hold in it too. Hence when the solver has assigned the whole
//! domain without conflict, a model agrees with its trail, and the state and inputs IC3
//! reads (leaves, all assigned) are that model's.

use super::{FrameSolver, Target};
use crate::aig::{self, Node};
use crate::sat;

impl FrameSolver<'_> {
    /// The variables a query about `target` under `assumptions` decides (see the module
    /// documentation for why they suffice).
    pub(super) fn domain(&mut self, target: Target, assumptions: &[sat::Lit]) -> Vec<sat::Var> {
        let ts = self.un.ts();
        let mut domain: Vec<sat::Var> = (assumptions.iter().copied())
            .chain(
                [self.valid, self.next_valid, self.temp]
                    .into_iter()
                    .flatten(),
            )
            .map(|l| l.var())
            .collect();
        let leaves = (ts.latches.iter().map(|l| (l.var, 0)))
            .chain(ts.inputs.iter().flat_map(|&i| [(i, 0), (i, 1)]));
        domain.extend(leaves.filter_map(|(v, k)| self.un.encoded(v.lit(), k).map(|l| l.var())));
        let mut roots: Vec<(aig::Var, usize)> = (ts.constraints.iter())
            .flat_map(|c| [(c.var(), 0), (c.var(), 1)])
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
