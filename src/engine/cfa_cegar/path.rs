//! The concrete check of an abstract error path of a CFA: the path's edges bit-blasted into
//! one query (fresh nondet bits per edge firing), partitioned for interpolation.
//!
//! Partition 0 holds the initial values (every variable zero), partition `t + 1` the firing of
//! the path's `t`-th edge: its guard over the state variables `V_t`, and `V_(t+1)` (fresh
//! variables) equal to its assignments. Two sides of cut `t` share exactly `V_t`, so the
//! interpolant of cut `t` is a predicate over the program variables at the path's `t`-th
//! node. A *window* of the path leaves out the initial values (the backward binary strategy
//! checks suffixes) or the last edges (the forward one checks prefixes).

use std::collections::HashMap;

use super::program::Program;
use crate::aig;
pub(super) use crate::engine::cegar::path::Strategy;
use crate::engine::cegar::path::{lowest_feasible, CORE_MIN_TRIES};
use crate::sat::itp::{ItpSolver, System};
use crate::sat::{self, models, Cadical, SatResult, Solver};
use crate::unroll::Unroller;
use crate::Budget;

/// The edges `from..to` of a path, and whether the initial values hold before the first.
#[derive(Copy, Clone)]
struct Window {
    from: usize,
    to: usize,
    init: bool,
}

/// A window of a path encoded in a solver.
struct Query<'p> {
    /// `states[t]`: the variables' bits before the window's `t`-th edge (and after the last).
    states: Vec<Vec<Vec<sat::Lit>>>,
    /// The view of each edge firing (its nondet bits).
    firings: Vec<Unroller<'p>>,
}

impl<'p> Query<'p> {
    /// Encodes window `w` of `path`, partition by partition through `part`; with `guards`
    /// (one activation literal per variable), a variable's initial value and updates hold
    /// only under its literal (unguarded, it is free at every node).
    fn encode<S: Solver>(
        s: &mut S,
        prog: &'p Program,
        path: &[usize],
        w: Window,
        part: &mut dyn FnMut(&mut S, u32),
        guards: Option<&[sat::Lit]>,
        budget: &Budget,
    ) -> Option<Query<'p>> {
        // A clause, weakened by variable `x`'s guard.
        let guarded = |s: &mut S, x: usize, lits: &[sat::Lit]| match guards {
            Some(g) => s.add_clause(&[&[!g[x]], lits].concat()),
            None => s.add_clause(lits),
        };
        part(s, 0);
        let first = prog.fresh_state(s);
        if w.init {
            for (x, bits) in first.iter().enumerate() {
                for l in bits {
                    guarded(s, x, &[!*l]);
                }
            }
        }
        let mut states = vec![first];
        let mut firings = Vec::new();
        for (t, &e) in path[w.from..w.to].iter().enumerate() {
            // An edge's circuit can be large: the memory watcher's stop must be seen between
            // two of them, not after the whole path.
            if budget.expired() {
                return None;
            }
            part(s, t as u32 + 1);
            let mut un = prog.view(&states[t]);
            let edge = &prog.edges[e];
            let g = un.lit(s, edge.guard, 0);
            s.add_clause(&[g]);
            let after = prog.fresh_state(s);
            for (v, (bits, lits)) in edge.next.iter().zip(&after).enumerate() {
                for (&b, &x) in bits.iter().zip(lits) {
                    let y = un.lit(s, b, 0);
                    guarded(s, v, &[!x, y]);
                    guarded(s, v, &[x, !y]);
                }
            }
            states.push(after);
            firings.push(un);
        }
        Some(Query { states, firings })
    }

    /// The bits of the nondet values each edge firing drew (in the edge's drawing order),
    /// from the solver's model.
    fn drawn(&self, s: &impl Solver, prog: &Program, path: &[usize]) -> Drawn {
        (path.iter().zip(&self.firings))
            .map(|(&e, un)| {
                (prog.cfa.edges[e].nondets.iter())
                    .map(|&n| {
                        let bits = (prog.nondets[n].iter())
                            .map(|&l| un.value(s, l, 0))
                            .collect();
                        (n, bits)
                    })
                    .collect()
            })
            .collect()
    }
}

/// Per edge firing, the nondet sources it drew and their values' bits (flattened as
/// [`crate::wl::Bits::flat`]).
pub(super) type Drawn = Vec<Vec<(usize, Vec<bool>)>>;

/// A predicate learnt from a spurious path: it holds at the path's node `node` (the node
/// after `node` edges) for every concrete execution of the path's prefix, and rules out the
/// rest of the path.
pub(super) struct Cut {
    pub node: usize,
    /// The interpolant over the variable leaves of the program's AIG.
    pub pred: aig::Lit,
}

/// The outcome of checking an abstract error path.
pub(super) enum Check {
    /// Feasible: the nondet values drawn by each edge firing.
    Feasible(Drawn),
    Refuted(Vec<Cut>),
    /// The budget ran out, or the proof gave no interpolants.
    Stopped(String),
}

