//! The predicate domains: abstract reachability with coverage over predicates on the latches.
//!
//! A predicate is an AIG function of the latches (built in a copy of the system's AIG, which
//! grows with the interpolants). An abstract state is a disjunction of cubes over the
//! predicates; the graph starts from the abstraction of the initial states and expands
//! waiting nodes in BFS or DFS order. A node is *unsafe* when its state meets a bad state
//! (under the constraints), *covered* when its state implies the disjunction of the other
//! uncovered nodes (coverage by the union: a one-location system reaches its fixpoint that
//! way, seed 000 section 1.7), else it is expanded: its successor is the abstraction of the
//! image of its state (constraints hold in both frames, as in a trace). Cartesian and Boolean
//! abstraction give one child; split Boolean abstraction one child per cube.
//!
//! When no node is waiting, the disjunction of the uncovered nodes is an inductive invariant:
//! it contains the initial states, every uncovered node's image lies in its children, each
//! either uncovered or covered by nodes that are (coverage happens before expansion, so a
//! covered node has no children), and no node meets a bad state. An unsafe node's path is
//! checked on the concrete system ([`super::path`]); spurious, its sequence interpolants,
//! split into predicates, join the (global) precision and the graph is pruned below the first
//! node they refine (or restarted).

use std::collections::{HashMap, HashSet, VecDeque};

use super::path::{refute, PathQuery, Refutation};
use super::{
    property_latches, CegarOptions, CegarStats, Domain, InitPrec, PredSplit, Prune, Search,
};
use crate::aig::{self, Node as Gate};
use crate::cert::Invariant;
use crate::engine::Verdict;
use crate::sat::itp::ItpSolver;
use crate::sat::{self, Cadical, SatResult, Solver};
use crate::ts::{Trace, TransitionSystem};
use crate::unroll::{Start, Unroller};
use crate::Budget;

/// Predicate values: `(index, value)`.
type Cube = Vec<(usize, bool)>;
/// A disjunction of cubes (empty: no state).
type State = Vec<Cube>;

struct Node {
    state: State,
    parent: Option<usize>,
    children: Vec<usize>,
    covered: bool,
    expanded: bool,
    /// False once pruned.
    live: bool,
}

/// The abstract reachability graph (a tree plus coverage).
#[derive(Default)]
struct Arg {
    nodes: Vec<Node>,
    waiting: VecDeque<usize>,
}

impl Arg {
    fn add(&mut self, state: State, parent: Option<usize>) {
        let id = self.nodes.len();
        self.nodes.push(Node {
            state,
            parent,
            children: Vec::new(),
            covered: false,
            expanded: false,
            live: true,
        });
        if let Some(p) = parent {
            self.nodes[p].children.push(id);
        }
        self.waiting.push_back(id);
    }

    /// The nodes from the root to `n`.
    fn path_to(&self, n: usize) -> Vec<usize> {
        let mut path = vec![n];
        while let Some(p) = self.nodes[*path.last().unwrap()].parent {
            path.push(p);
        }
        path.reverse();
        path
    }

    /// Removes the subtree of `n` and puts its parent back to waiting; every covered node is
    /// uncovered (its covering set may have lost members) and waits again.
    fn prune(&mut self, n: usize) {
        let mut stack = vec![n];
        while let Some(m) = stack.pop() {
            self.nodes[m].live = false;
            stack.extend(std::mem::take(&mut self.nodes[m].children));
        }
        if let Some(p) = self.nodes[n].parent {
            let parent = &mut self.nodes[p];
            parent.children.clear();
            parent.expanded = false;
            self.waiting.push_back(p);
        }
        for (id, node) in self.nodes.iter_mut().enumerate() {
            if node.live && node.covered {
                node.covered = false;
                self.waiting.push_back(id);
            }
        }
    }
}

/// The predicates and the system their circuits live in.
struct Precision {
    sys: TransitionSystem,
    preds: Vec<aig::Lit>,
    known: HashSet<aig::Lit>,
}

impl Precision {
    /// Adds `p` unless it is constant or known; whether it was new.
    fn add(&mut self, p: aig::Lit) -> bool {
        let p = if p.is_negated() { !p } else { p };
        if p.is_const() || !self.known.insert(p) {
            return false;
        }
        self.preds.push(p);
        true
    }
}

