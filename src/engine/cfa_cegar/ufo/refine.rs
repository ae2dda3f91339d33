//! UFO's refinement of every error path of a round's DAG at once.
//!
//! The paper's ARG condition gives each node `u` that reaches the error a control variable
//! `c_u` and its own copy of the program variables, and asserts `c_u => OR over edges (u, w)
//! (c_w AND encode(u, w))` with `c` of the root true: its models are exactly the feasible
//! executions from the root to the error along the DAG. The query for the root (the initial
//! values against the whole condition) therefore decides all error paths: satisfiable, the
//! edges its selectors choose are a counterexample.
//!
//! Refuted, the labels are DAG interpolants. The root's query is partitioned node by node in
//! topological order (the initial values, then each node's part of the condition), and the
//! interpolant of the cut before node `u` speaks of the nodes whose edges in cross the cut;
//! with `c_u` true, the other nodes' control variables false and their variables zero (the
//! part before the cut says nothing of a node it does not enter), it is `u`'s candidate
//! label: it holds in every state of `u` reachable along the DAG. The paper projects the same
//! interpolants on their nodes by quantifying the other nodes' control variables and
//! variables away (CLEAN, with Z3's quantifier elimination), which makes them block every
//! path to the error and makes consecutive labels Hoare triples; on bits that is universal
//! quantification over whole words, so here the candidates are checked instead: each must
//! follow from its edges in (the join over its parents `w` of `label(w) AND encode(w, u)`,
//! one small query), the error's *false* included. When one does not (setting the other
//! control variables false drops the paths through them), every label is computed node by
//! node in topological order as a binary interpolant of the node's edges in against the ARG
//! condition of the sub-DAG below it, unsatisfiable because the parents' labels block every
//! path to the error (a query per node over the DAG below it, quadratic where the other is
//! one query). Either way each edge's source label and the edge entail its target's, the
//! root's label holds initially and the error's is *false*: the paper's REFINE contract
//! (Definition 2).

use std::collections::HashMap;

use super::dag::Dag;
use super::Counters;
use crate::aig;
use crate::engine::cfa_cegar::program::Program;
use crate::sat::itp::{Interpolant, ItpSolver, System};
use crate::sat::{self, Cadical, SatResult, Solver};
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
        let r = u == err
            || dag
                .edges_out(u)
                .any(|(_, w)| reaches.get(&w) == Some(&true));
        reaches.insert(u, r);
    }
    let on_path: Vec<usize> = (dag.order.iter().copied())
        .filter(|u| reaches[u] && *u != err)
        .collect();
    let mut labels = match candidates(prog, dag, &reaches, &on_path, budget) {
        Found::Labels(c) => c,
        Found::Path(edges) => return Refined::Feasible(edges),
        Found::Stopped(why) => return Refined::Stopped(why),
    };
    labels.insert(err, aig::Lit::FALSE);
    // The candidates are a DAG interpolant when each follows from its edges in, the error's
    // *false* included (the root's interpolates the initial values: it holds there).
    let mut hold = true;
    for &v in on_path.iter().skip(1).chain([&err]) {
        if budget.expired() {
            return Refined::Stopped("interrupted".into());
        }
        match follows(prog, dag, &|u| labels[&u], v, labels[&v], budget) {
            Some(true) => {}
            Some(false) => {
                hold = false;
                break;
            }
            None => return Refined::Stopped("interrupted".into()),
        }
    }
    if hold {
        return Refined::Labels(labels);
    }
    // Otherwise node by node: each label interpolates between the node's edges in from its
    // parents' labels and the paths from it to the error, which those labels block.
    let mut labels: HashMap<usize, aig::Lit> = HashMap::from([(err, aig::Lit::FALSE)]);
    for &v in &on_path {
        if budget.expired() {
            return Refined::Stopped("interrupted".into());
        }
        counters.interpolants += 1;
        let (itp, map) = match interpolate(prog, dag, &reaches, &labels, v, budget) {
            Ok(Some(found)) => found,
            Ok(None) => {
                labels.insert(v, aig::Lit::FALSE);
                continue;
            }
            Err(why) => return Refined::Stopped(why),
        };
        match itp.copy_into(&mut prog.circuits.aig, |x| map.get(&x).copied()) {
            Some(label) => labels.insert(v, label),
            None => return Refined::Stopped("an interpolant reads non-state variables".into()),
        };
    }
    Refined::Labels(labels)
}

/// The outcome of the root's query.
enum Found {
    /// Each node's candidate label.
    Labels(HashMap<usize, aig::Lit>),
    /// Satisfiable: these CFA edges reach the error.
    Path(Vec<usize>),
    Stopped(String),
}