/// Checks the error path `path` (edge indices from the entry) of `prog`, with the
/// transition-system engine's strategies on the path's nodes: sequence (one interpolant
/// per node); backward binary (with `i` the lowest node whose suffix is feasible without
/// initial values, one interpolant at node `i` between edge `i - 1`, or the initial values,
/// and that suffix); forward binary (with `0..k` the longest feasible prefix of edges, one
/// interpolant at node `k` between that prefix and edge `k`).
pub(super) fn check(
    prog: &mut Program,
    path: &[usize],
    strategy: Strategy,
    budget: &Budget,
) -> Check {
    let n = path.len();
    let whole = Window {
        from: 0,
        to: n,
        init: true,
    };
    let (w, cuts): (Window, Vec<usize>) = match strategy {
        Strategy::Sequence => (whole, (0..n).collect()),
        Strategy::BackwardBinary => {
            let suffix = |i: usize| Window {
                from: i,
                to: n,
                init: false,
            };
            let Some(i) = lowest_feasible(0..n + 1, |i| feasible(prog, path, suffix(i), budget))
            else {
                return Check::Stopped("interrupted".into());
            };
            match i {
                0 => (whole, vec![0]),
                _ => (
                    Window {
                        from: i - 1,
                        to: n,
                        init: false,
                    },
                    vec![i],
                ),
            }
        }
        Strategy::ForwardBinary => {
            let prefix = |k: usize| Window {
                from: 0,
                to: k,
                init: true,
            };
            // The lowest k whose prefix of k edges is infeasible.
            let Some(k) = lowest_feasible(0..n + 1, |k| {
                feasible(prog, path, prefix(k), budget).map(|f| !f)
            }) else {
                return Check::Stopped("interrupted".into());
            };
            match k {
                k if k > n => (whole, vec![]),
                0 => (whole, vec![0]),
                k => (prefix(k), vec![k - 1]),
            }
        }
    };
    interpolate(prog, path, w, &cuts, budget)
}

/// What the unsat-core refinement learns from an abstract error path.
pub(super) enum Needed {
    /// Feasible: the nondet values drawn by each edge firing.
    Feasible(Drawn),
    /// Spurious: these variables (a minimised unsat core) rule it out.
    Vars(Vec<usize>),
    Stopped,
}

/// Checks the error path `path` with every variable's initial value and updates guarded by
/// an activation literal of its own; refuted, the variables of a minimised unsat core of
/// the guards (seed 000's unsat-core refinement of explicit values: tracked everywhere,
/// they rule the path out, as the abstraction leaves untracked variables free).
pub(super) fn needed_vars(prog: &Program, path: &[usize], budget: &Budget) -> Needed {
    let mut s = Cadical::new(budget);
    let guards: Vec<sat::Lit> = prog.vars.iter().map(|_| s.new_var().pos_lit()).collect();
    let whole = Window {
        from: 0,
        to: path.len(),
        init: true,
    };
    let no_parts = &mut |_: &mut Cadical, _| {};
    let Some(q) = Query::encode(&mut s, prog, path, whole, no_parts, Some(&guards), budget) else {
        return Needed::Stopped;
    };
    match s.solve(&guards) {
        SatResult::Sat => return Needed::Feasible(q.drawn(&s, prog, path)),
        SatResult::Interrupted => return Needed::Stopped,
        SatResult::Unsat => {}
    }
    let core: Vec<usize> = (0..guards.len()).filter(|&x| s.failed(guards[x])).collect();
    let core = models::minimise_core(&mut s, core, |x| guards[x], CORE_MIN_TRIES);
    Needed::Vars(core)
}

fn feasible(prog: &Program, path: &[usize], w: Window, budget: &Budget) -> Option<bool> {
    let mut s = Cadical::for_one_shot(budget);
    Query::encode(&mut s, prog, path, w, &mut |_, _| {}, None, budget)?;
    match s.solve(&[]) {
        SatResult::Sat => Some(true),
        SatResult::Unsat => Some(false),
        SatResult::Interrupted => None,
    }
}

/// Solves window `w`; refuted, the interpolants at path nodes `cuts` (within the window),
/// copied into the program's AIG. A feasible window is a counterexample only when it is the
/// whole path.
fn interpolate(
    prog: &mut Program,
    path: &[usize],
    w: Window,
    cuts: &[usize],
    budget: &Budget,
) -> Check {
    let mut s = ItpSolver::new(budget);
    let (itps, leaves) = {
        let set_partition = &mut |s: &mut ItpSolver, p| s.set_partition(p);
        let Some(q) = Query::encode(&mut s, prog, path, w, set_partition, None, budget) else {
            return Check::Stopped("interrupted".into());
        };
        match s.solve(&[]) {
            SatResult::Sat if w.init && w.from == 0 && w.to == path.len() => {
                return Check::Feasible(q.drawn(&s, prog, path))
            }
            SatResult::Sat | SatResult::Interrupted => return Check::Stopped("interrupted".into()),
            SatResult::Unsat if budget.expired() => return Check::Stopped("interrupted".into()),
            SatResult::Unsat => {}
        }
        let mut itps = Vec::with_capacity(cuts.len());
        let mut leaves = Vec::with_capacity(cuts.len());
        for &node in cuts {
            // A long path has a large proof, labelled once per cut.
            if budget.expired() {
                return Check::Stopped("interrupted".into());
            }
            let local = node - w.from;
            match s.interpolant(local as u32, System::McMillan) {
                Ok(itp) => itps.push((node, itp)),
                Err(e) => return Check::Stopped(e.to_string()),
            }
            // Which variable leaf each solver variable of the cut's state stands for.
            let map: HashMap<sat::Var, aig::Lit> = (q.states[local].iter().flatten())
                .zip(prog.vars.iter().flatten())
                .map(|(x, &leaf)| (x.var(), leaf))
                .collect();
            leaves.push(map);
        }
        (itps, leaves)
    };
    let mut out = Vec::with_capacity(itps.len());
    for ((node, itp), map) in itps.into_iter().zip(leaves) {
        let aig = &mut prog.circuits.aig;
        match itp.copy_into(aig, |v| map.get(&v).copied()) {
            Some(pred) => out.push(Cut { node, pred }),
            None => return Check::Stopped("an interpolant reads non-state variables".into()),
        }
    }
    Check::Refuted(out)
}
