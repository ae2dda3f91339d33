//! UFO's refinement of every error path of a round's DAG at once.
//!
//! The paper's ARG condition gives each node `u` that reaches the error a control variable
//! `c_u` and its own copy of the program variables, and asserts `c_u => OR over edges (u, w)
//! (c_w AND encode(u, w))` with `c` of the root true: its models are exactly the feasible
//! executions from the root to the error along the DAG. The query for the root (the initial
//! values against the whole condition) therefore decides all error paths: satisfiable, the
//! edges its selectors choose are a counterexample.
//!
//! Refuted, the labels are DAG interpolants computed node by node in topological order: node
//! `v`'s label interpolates between its edges in (the join over its parents `u` of `label(u)
//! AND encode(u, v)`, the root's: the initial values) and the ARG condition of the sub-DAG
//! below `v`. Each such query is unsatisfiable when the parents' are (a state of `v` reached
//! from `label(u)` that reaches the error would make `label(u)` reach it too), each edge's
//! source label and the edge entail its target's by construction, and the error's label is
//! *false*: the paper's REFINE contract (Definition 2). The paper instead cuts one sequence
//! interpolant of the ARG condition and projects each piece on its node by quantifying out
//! the other nodes' variables (CLEAN, with Z3's quantifier elimination); on bits that is
//! universal quantification over whole words of other nodes, so each node gets a binary
//! interpolation query of its own here.

use std::collections::HashMap;

use super::dag::Dag;
use super::Counters;
use crate::aig;
use crate::engine::cfa_cegar::program::Program;
use crate::sat::itp::{Interpolant, ItpSolver, System};
use crate::sat::{self, SatResult, Solver};
use crate::Budget;

/// What a refinement found.
pub(super) enum Refined {
    /// A label for every node of the round that reaches the error (the error's *false*).
    Labels(HashMap<usize, aig::Lit>),
    /// A feasible error path: its CFA edges from the entry.
    Feasible(Vec<usize>),
    Stopped(String),
}

/// Refines the DAG of `dag`'s current round, whose error node is `err`.
pub(super) fn refine(
    prog: &mut Program,
    dag: &Dag,
    err: usize,
    counters: &mut Counters,
    budget: &Budget,
) -> Refined {
    // The round's nodes that reach the error, in topological order.
    let mut reaches: HashMap<usize, bool> = HashMap::from([(err, true)]);
    for &u in dag.order.iter().rev() {
        let r = u == err || dag.edges_out(u).any(|(_, w)| reaches.get(&w) == Some(&true));
        reaches.insert(u, r);
    }
    let on_path: Vec<usize> = (dag.order.iter().copied())
        .filter(|u| reaches[u] && *u != err)
        .collect();
    let mut labels: HashMap<usize, aig::Lit> = HashMap::from([(err, aig::Lit::FALSE)]);
    for &v in &on_path {
        if budget.expired() {
            return Refined::Stopped("interrupted".into());
        }
        counters.interpolants += 1;
        let found = interpolate(prog, dag, &reaches, &labels, v, budget);
        let (itp, map) = match found {
            Found::Label(itp, map) => (itp, map),
            Found::False => {
                labels.insert(v, aig::Lit::FALSE);
                continue;
            }
            Found::Path(edges) => return Refined::Feasible(edges),
            Found::Stopped(why) => return Refined::Stopped(why),
        };
        match itp.copy_into(&mut prog.circuits.aig, |x| map.get(&x).copied()) {
            Some(label) => labels.insert(v, label),
            None => return Refined::Stopped("an interpolant reads non-state variables".into()),
        };
    }
    Refined::Labels(labels)
}

/// The outcome of one node's query.
enum Found {
    /// The interpolant, and the variable leaf each of its solver variables stands for.
    Label(Interpolant, HashMap<sat::Var, aig::Lit>),
    /// No parent's label lets an edge in fire.
    False,
    /// The root's query is satisfiable: these CFA edges reach the error.
    Path(Vec<usize>),
    Stopped(String),
}