/// The root's query, partitioned node by node: a feasible error path, or each node's
/// candidate label (see the module documentation).
fn candidates(
    prog: &mut Program,
    dag: &Dag,
    reaches: &HashMap<usize, bool>,
    on_path: &[usize],
    budget: &Budget,
) -> Found {
    let mut s = ItpSolver::new(budget);
    s.set_partition(0);
    let state = prog.fresh_state(&mut s);
    initial_values(&mut s, &state);
    let mut parts = HashMap::new();
    let mut part = |s: &mut ItpSolver, u: usize| {
        let p = parts.len() as u32 + 1;
        parts.insert(u, p);
        s.set_partition(p);
    };
    let Some(cond) = arg_condition(&mut s, prog, dag, reaches, 0, &state, &mut part, budget) else {
        return Found::Stopped("interrupted".into());
    };
    match s.solve(&[]) {
        SatResult::Sat => return Found::Path(cond.path(&s)),
        SatResult::Interrupted => return Found::Stopped("interrupted".into()),
        SatResult::Unsat if budget.expired() => return Found::Stopped("interrupted".into()),
        SatResult::Unsat => {}
    }
    let mut itps = Vec::with_capacity(on_path.len());
    for &u in on_path {
        // A large DAG has a large proof, labelled once per node.
        if budget.expired() {
            return Found::Stopped("interrupted".into());
        }
        match s.interpolant(parts[&u] - 1, System::McMillan) {
            Ok(itp) => itps.push((u, itp)),
            Err(e) => return Found::Stopped(e.to_string()),
        }
    }
    // Every solver variable of a node's state or control: the node and, for a state bit, its
    // variable leaf.
    let mut owner: HashMap<sat::Var, (usize, Option<aig::Lit>)> = HashMap::new();
    for (&u, bits) in &cond.states {
        for (x, &leaf) in bits.iter().flatten().zip(prog.vars.iter().flatten()) {
            owner.insert(x.var(), (u, Some(leaf)));
        }
    }
    for (&u, c) in &cond.control {
        owner.insert(c.var(), (u, None));
    }
    let mut out = HashMap::with_capacity(itps.len());
    for (u, itp) in itps {
        // `u` entered (its control true, its state the leaves), the others not (control
        // false, state zero).
        let value = |x: sat::Var| {
            owner.get(&x).map(|&(w, leaf)| match (w == u, leaf) {
                (true, Some(leaf)) => leaf,
                (true, None) => aig::Lit::TRUE,
                (false, _) => aig::Lit::FALSE,
            })
        };
        match itp.copy_into(&mut prog.circuits.aig, value) {
            Some(label) => out.insert(u, label),
            None => return Found::Stopped("an interpolant reads a variable of no node".into()),
        };
    }
    Found::Labels(out)
}

/// Whether `candidate` holds after every edge of this round into `v` from a state of its
/// parent's label `label_of(parent)` (`None`: interrupted).
pub(super) fn follows(
    prog: &Program,
    dag: &Dag,
    label_of: &dyn Fn(usize) -> aig::Lit,
    v: usize,
    candidate: aig::Lit,
    budget: &Budget,
) -> Option<bool> {
    let mut s = Cadical::for_one_shot(budget);
    let state = prog.fresh_state(&mut s);
    if !edges_in(&mut s, prog, dag, label_of, v, &state) {
        return Some(true);
    }
    let mut view = prog.view(&state);
    let c = view.lit(&mut s, candidate, 0);
    s.add_clause(&[!c]);
    match s.solve(&[]) {
        SatResult::Unsat => Some(true),
        SatResult::Sat => Some(false),
        SatResult::Interrupted => None,
    }
}

/// Encodes that one of `v`'s edges in fires from a state of its parent's label into `state`;
/// `false` when no parent's label lets one fire (every label *false*), and nothing is
/// encoded.
fn edges_in<S: Solver>(
    s: &mut S,
    prog: &Program,
    dag: &Dag,
    label_of: &dyn Fn(usize) -> aig::Lit,
    v: usize,
    state: &[Vec<sat::Lit>],
) -> bool {
    let mut fired = Vec::new();
    for (u, e) in dag.edges_in(v) {
        let label = label_of(u);
        if label == aig::Lit::FALSE {
            continue;
        }
        let before = prog.fresh_state(s);
        let mut view = prog.view(&before);
        let t = s.new_var().pos_lit();
        let l = view.lit(s, label, 0);
        s.add_clause(&[!t, l]);
        encode_edge(s, prog, &mut view, e, t, state);
        fired.push(t);
    }
    if !fired.is_empty() {
        s.add_clause(&fired);
    }
    !fired.is_empty()
}