pub(super) fn run(
    ts: &TransitionSystem,
    opts: &CegarOptions,
    budget: &Budget,
    stats: &mut CegarStats,
) -> Verdict {
    let mut prec = Precision {
        sys: ts.clone(),
        preds: Vec::new(),
        known: HashSet::new(),
    };
    if opts.init_prec == InitPrec::Prop {
        for i in property_latches(ts) {
            prec.add(ts.latches[i].var.lit());
        }
    }
    let mut arg = Arg::default();
    loop {
        if budget.expired() {
            return Verdict::Unknown { depth: None };
        }
        stats.precision = prec.preds.len() as u64;
        let explored = explore(&prec, &mut arg, opts, budget, stats);
        stats.arg_nodes = arg.nodes.len() as u64;
        let unsafe_node = match explored {
            Explore::Safe => return Verdict::Safe(invariant(&prec, &arg)),
            Explore::Stopped => return Verdict::Unknown { depth: None },
            Explore::Unsafe(n) => n,
        };
        let path = arg.path_to(unsafe_node);
        stats.spurious_depth_max = stats.spurious_depth_max.max(path.len() as u64 - 1);
        let states: Vec<&State> = path.iter().map(|&n| &arg.nodes[n].state).collect();
        match refine(&mut prec, &states, opts.pred_split, budget) {
            Refined::Feasible(t) => return Verdict::Unsafe(t),
            Refined::Stopped => return Verdict::Unknown { depth: None },
            Refined::NoProgress => {
                crate::log::info(1, format_args!("cegar: refinement added no predicate"));
                return Verdict::Unknown { depth: None };
            }
            Refined::Pivot(t) => {
                stats.refinements += 1;
                crate::log::info(
                    2,
                    format_args!(
                        "cegar: spurious path of {} steps, {} predicates",
                        path.len() - 1,
                        prec.preds.len()
                    ),
                );
                if t == 0 || opts.prune == Prune::Full {
                    arg = Arg::default();
                } else {
                    arg.prune(path[t]);
                }
            }
        }
    }
}

enum Explore {
    Safe,
    Unsafe(usize),
    Stopped,
}

/// Expands waiting nodes until none waits or one is unsafe.
fn explore(
    prec: &Precision,
    arg: &mut Arg,
    opts: &CegarOptions,
    budget: &Budget,
    stats: &mut CegarStats,
) -> Explore {
    let mut ab = Abstractor::new(prec, budget);
    if arg.nodes.is_empty() {
        let Some(init) = ab.initial(opts.domain) else {
            return Explore::Stopped;
        };
        add_children(arg, init, None, opts.domain);
    }
    loop {
        let next = match opts.search {
            Search::Bfs => arg.waiting.pop_front(),
            Search::Dfs => arg.waiting.pop_back(),
        };
        let Some(n) = next else {
            return Explore::Safe;
        };
        if budget.expired() {
            return Explore::Stopped;
        }
        let node = &arg.nodes[n];
        if !node.live || node.covered || node.expanded {
            continue;
        }
        match ab.meets_bad(arg, n) {
            SatResult::Sat => return Explore::Unsafe(n),
            SatResult::Interrupted => return Explore::Stopped,
            SatResult::Unsat => {}
        }
        match ab.covered(arg, n) {
            SatResult::Unsat => {
                arg.nodes[n].covered = true;
                stats.covered += 1;
                continue;
            }
            SatResult::Interrupted => return Explore::Stopped,
            SatResult::Sat => {}
        }
        let Some(succ) = ab.post(arg, n, opts.domain) else {
            return Explore::Stopped;
        };
        add_children(arg, succ, Some(n), opts.domain);
        arg.nodes[n].expanded = true;
    }
}

/// Adds the nodes of an abstract successor (none when it is empty).
fn add_children(arg: &mut Arg, succ: State, parent: Option<usize>, domain: Domain) {
    if succ.is_empty() {
        return;
    }
    if domain == Domain::PredSplit {
        for cube in succ {
            arg.add(vec![cube], parent);
        }
    } else {
        arg.add(succ, parent);
    }
}