/// Node `v`'s query: its edges in from the labelled parents (partition 0) against the ARG
/// condition below it (partition 1).
fn interpolate(
    prog: &Program,
    dag: &Dag,
    reaches: &HashMap<usize, bool>,
    labels: &HashMap<usize, aig::Lit>,
    v: usize,
    budget: &Budget,
) -> Found {
    let mut s = ItpSolver::new(budget);
    s.set_partition(0);
    let state = prog.fresh_state(&mut s);
    if v == 0 {
        // The initial values: every variable zero.
        for l in state.iter().flatten() {
            s.add_clause(&[!*l]);
        }
    } else {
        let mut fired = Vec::new();
        for (u, e) in dag.edges_in(v) {
            let label = labels[&u];
            if label == aig::Lit::FALSE {
                continue;
            }
            let before = prog.fresh_state(&mut s);
            let mut view = prog.view(&before);
            let t = s.new_var().pos_lit();
            let l = view.lit(&mut s, label, 0);
            s.add_clause(&[!t, l]);
            encode_edge(&mut s, prog, &mut view, e, t, &state);
            fired.push(t);
        }
        if fired.is_empty() {
            return Found::False;
        }
        s.add_clause(&fired);
    }
    s.set_partition(1);
    let Some(selectors) = arg_condition(&mut s, prog, dag, reaches, v, &state, budget) else {
        return Found::Stopped("interrupted".into());
    };
    match s.solve(&[]) {
        SatResult::Sat if v == 0 => {
            let mut path = Vec::new();
            let mut at = 0;
            while let Some(&(e, w, _)) = (selectors.get(&at).into_iter().flatten())
                .find(|&&(_, _, x)| s.value(x) == Some(true))
            {
                path.push(e);
                at = w;
            }
            Found::Path(path)
        }
        SatResult::Sat => Found::Stopped("a DAG interpolation query is satisfiable".into()),
        SatResult::Interrupted => Found::Stopped("interrupted".into()),
        SatResult::Unsat if budget.expired() => Found::Stopped("interrupted".into()),
        SatResult::Unsat => match s.interpolant(0, System::McMillan) {
            Ok(itp) => {
                let map = (state.iter().flatten())
                    .zip(prog.vars.iter().flatten())
                    .map(|(x, &leaf)| (x.var(), leaf))
                    .collect();
                Found::Label(itp, map)
            }
            Err(e) => Found::Stopped(e.to_string()),
        },
    }
}

/// Encodes, under `sel`, one firing of CFA edge `e` from the state bound in `view` to the
/// state `after`.
fn encode_edge<S: Solver>(
    s: &mut S,
    prog: &Program,
    view: &mut crate::unroll::Unroller,
    e: usize,
    sel: sat::Lit,
    after: &[Vec<sat::Lit>],
) {
    let edge = &prog.edges[e];
    let g = view.lit(s, edge.guard, 0);
    s.add_clause(&[!sel, g]);
    for (bits, lits) in edge.next.iter().zip(after) {
        for (&b, &x) in bits.iter().zip(lits) {
            let y = view.lit(s, b, 0);
            s.add_clause(&[!sel, !x, y]);
            s.add_clause(&[!sel, x, !y]);
        }
    }
}

/// The ARG condition of the sub-DAG of the nodes that reach the error below `from` (whose
/// variables are `state`), with `from`'s control variable true; per node, its edges'
/// (CFA edge, child, selector). `None`: interrupted.
#[allow(clippy::type_complexity)]
fn arg_condition<S: Solver>(
    s: &mut S,
    prog: &Program,
    dag: &Dag,
    reaches: &HashMap<usize, bool>,
    from: usize,
    state: &[Vec<sat::Lit>],
    budget: &Budget,
) -> Option<HashMap<usize, Vec<(usize, usize, sat::Lit)>>> {
    let mut states: HashMap<usize, Vec<Vec<sat::Lit>>> = HashMap::from([(from, state.to_vec())]);
    let mut control: HashMap<usize, sat::Lit> = HashMap::new();
    let c = s.new_var().pos_lit();
    s.add_clause(&[c]);
    control.insert(from, c);
    let mut selectors = HashMap::new();
    let start = dag.order.iter().position(|&u| u == from).expect("a node of the round");
    for &u in &dag.order[start..] {
        let Some(&cu) = control.get(&u) else {
            continue;
        };
        let edges: Vec<(usize, usize)> = (dag.edges_out(u))
            .filter(|(_, w)| reaches.get(w) == Some(&true))
            .collect();
        if edges.is_empty() {
            continue;
        }
        // An edge's circuit can be large: the memory watcher's stop must be seen between
        // two of them.
        if budget.expired() {
            return None;
        }
        let mut view = prog.view(&states[&u]);
        let mut out = Vec::with_capacity(edges.len());
        let mut clause = vec![!cu];
        for (e, w) in edges {
            let cw = *control.entry(w).or_insert_with(|| s.new_var().pos_lit());
            let after = states.entry(w).or_insert_with(|| prog.fresh_state(s)).clone();
            let sel = s.new_var().pos_lit();
            s.add_clause(&[!sel, cw]);
            encode_edge(s, prog, &mut view, e, sel, &after);
            clause.push(sel);
            out.push((e, w, sel));
        }
        s.add_clause(&clause);
        selectors.insert(u, out);
    }
    Some(selectors)
}