/// Node `v`'s label as a binary interpolant of its edges in from the labelled parents (the
/// root's: the initial values; partition 0) against the ARG condition below it (partition
/// 1), with the variable leaf
/// each of the interpolant's solver variables stands for; `None` when no edge in can fire
/// (the label is *false*); `Err`: why there is none.
#[allow(clippy::type_complexity)]
fn interpolate(
    prog: &Program,
    dag: &Dag,
    reaches: &HashMap<usize, bool>,
    labels: &HashMap<usize, aig::Lit>,
    v: usize,
    budget: &Budget,
) -> Result<Option<(Interpolant, HashMap<sat::Var, aig::Lit>)>, String> {
    let mut s = ItpSolver::new(budget);
    s.set_partition(0);
    let state = prog.fresh_state(&mut s);
    if v == 0 {
        initial_values(&mut s, &state);
    } else if !edges_in(&mut s, prog, dag, &|u| labels[&u], v, &state) {
        return Ok(None);
    }
    s.set_partition(1);
    let no_parts = &mut |_: &mut ItpSolver, _| {};
    if arg_condition(&mut s, prog, dag, reaches, v, &state, no_parts, budget).is_none() {
        return Err("interrupted".into());
    }
    match s.solve(&[]) {
        SatResult::Sat => Err("a DAG interpolation query is satisfiable".into()),
        SatResult::Interrupted => Err("interrupted".into()),
        SatResult::Unsat if budget.expired() => Err("interrupted".into()),
        SatResult::Unsat => {
            let itp = s
                .interpolant(0, System::McMillan)
                .map_err(|e| e.to_string())?;
            let map = (state.iter().flatten())
                .zip(prog.vars.iter().flatten())
                .map(|(x, &leaf)| (x.var(), leaf))
                .collect();
            Ok(Some((itp, map)))
        }
    }
}

/// The initial values in `state`: every variable zero.
fn initial_values(s: &mut impl Solver, state: &[Vec<sat::Lit>]) {
    for l in state.iter().flatten() {
        s.add_clause(&[!*l]);
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

/// An ARG condition encoded in a solver: per node, its variables, its control variable and
/// its edges' (CFA edge, child, selector).
struct Condition {
    states: HashMap<usize, Vec<Vec<sat::Lit>>>,
    control: HashMap<usize, sat::Lit>,
    selectors: HashMap<usize, Vec<(usize, usize, sat::Lit)>>,
}

impl Condition {
    /// The CFA edges from the root that the selectors of a model choose, to the error.
    fn path(&self, s: &impl Solver) -> Vec<usize> {
        let mut path = Vec::new();
        let mut at = 0;
        while let Some(&(e, w, _)) = (self.selectors.get(&at).into_iter().flatten())
            .find(|&&(_, _, x)| s.value(x) == Some(true))
        {
            path.push(e);
            at = w;
        }
        path
    }
}

/// The ARG condition of the sub-DAG of the nodes that reach the error below `from` (whose
/// variables are `state`), with `from`'s control variable true; `part` is told each node
/// before its part is encoded. `None`: interrupted.
#[allow(clippy::too_many_arguments)]
fn arg_condition<S: Solver>(
    s: &mut S,
    prog: &Program,
    dag: &Dag,
    reaches: &HashMap<usize, bool>,
    from: usize,
    state: &[Vec<sat::Lit>],
    part: &mut dyn FnMut(&mut S, usize),
    budget: &Budget,
) -> Option<Condition> {
    let mut cond = Condition {
        states: HashMap::from([(from, state.to_vec())]),
        control: HashMap::new(),
        selectors: HashMap::new(),
    };
    let start = dag
        .order
        .iter()
        .position(|&u| u == from)
        .expect("a node of the round");
    for &u in &dag.order[start..] {
        if u == from {
            part(s, u);
            let c = s.new_var().pos_lit();
            s.add_clause(&[c]);
            cond.control.insert(from, c);
        }
        let Some(&cu) = cond.control.get(&u) else {
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
        if u != from {
            part(s, u);
        }
        let mut view = prog.view(&cond.states[&u]);
        let mut out = Vec::with_capacity(edges.len());
        let mut clause = vec![!cu];
        for (e, w) in edges {
            let cw = *cond
                .control
                .entry(w)
                .or_insert_with(|| s.new_var().pos_lit());
            let after = (cond.states.entry(w))
                .or_insert_with(|| prog.fresh_state(s))
                .clone();
            let sel = s.new_var().pos_lit();
            s.add_clause(&[!sel, cw]);
            encode_edge(s, prog, &mut view, e, sel, &after);
            clause.push(sel);
            out.push((e, w, sel));
        }
        s.add_clause(&clause);
        cond.selectors.insert(u, out);
    }
    Some(cond)
}