/// The solver literal of `state` over the predicates in frame `frame` of `un`.
fn state_lit<S: Solver>(
    s: &mut S,
    un: &mut Unroller,
    preds: &[aig::Lit],
    state: &State,
    frame: usize,
) -> sat::Lit {
    let cubes: Vec<sat::Lit> = state
        .iter()
        .map(|cube| {
            let lits: Vec<sat::Lit> = cube
                .iter()
                .map(|&(p, v)| {
                    let l = un.lit(s, preds[p], frame);
                    if v {
                        l
                    } else {
                        !l
                    }
                })
                .collect();
            gate(s, &lits, true)
        })
        .collect();
    gate(s, &cubes, false)
}

/// A fresh literal equivalent to the conjunction (`and`) or disjunction of `lits`.
fn gate<S: Solver>(s: &mut S, lits: &[sat::Lit], and: bool) -> sat::Lit {
    // An OR is a negated AND of negated inputs.
    let g = s.new_var().pos_lit();
    let (out, ins): (sat::Lit, Vec<sat::Lit>) = if and {
        (g, lits.to_vec())
    } else {
        (!g, lits.iter().map(|&l| !l).collect())
    };
    let mut long = vec![out];
    for &l in &ins {
        s.add_clause(&[!out, l]);
        long.push(!l);
    }
    s.add_clause(&long);
    g
}

/// The abstraction of the states satisfying `context` onto `lits` (predicate literals):
/// Boolean (every cube, AllSAT) or Cartesian (one cube). `None` when interrupted. The budget
/// is checked between calls: the many quick calls of an enumeration may never reach the
/// solver's own check.
fn image<S: Solver>(
    s: &mut S,
    context: &[sat::Lit],
    lits: &[sat::Lit],
    domain: Domain,
    budget: &Budget,
) -> Option<State> {
    let read = |s: &S| -> Vec<bool> { lits.iter().map(|&l| s.value(l).unwrap_or(false)).collect() };
    match s.solve(context) {
        SatResult::Interrupted => return None,
        SatResult::Unsat => return Some(Vec::new()),
        SatResult::Sat => {}
    }
    if domain == Domain::PredCart {
        let mut cand: Vec<Option<bool>> = read(s).into_iter().map(Some).collect();
        for p in 0..lits.len() {
            let Some(v) = cand[p] else { continue };
            if budget.expired() {
                return None;
            }
            let mut a = context.to_vec();
            a.push(if v { !lits[p] } else { lits[p] });
            match s.solve(&a) {
                SatResult::Interrupted => return None,
                SatResult::Unsat => {}
                SatResult::Sat => {
                    for (c, m) in cand.iter_mut().zip(read(s)) {
                        if *c != Some(m) {
                            *c = None;
                        }
                    }
                }
            }
        }
        let cube = cand
            .into_iter()
            .enumerate()
            .filter_map(|(p, v)| v.map(|v| (p, v)))
            .collect();
        return Some(vec![cube]);
    }
    // AllSAT under a fresh activation literal, retired afterwards.
    let act = s.new_var().pos_lit();
    let mut a = context.to_vec();
    a.push(act);
    let mut cubes = Vec::new();
    let mut result = SatResult::Sat;
    while result == SatResult::Sat {
        if budget.expired() {
            return None;
        }
        let values = read(s);
        let mut block = vec![!act];
        block.extend(
            lits.iter()
                .zip(&values)
                .map(|(&l, &v)| if v { !l } else { l }),
        );
        s.add_clause(&block);
        cubes.push(values.into_iter().enumerate().collect());
        result = s.solve(&a);
    }
    s.add_clause(&[!act]);
    (result == SatResult::Unsat).then_some(cubes)
}

/// The queries of one precision: images, bad states and coverage, in one incremental solver
/// over two frames of the system. The constraints hold in frame 0; in frame 1 only for
/// images (under `step`): a state without a successor that satisfies them is still
/// reachable, so coverage and bad-state queries must not see them.
struct Abstractor<'a> {
    prec: &'a Precision,
    budget: &'a Budget,
    solver: Cadical,
    un: Unroller<'a>,
    /// Implies a bad state in frame 0.
    bad: sat::Lit,
    /// Implies the constraints in frame 1.
    step: sat::Lit,
    /// The frame-0 literal of each node's state encoded so far (a live node's state never
    /// changes).
    encoded: HashMap<usize, sat::Lit>,
}

