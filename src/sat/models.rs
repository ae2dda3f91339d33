//! What the models of a solver under assumptions say about a set of literals: the values
//! they all agree on (the Cartesian abstraction of predicate abstraction) and their distinct
//! valuations (AllSAT, bounded: the Boolean and explicit domains). Both CEGAR engines, on
//! transition systems and on CFAs, compute abstract successors with these two queries, and
//! minimise the unsat cores of their unsat-core refinement with [`minimise_core`].
//!
//! The budget is checked between calls: the many quick calls of one query may never reach the
//! solver's own check.

use super::{Lit, SatResult, Solver};
use crate::Budget;

/// The value of each of `lits` that every model of `s` under `context` agrees on (`None`
/// where two models differ); `None` when interrupted, or when `context` has no model (callers
/// have found one under it: there is no such thing as the values of no model). Two checks per literal at most: the first model proposes the
/// values, each further model found rules out the values it contradicts, and a value
/// survives when its negation is unsatisfiable under `context`.
pub fn agreed<S: Solver>(
    s: &mut S,
    context: &[Lit],
    lits: &[Lit],
    budget: &Budget,
) -> Option<Vec<Option<bool>>> {
    if s.solve(context) != SatResult::Sat {
        return None;
    }
    let read = |s: &S, l: Lit| s.value(l).unwrap_or(false);
    let mut values: Vec<Option<bool>> = lits.iter().map(|&l| Some(read(s, l))).collect();
    let mut query = context.to_vec();
    for i in 0..lits.len() {
        let Some(v) = values[i] else { continue };
        if budget.expired() {
            return None;
        }
        query.push(if v { !lits[i] } else { lits[i] });
        let result = s.solve(&query);
        query.pop();
        match result {
            SatResult::Interrupted => return None,
            SatResult::Unsat => {}
            SatResult::Sat => {
                for (value, &l) in values.iter_mut().zip(lits) {
                    if *value != Some(read(s, l)) {
                        *value = None;
                    }
                }
            }
        }
    }
    Some(values)
}

/// The distinct valuations of a set of literals over the models of a solver.
#[derive(Debug, Eq, PartialEq)]
pub enum Valuations {
    /// All of them (none when there is no model).
    All(Vec<Vec<bool>>),
    /// More than the limit.
    TooMany,
}

/// The distinct valuations of `lits` over the models of `s` under `context`, if there are at
/// most `limit` of them; `None` when interrupted. The blocking clauses hold only under a fresh
/// activation literal, retired at the end, so that afterwards `s` has every model again.
pub fn enumerate<S: Solver>(
    s: &mut S,
    context: &[Lit],
    lits: &[Lit],
    limit: Option<usize>,
    budget: &Budget,
) -> Option<Valuations> {
    let act = s.new_var().pos_lit();
    let mut query = context.to_vec();
    query.push(act);
    let mut all = Vec::new();
    let outcome = loop {
        if budget.expired() {
            break None;
        }
        match s.solve(&query) {
            SatResult::Interrupted => break None,
            SatResult::Unsat => break Some(Valuations::All(std::mem::take(&mut all))),
            SatResult::Sat if limit.is_some_and(|k| all.len() >= k) => {
                break Some(Valuations::TooMany)
            }
            SatResult::Sat => {}
        }
        let valuation: Vec<bool> = lits.iter().map(|&l| s.value(l).unwrap_or(false)).collect();
        let block: Vec<Lit> = std::iter::once(!act)
            .chain((lits.iter().zip(&valuation)).map(|(&l, &v)| if v { !l } else { l }))
            .collect();
        s.add_clause(&block);
        all.push(valuation);
    };
    s.add_clause(&[!act]);
    outcome
}

/// Deletion-based minimisation of an unsat core: `core` indexes items whose activation
/// literal is `lit(i)`, and solving under the core's literals is unsatisfiable. Each item
/// dropped is one whose removal keeps it unsatisfiable; at most `tries` solve calls (an
/// interrupted call ends the minimisation).
pub fn minimise_core<S: Solver>(
    s: &mut S,
    mut core: Vec<usize>,
    lit: impl Fn(usize) -> Lit,
    tries: usize,
) -> Vec<usize> {
    let mut i = 0;
    for _ in 0..tries {
        if i >= core.len() {
            break;
        }
        let without: Vec<usize> = core.iter().copied().filter(|&j| j != core[i]).collect();
        let assumed: Vec<Lit> = without.iter().map(|&j| lit(j)).collect();
        match s.solve(&assumed) {
            SatResult::Unsat => core = without.into_iter().filter(|&j| s.failed(lit(j))).collect(),
            SatResult::Sat => i += 1,
            SatResult::Interrupted => break,
        }
    }
    core
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sat::Cadical;

    /// x0 ∨ x1 with x2 = x0 ∧ x1 and x3 true: x3 is agreed, the rest vary; three valuations
    /// of (x0, x1).
    fn solver(budget: &Budget) -> (Cadical, Vec<Lit>) {
        let mut s = Cadical::new(budget);
        let x: Vec<Lit> = (0..4).map(|_| s.new_var().pos_lit()).collect();
        s.add_clause(&[x[0], x[1]]);
        s.add_clause(&[!x[2], x[0]]);
        s.add_clause(&[!x[2], x[1]]);
        s.add_clause(&[x[2], !x[0], !x[1]]);
        s.add_clause(&[x[3]]);
        (s, x)
    }

    #[test]
    fn agreed_keeps_exactly_the_entailed_values() {
        let budget = Budget::new(None);
        let (mut s, x) = solver(&budget);
        assert_eq!(
            agreed(&mut s, &[], &x, &budget),
            Some(vec![None, None, None, Some(true)])
        );
        // Under ¬x0: x1 true, x2 false.
        assert_eq!(
            agreed(&mut s, &[!x[0]], &x, &budget),
            Some(vec![Some(false), Some(true), Some(false), Some(true)])
        );
    }

    #[test]
    fn enumerate_lists_each_valuation_once_and_respects_the_limit() {
        let budget = Budget::new(None);
        let (mut s, x) = solver(&budget);
        let Some(Valuations::All(mut all)) = enumerate(&mut s, &[], &x[..2], None, &budget) else {
            panic!("expected all valuations");
        };
        all.sort();
        assert_eq!(
            all,
            vec![vec![false, true], vec![true, false], vec![true, true]]
        );
        assert_eq!(
            enumerate(&mut s, &[], &x[..2], Some(2), &budget),
            Some(Valuations::TooMany)
        );
        assert_eq!(
            enumerate(&mut s, &[], &x[..2], Some(3), &budget).map(|v| v != Valuations::TooMany),
            Some(true)
        );
        // The blocking clauses are retired: every model is back.
        assert_eq!(s.solve(&[x[0], x[1]]), SatResult::Sat);
        assert_eq!(
            enumerate(&mut s, &[!x[0], !x[1]], &x[..2], None, &budget),
            Some(Valuations::All(Vec::new()))
        );
    }
}