impl<'a> Abstractor<'a> {
    fn new(prec: &'a Precision, budget: &'a Budget) -> Abstractor<'a> {
        let sys = &prec.sys;
        let mut solver = Cadical::new(budget);
        let mut un = Unroller::new(sys, Start::Free);
        let step = solver.new_var().pos_lit();
        for &c in &sys.constraints {
            let now = un.lit(&mut solver, c, 0);
            solver.add_clause(&[now]);
            let next = un.lit(&mut solver, c, 1);
            solver.add_clause(&[!step, next]);
        }
        let bad = solver.new_var().pos_lit();
        let mut clause = vec![!bad];
        for &b in &sys.bad {
            clause.push(un.lit(&mut solver, b, 0));
        }
        solver.add_clause(&clause);
        Abstractor {
            prec,
            budget,
            solver,
            un,
            bad,
            step,
            encoded: HashMap::new(),
        }
    }

    /// The frame-0 literal of node `n`'s state.
    fn lit(&mut self, arg: &Arg, n: usize) -> sat::Lit {
        if let Some(&l) = self.encoded.get(&n) {
            return l;
        }
        let l = state_lit(
            &mut self.solver,
            &mut self.un,
            &self.prec.preds,
            &arg.nodes[n].state,
            0,
        );
        self.encoded.insert(n, l);
        l
    }

    /// The abstraction of the initial states (under the constraints), in a solver of its own.
    fn initial(&mut self, domain: Domain) -> Option<State> {
        let sys = &self.prec.sys;
        let mut s = Cadical::for_small_queries(self.budget);
        let mut un = Unroller::new(sys, Start::Init);
        for &c in &sys.constraints {
            let l = un.lit(&mut s, c, 0);
            s.add_clause(&[l]);
        }
        let lits: Vec<sat::Lit> = self
            .prec
            .preds
            .iter()
            .map(|&p| un.lit(&mut s, p, 0))
            .collect();
        image(&mut s, &[], &lits, domain, self.budget)
    }

    fn post(&mut self, arg: &Arg, n: usize, domain: Domain) -> Option<State> {
        let now = self.lit(arg, n);
        let lits: Vec<sat::Lit> = (0..self.prec.preds.len())
            .map(|p| self.un.lit(&mut self.solver, self.prec.preds[p], 1))
            .collect();
        image(
            &mut self.solver,
            &[now, self.step],
            &lits,
            domain,
            self.budget,
        )
    }

    fn meets_bad(&mut self, arg: &Arg, n: usize) -> SatResult {
        let now = self.lit(arg, n);
        self.solver.solve(&[now, self.bad])
    }

    /// `Unsat` when node `n`'s state implies the disjunction of the other uncovered nodes'.
    fn covered(&mut self, arg: &Arg, n: usize) -> SatResult {
        let mut a = vec![self.lit(arg, n)];
        for (m, o) in arg.nodes.iter().enumerate() {
            if m != n && o.live && !o.covered {
                let l = self.lit(arg, m);
                a.push(!l);
            }
        }
        self.solver.solve(&a)
    }
}

enum Refined {
    Feasible(Trace),
    /// Spurious; the first path position the new predicates refine.
    Pivot(usize),
    NoProgress,
    Stopped,
}

/// Checks the path through `states` on the concrete system; spurious, adds the split
/// sequence interpolants to the precision (whole ones if splitting adds nothing new).
fn refine(prec: &mut Precision, states: &[&State], split: PredSplit, budget: &Budget) -> Refined {
    let depth = states.len() - 1;
    let mut s = ItpSolver::new(budget);
    let (itps, maps) = {
        let preds = &prec.preds;
        let q = PathQuery::encode(
            &mut s,
            &prec.sys,
            depth,
            &vec![false; prec.sys.latches.len()],
            &mut |s: &mut ItpSolver, p| s.set_partition(p),
            &mut |s, un, t| vec![state_lit(s, un, preds, states[t], 0)],
        );
        let itps = match refute(&mut s, &q, depth, budget) {
            Refutation::Refuted(itps) => itps,
            Refutation::Feasible(trace) => return Refined::Feasible(trace),
            Refutation::Stopped => return Refined::Stopped,
            Refutation::NoInterpolants(e) => {
                crate::log::info(1, format_args!("cegar: no interpolants: {e}"));
                return Refined::NoProgress;
            }
        };
        let maps: Vec<_> = (0..=depth).map(|t| q.latches_of_frame(t)).collect();
        (itps, maps)
    };
    let mut pieces = Vec::new();
    for (itp, map) in itps.iter().zip(&maps) {
        if budget.expired() {
            return Refined::Stopped;
        }
        let latches = &prec.sys.latches;
        if itp.num_ands() > MAX_PREDICATE_ANDS {
            let support = itp.vars().filter_map(|v| map.get(&v));
            pieces.push(Piece::Latches(
                support.map(|&i| latches[i].var.lit()).collect(),
            ));
            continue;
        }
        let f = itp.copy_into(&mut prec.sys.aig, |v| {
            map.get(&v).map(|&i| latches[i].var.lit())
        });
        let Some(f) = f else {
            return Refined::NoProgress;
        };
        pieces.push(Piece::Formula(f));
    }
    let refines = |p: &Piece| match p {
        Piece::Formula(f) => *f != aig::Lit::TRUE,
        Piece::Latches(l) => !l.is_empty(),
    };
    let Some(pivot) = pieces.iter().position(refines) else {
        return Refined::NoProgress;
    };
    let mut added = false;
    for piece in &pieces {
        let preds = match piece {
            Piece::Formula(f) => split_formula(&prec.sys, *f, split),
            Piece::Latches(l) => l.clone(),
        };
        for p in preds {
            added |= prec.add(p);
        }
    }
    if !added {
        for piece in &pieces {
            if let Piece::Formula(f) = piece {
                added |= prec.add(*f);
            }
        }
    }
    if added {
        Refined::Pivot(pivot)
    } else {
        Refined::NoProgress
    }
}

/// Interpolants with more AND gates than this give the latches of their support as
/// predicates instead of their circuit: interpolants from the proofs of large circuits can
/// be huge, and copying, re-encoding and abstracting onto them costs more than they help.
const MAX_PREDICATE_ANDS: usize = 1000;

/// What one interpolant of a spurious path contributes.
enum Piece {
    Formula(aig::Lit),
    /// The latches of an interpolant too large to keep.
    Latches(Vec<aig::Lit>),
}

/// The predicates `f` splits into.
fn split_formula(sys: &TransitionSystem, f: aig::Lit, split: PredSplit) -> Vec<aig::Lit> {
    match split {
        PredSplit::Whole => vec![f],
        PredSplit::Conjuncts => {
            let mut out = Vec::new();
            let mut stack = vec![f];
            while let Some(l) = stack.pop() {
                match sys.aig.node(l.var()) {
                    Gate::And(a, b) if !l.is_negated() => {
                        stack.push(a);
                        stack.push(b);
                    }
                    _ => out.push(l),
                }
            }
            out
        }
        PredSplit::Atoms => {
            let cone = sys.aig.cone([f]);
            sys.latches
                .iter()
                .filter(|l| cone[l.var.index()])
                .map(|l| l.var.lit())
                .collect()
        }
    }
}

/// The disjunction of the uncovered nodes, over the latches of `prec.sys`.
fn invariant(prec: &Precision, arg: &Arg) -> Invariant {
    let mut system = prec.sys.clone();
    let mut disjuncts = Vec::new();
    for node in arg.nodes.iter().filter(|n| n.live && !n.covered) {
        for cube in &node.state {
            let lits: Vec<aig::Lit> = cube
                .iter()
                .map(|&(p, v)| prec.preds[p].xor_sign(!v))
                .collect();
            let c = system.aig.and_all(lits);
            disjuncts.push(c);
        }
    }
    let predicate = system.aig.or_all(disjuncts);
    Invariant { system, predicate }
}
