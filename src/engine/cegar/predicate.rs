//! Abstract reachability with coverage over predicates on the latches: the predicate
//! domains, the explicit domain's graph (`--abstract-engine arg`) and their product.
//!
//! A predicate is an AIG function of the latches (built in a copy of the system's AIG, which
//! grows with the interpolants). The explicit domain is the special case whose predicates
//! are latches, each *tracked*: its successor values are enumerated (up to `--max-enum`
//! valuations per step, each its own node; beyond that, Cartesian: a latch keeps a value only
//! if every successor agrees on it, seed 000's "unknown"), and refinement adds the latches of
//! an interpolant's support. The product domain tracks the predicates that are single latches
//! that way and abstracts the others Cartesian. An abstract state is a disjunction of cubes
//! over the predicates; the graph starts from the abstraction of the initial states and
//! expands waiting nodes in BFS or DFS order. A node is *unsafe* when its state meets a bad state
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
//! checked on the concrete system ([`super::path`]); spurious, its interpolants (of the
//! `--refinement` strategy), split into predicates, join the (global) precision and the graph
//! is pruned below the first node they refine (or restarted). With `multi-seq` the graph is
//! explored to the end first and every unsafe node's path is refined (seed 000, Algorithm 5).

use std::collections::{HashMap, HashSet, VecDeque};

use super::path::{refine_by_core, refute, Check, Cut, PathStates, Refutation};
use super::{
    cone_latches, property_latches, CegarOptions, CegarStats, Domain, InitPrec, PredSplit, Prune,
    Refinement, Search,
};
use crate::aig;
use crate::cert::Invariant;
use crate::engine::Verdict;
use crate::sat::models::{self, Valuations};
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
    /// Meets a bad state (only kept in the graph while `multi-seq` explores on).
    unsafe_: bool,
    /// False once pruned.
    live: bool,
    /// The number of predicates its state was abstracted onto: below the precision's size,
    /// the state is *stale* (lazy pruning keeps nodes above a pivot as they were).
    precision: usize,
}

/// The abstract reachability graph (a tree plus coverage).
#[derive(Default)]
struct Arg {
    nodes: Vec<Node>,
    waiting: VecDeque<usize>,
}

impl Arg {
    fn add(&mut self, state: State, parent: Option<usize>, precision: usize) {
        let id = self.nodes.len();
        self.nodes.push(Node {
            state,
            parent,
            children: Vec::new(),
            covered: false,
            expanded: false,
            unsafe_: false,
            live: true,
            precision,
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

    /// Removes the subtrees of `n` and its siblings and puts its parent back to waiting (a
    /// root is removed alone); every covered node is
    /// uncovered (its covering set may have lost members) and waits again.
    fn prune(&mut self, n: usize) {
        // The parent is expanded again, which gives all its children anew.
        let mut stack = match self.nodes[n].parent {
            Some(p) => {
                let parent = &mut self.nodes[p];
                parent.expanded = false;
                self.waiting.push_back(p);
                std::mem::take(&mut parent.children)
            }
            None => vec![n],
        };
        while let Some(m) = stack.pop() {
            self.nodes[m].live = false;
            stack.extend(std::mem::take(&mut self.nodes[m].children));
        }
        for (id, node) in self.nodes.iter_mut().enumerate() {
            if node.live && node.covered {
                node.covered = false;
                self.waiting.push_back(id);
            }
        }
    }
}

/// The word-level atoms of a system ([`TransitionSystem::atoms`]) indexed by the latches they
/// read, so that `--pred-split atoms` can give the comparisons an interpolant's latches take
/// part in (on a BTOR2 model or a C program) instead of the latches themselves.
pub(super) struct WordAtoms {
    atoms: Vec<aig::Lit>,
    /// Per latch: the atoms that read it.
    by_latch: Vec<Vec<usize>>,
}

impl WordAtoms {
    pub(super) fn new(sys: &TransitionSystem) -> WordAtoms {
        let mut latch_of = vec![None; sys.aig.num_vars()];
        for (i, l) in sys.latches.iter().enumerate() {
            latch_of[l.var.index()] = Some(i);
        }
        let mut by_latch = vec![Vec::new(); sys.latches.len()];
        // `seen[v] == a + 1`: variable `v` was visited for atom `a` (one array for all cones).
        let mut seen = vec![0usize; sys.aig.num_vars()];
        for (a, atom) in sys.atoms.iter().enumerate() {
            let mut stack = vec![atom.var()];
            while let Some(v) = stack.pop() {
                if std::mem::replace(&mut seen[v.index()], a + 1) == a + 1 {
                    continue;
                }
                match sys.aig.node(v) {
                    aig::Node::And(x, y) => stack.extend([x.var(), y.var()]),
                    aig::Node::Leaf => {
                        if let Some(l) = latch_of[v.index()] {
                            by_latch[l].push(a);
                        }
                    }
                    aig::Node::False => {}
                }
            }
        }
        WordAtoms {
            atoms: sys.atoms.clone(),
            by_latch,
        }
    }

    /// The atoms that read any of `latches`, or `None` when there is none.
    fn meeting(&self, latches: impl IntoIterator<Item = usize>) -> Option<Vec<aig::Lit>> {
        let mut hit: Vec<usize> = latches
            .into_iter()
            .flat_map(|l| self.by_latch[l].iter().copied())
            .collect();
        hit.sort_unstable();
        hit.dedup();
        (!hit.is_empty()).then(|| hit.into_iter().map(|a| self.atoms[a]).collect())
    }
}

/// The predicates and the system their circuits live in.
struct Precision {
    sys: TransitionSystem,
    atoms: WordAtoms,
    preds: Vec<aig::Lit>,
    /// Per predicate: tracked explicitly (a latch of the explicit or product domain).
    tracked: Vec<bool>,
    known: HashSet<aig::Lit>,
}

impl Precision {
    /// Adds `p` unless it is constant or known; whether it was new.
    fn add(&mut self, p: aig::Lit, tracked: bool) -> bool {
        let p = if p.is_negated() { !p } else { p };
        if p.is_const() || !self.known.insert(p) {
            return false;
        }
        self.preds.push(p);
        self.tracked.push(tracked);
        true
    }

    /// The latches that are predicates.
    fn latches(&self) -> Vec<bool> {
        self.sys
            .latches
            .iter()
            .map(|l| self.known.contains(&l.var.lit()))
            .collect()
    }
}

/// How successors are abstracted onto the predicates in a domain.
struct Shape {
    /// Predicates whose successor values are enumerated (one cube per valuation).
    enumerated: Vec<usize>,
    /// Predicates abstracted Cartesian.
    cartesian: Vec<usize>,
    /// Enumerate at most this many valuations, then abstract all Cartesian.
    limit: Option<usize>,
    /// The cubes of an enumeration form one node (Boolean abstraction) rather than one each.
    merge: bool,
    /// The number of predicates abstracted onto.
    predicates: usize,
}

/// The most successor valuations the Boolean domains (`pred-bool`, `pred-split`) enumerate;
/// past it a successor is the Cartesian abstraction (which contains every valuation). Every
/// coverage, bad-state and path query encodes a node's whole disjunction of cubes, and with a
/// few dozen predicates AllSAT can find millions of them: enumerating and encoding those
/// outran the time limit by far (dblclockfft butterfly tasks, 32 predicates).
const MAX_BOOLEAN_CUBES: usize = 1024;

/// The number of successor valuations `domain` enumerates before going Cartesian, if it has
/// a limit (the tracked latches of the explicit and product domains).
fn enumeration_limit(domain: Domain, max_enum: usize) -> Option<usize> {
    match domain {
        Domain::Expl | Domain::Prod => (max_enum > 0).then_some(max_enum),
        _ => None,
    }
}

impl Shape {
    /// The shape of `opts.domain` with the enumeration limit `max_enum` (0: none).
    fn new(prec: &Precision, opts: &CegarOptions, max_enum: usize) -> Shape {
        let all = 0..prec.preds.len();
        let (enumerated, cartesian): (Vec<usize>, Vec<usize>) = match opts.domain {
            Domain::PredBool | Domain::PredSplit => (all.collect(), Vec::new()),
            Domain::PredCart => (Vec::new(), all.collect()),
            Domain::Expl | Domain::Prod => all.partition(|&p| prec.tracked[p]),
        };
        let limit = match opts.domain {
            Domain::PredBool | Domain::PredSplit => Some(MAX_BOOLEAN_CUBES),
            _ => enumeration_limit(opts.domain, max_enum),
        };
        Shape {
            enumerated,
            cartesian,
            limit,
            merge: opts.domain == Domain::PredBool,
            predicates: prec.preds.len(),
        }
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
        atoms: WordAtoms::new(ts),
        preds: Vec::new(),
        tracked: Vec::new(),
        known: HashSet::new(),
    };
    if opts.init_prec == InitPrec::Prop {
        for i in property_latches(ts) {
            prec.add(ts.latches[i].var.lit(), true);
        }
    }
    let mut arg = Arg::default();
    let mut max_enum = opts.max_enum;
    loop {
        if budget.expired() {
            return Verdict::Unknown { depth: None };
        }
        stats.precision = prec.preds.len() as u64;
        let explored = explore(&prec, &mut arg, opts, max_enum, budget, stats);
        stats.arg_nodes = arg.nodes.len() as u64;
        let unsafe_nodes = match explored {
            Explore::Safe => return Verdict::Safe(invariant(&prec, &arg)),
            Explore::Stopped => return Verdict::Unknown { depth: None },
            Explore::Unsafe(nodes) => nodes,
        };
        let mut refinements = Vec::new();
        for n in unsafe_nodes {
            let path = arg.path_to(n);
            stats.spurious_depth_max = stats.spurious_depth_max.max(path.len() as u64 - 1);
            match refine(&mut prec, &arg, &path, opts, budget) {
                Refined::Feasible(t) => return Verdict::Unsafe(t),
                Refined::Stopped => return Verdict::Unknown { depth: None },
                Refined::Spurious { pivot, preds } => refinements.push((path, pivot, preds)),
            }
        }
        // Shallow pivots first: a path whose pivot lies below one pruned already is skipped
        // (seed 000: the earlier prune will likely remove it).
        refinements.sort_by_key(|(_, pivot, _)| *pivot);
        let restart = opts.prune == Prune::Full || refinements.iter().any(|r| r.1 == 0);
        // The first stale node of each path: abstracted again onto the predicates known now,
        // it may exclude the path even when refinement finds no new predicate.
        let current = prec.preds.len();
        let stale: Vec<usize> = (refinements.iter())
            .filter_map(|(path, _, _)| {
                let mut nodes = path.iter().copied();
                nodes.find(|&m| arg.nodes[m].precision < current)
            })
            .collect();
        let mut pruned = HashSet::new();
        let mut added = false;
        for (path, pivot, preds) in refinements {
            let at = path[pivot];
            if !restart && !arg.nodes[at].live && !pruned.contains(&at) {
                continue;
            }
            for (p, tracked) in preds {
                added |= prec.add(p, tracked);
            }
            if !restart && pruned.insert(at) {
                arg.prune(at);
            }
        }
        if !added && !stale.is_empty() {
            // Each round removes stale nodes and adds none, so this ends.
            crate::log::info(2, format_args!("cegar: stale nodes abstracted again"));
            if restart || stale.iter().any(|&m| arg.nodes[m].parent.is_none()) {
                arg = Arg::default();
            } else {
                for m in stale {
                    if arg.nodes[m].live {
                        arg.prune(m);
                    }
                }
            }
            continue;
        }
        if !added {
            // A tracked latch whose value went unknown (past the enumeration limit) cannot
            // be refined by tracking it: the spurious path comes back unless more successor
            // valuations are enumerated. Seed 000 leaves choosing the limit automatically as
            // future work; doubling it here keeps refinement going.
            if enumeration_limit(opts.domain, max_enum).is_some() {
                max_enum *= 2;
                crate::log::info(2, format_args!("cegar: enumeration limit now {max_enum}"));
                arg = Arg::default();
                continue;
            }
            crate::log::info(1, format_args!("cegar: refinement added no predicate"));
            return Verdict::Unknown { depth: None };
        }
        stats.refinements += 1;
        crate::log::info(
            2,
            format_args!(
                "cegar: spurious paths refined, {} predicates",
                prec.preds.len()
            ),
        );
        if restart {
            arg = Arg::default();
        }
    }
}

enum Explore {
    Safe,
    /// The unsafe nodes found (one, unless `multi-seq` explores to the end).
    Unsafe(Vec<usize>),
    Stopped,
}

/// Expands waiting nodes until none waits or one is unsafe (with `multi-seq`, until none
/// waits).
fn explore(
    prec: &Precision,
    arg: &mut Arg,
    opts: &CegarOptions,
    max_enum: usize,
    budget: &Budget,
    stats: &mut CegarStats,
) -> Explore {
    let shape = Shape::new(prec, opts, max_enum);
    let all_paths = opts.refinement == Refinement::MultiSeq;
    let mut ab = Abstractor::new(prec, &shape, budget);
    if arg.nodes.is_empty() {
        let Some(init) = ab.initial() else {
            return Explore::Stopped;
        };
        add_children(arg, init, None, &shape);
    }
    let mut unsafe_nodes: Vec<usize> = Vec::new();
    loop {
        let next = match opts.search {
            Search::Dfs => arg.waiting.pop_back(),
            Search::Bfs | Search::Err | Search::ErrDfs | Search::DfsErr => arg.waiting.pop_front(),
        };
        let Some(n) = next else {
            return if unsafe_nodes.is_empty() {
                Explore::Safe
            } else {
                Explore::Unsafe(unsafe_nodes)
            };
        };
        if budget.expired() {
            return Explore::Stopped;
        }
        let node = &arg.nodes[n];
        if !node.live || node.covered || node.expanded || node.unsafe_ {
            continue;
        }
        match ab.meets_bad(arg, n) {
            SatResult::Sat if all_paths => {
                arg.nodes[n].unsafe_ = true;
                unsafe_nodes.push(n);
                continue;
            }
            SatResult::Sat => return Explore::Unsafe(vec![n]),
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
        let Some(succ) = ab.post(arg, n) else {
            return Explore::Stopped;
        };
        add_children(arg, succ, Some(n), &shape);
        arg.nodes[n].expanded = true;
    }
}

/// Adds the nodes of an abstract successor (none when it is empty).
fn add_children(arg: &mut Arg, succ: State, parent: Option<usize>, shape: &Shape) {
    if succ.is_empty() {
        return;
    }
    if shape.merge {
        arg.add(succ, parent, shape.predicates);
    } else {
        for cube in succ {
            arg.add(vec![cube], parent, shape.predicates);
        }
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

/// The abstraction of the states satisfying `context` onto `lits` (the predicates' literals)
/// as `shape` says: the valuations of the enumerated predicates (AllSAT), each extended by
/// the Cartesian abstraction of the others under it; past the enumeration limit, one
/// Cartesian cube over all. `None` when interrupted.
fn image<S: Solver>(
    s: &mut S,
    context: &[sat::Lit],
    lits: &[sat::Lit],
    shape: &Shape,
    budget: &Budget,
) -> Option<State> {
    match s.solve(context) {
        SatResult::Interrupted => return None,
        SatResult::Unsat => return Some(Vec::new()),
        SatResult::Sat => {}
    }
    if shape.enumerated.is_empty() {
        return Some(vec![cartesian(s, context, lits, &shape.cartesian, budget)?]);
    }
    let enumerated: Vec<sat::Lit> = shape.enumerated.iter().map(|&p| lits[p]).collect();
    let valuations = match models::enumerate(s, context, &enumerated, shape.limit, budget)? {
        Valuations::All(valuations) => valuations,
        Valuations::TooMany => {
            // More valuations than the limit: the tracked values become unknown unless
            // every successor agrees on them.
            let all: Vec<usize> = (0..lits.len()).collect();
            return Some(vec![cartesian(s, context, lits, &all, budget)?]);
        }
    };
    let mut out = Vec::with_capacity(valuations.len());
    for valuation in valuations {
        let mut cube: Cube = shape.enumerated.iter().copied().zip(valuation).collect();
        if !shape.cartesian.is_empty() {
            let mut under = context.to_vec();
            under.extend(
                cube.iter()
                    .map(|&(p, v)| if v { lits[p] } else { !lits[p] }),
            );
            cube.extend(cartesian(s, &under, lits, &shape.cartesian, budget)?);
        }
        out.push(cube);
    }
    Some(out)
}

/// The Cartesian abstraction onto the predicates `which` of the (satisfiable) states of
/// `context`: the values every such state agrees on. `None` when interrupted.
fn cartesian<S: Solver>(
    s: &mut S,
    context: &[sat::Lit],
    lits: &[sat::Lit],
    which: &[usize],
    budget: &Budget,
) -> Option<Cube> {
    let which_lits: Vec<sat::Lit> = which.iter().map(|&p| lits[p]).collect();
    let values = models::agreed(s, context, &which_lits, budget)?;
    Some(
        (which.iter().zip(values))
            .filter_map(|(&p, v)| v.map(|v| (p, v)))
            .collect(),
    )
}

/// The queries of one precision: images, bad states and coverage, in one incremental solver
/// over two frames of the system. The constraints hold in frame 0; in frame 1 only for
/// images (under `step`): a state without a successor that satisfies them is still
/// reachable, so coverage and bad-state queries must not see them.
struct Abstractor<'a> {
    prec: &'a Precision,
    shape: &'a Shape,
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
    fn new(prec: &'a Precision, shape: &'a Shape, budget: &'a Budget) -> Abstractor<'a> {
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
            shape,
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
    fn initial(&mut self) -> Option<State> {
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
        image(&mut s, &[], &lits, self.shape, self.budget)
    }

    fn post(&mut self, arg: &Arg, n: usize) -> Option<State> {
        let now = self.lit(arg, n);
        let lits: Vec<sat::Lit> = (0..self.prec.preds.len())
            .map(|p| self.un.lit(&mut self.solver, self.prec.preds[p], 1))
            .collect();
        image(
            &mut self.solver,
            &[now, self.step],
            &lits,
            self.shape,
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
    /// Spurious: the first path position the predicates refine, and the predicates (each
    /// with whether it is tracked explicitly).
    Spurious {
        pivot: usize,
        preds: Vec<(aig::Lit, bool)>,
    },
    Stopped,
}

/// The abstract states of a path of the graph.
struct PredStates {
    preds: Vec<aig::Lit>,
    states: Vec<State>,
}

impl PathStates for PredStates {
    fn depth(&self) -> usize {
        self.states.len() - 1
    }

    fn assert<S: Solver>(&self, s: &mut S, un: &mut Unroller, t: usize) -> Vec<sat::Lit> {
        vec![state_lit(s, un, &self.preds, &self.states[t], 0)]
    }
}

/// Checks the path `path` of the graph on the concrete system; spurious, the predicates its
/// interpolants give: split formulas (whole ones if splitting gives nothing new), or in the
/// explicit domain the latches of their support. Unsat-core refinement (explicit domain)
/// gives latches and no position: the graph restarts.
fn refine(
    prec: &mut Precision,
    arg: &Arg,
    path: &[usize],
    opts: &CegarOptions,
    budget: &Budget,
) -> Refined {
    let states = PredStates {
        preds: prec.preds.clone(),
        states: path.iter().map(|&n| arg.nodes[n].state.clone()).collect(),
    };
    let latches: Vec<aig::Lit> = prec.sys.latches.iter().map(|l| l.var.lit()).collect();
    let latch_lits = |which: &mut dyn Iterator<Item = usize>| -> Vec<(aig::Lit, bool)> {
        which.map(|i| (latches[i], true)).collect()
    };
    let Some(strategy) = opts.refinement.strategy() else {
        return match refine_by_core(&prec.sys, &prec.latches(), &states, budget) {
            Check::Feasible(t) => Refined::Feasible(t),
            Check::Stopped => Refined::Stopped,
            Check::Spurious(core) => Refined::Spurious {
                pivot: 0,
                preds: latch_lits(&mut core.into_iter()),
            },
        };
    };
    let cuts = match refute(&prec.sys, &states, strategy, budget) {
        Refutation::Refuted(cuts) => cuts,
        Refutation::Feasible(trace) => return Refined::Feasible(trace),
        Refutation::Stopped => return Refined::Stopped,
        Refutation::NoInterpolants(e) => {
            crate::log::info(1, format_args!("cegar: no interpolants: {e}"));
            return Refined::Spurious {
                pivot: 0,
                preds: Vec::new(),
            };
        }
    };
    // Every variable of an interpolant is a latch of its cut.
    let formula = |aig: &mut aig::Aig, cut: &Cut| {
        cut.itp
            .copy_into(aig, |v| cut.latches.get(&v).map(|&i| latches[i]))
    };
    let mut pieces = Vec::new();
    for cut in &cuts {
        if budget.expired() {
            return Refined::Stopped;
        }
        if opts.domain == Domain::Expl || cut.itp.num_ands() > MAX_PREDICATE_ANDS {
            let support = cut.itp.vars().filter_map(|v| cut.latches.get(&v).copied());
            pieces.push((cut.frame, Piece::Latches(support.collect())));
        } else if let Some(f) = formula(&mut prec.sys.aig, cut) {
            pieces.push((cut.frame, Piece::Formula(f)));
        }
    }
    let refines = |p: &Piece| match p {
        Piece::Formula(f) => !f.is_const(),
        Piece::Latches(l) => !l.is_empty(),
    };
    let Some(pivot) = pieces.iter().find(|(_, p)| refines(p)).map(|(t, _)| *t) else {
        return Refined::Spurious {
            pivot: 0,
            preds: Vec::new(),
        };
    };
    let latch_vars: HashSet<aig::Var> = prec.sys.latches.iter().map(|l| l.var).collect();
    let mut preds = Vec::new();
    for (_, piece) in &pieces {
        match piece {
            Piece::Formula(f) => preds.extend(
                split_formula(&prec.sys, &prec.atoms, *f, opts.pred_split)
                    .into_iter()
                    .map(|p| (p, latch_vars.contains(&p.var()))),
            ),
            Piece::Latches(l) => match prec.atoms.meeting(l.iter().copied()) {
                Some(atoms)
                    if opts.pred_split == PredSplit::Atoms && opts.domain != Domain::Expl =>
                {
                    preds.extend(atoms.into_iter().map(|a| (a, false)))
                }
                _ => preds.extend(latch_lits(&mut l.iter().copied())),
            },
        }
    }
    let new = |p: &aig::Lit| {
        !p.is_const() && !prec.known.contains(&if p.is_negated() { !*p } else { *p })
    };
    if !preds.iter().any(|(p, _)| new(p)) && opts.domain != Domain::Expl {
        // The pieces are known and the path came back: the whole interpolants, large ones
        // too, are the predicates that exclude it (a Cartesian abstraction onto the latches
        // of a large interpolant loses how they correlate).
        for cut in &cuts {
            if let Some(f) = formula(&mut prec.sys.aig, cut) {
                preds.push((f, false));
            }
        }
    }
    Refined::Spurious { pivot, preds }
}

/// Interpolants with more AND gates than this give the latches of their support as
/// predicates instead of their circuit: interpolants from the proofs of large circuits can
/// be huge, and copying, re-encoding and abstracting onto them costs more than they help.
const MAX_PREDICATE_ANDS: usize = 1000;

/// What one interpolant of a spurious path contributes.
enum Piece {
    Formula(aig::Lit),
    /// The latches of an interpolant's support (explicit domain, or an interpolant too large
    /// to keep).
    Latches(Vec<usize>),
}

/// The predicates `f` splits into. The atoms of a bit-level formula are its latches; where
/// the system has word-level atoms, those that read the formula's latches stand for them
/// (a formula over no such latch keeps its latches). Refinement still progresses when the
/// word atoms do not exclude a spurious path: it comes back with them known, and then the
/// interpolants themselves become predicates.
pub(super) fn split_formula(
    sys: &TransitionSystem,
    atoms: &WordAtoms,
    f: aig::Lit,
    split: PredSplit,
) -> Vec<aig::Lit> {
    match split {
        PredSplit::Whole => vec![f],
        PredSplit::Conjuncts => sys.aig.conjuncts(f),
        PredSplit::Atoms => {
            let support = cone_latches(sys, [f]);
            atoms
                .meeting(support.iter().copied())
                .unwrap_or_else(|| support.iter().map(|&i| sys.latches[i].var.lit()).collect())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pruning_a_node_expands_its_parent_again_without_the_old_children() {
        let mut arg = Arg::default();
        arg.add(vec![vec![(0, true)]], None, 1);
        arg.nodes[0].expanded = true;
        arg.add(vec![vec![(0, true)]], Some(0), 1);
        arg.add(vec![vec![(0, false)]], Some(0), 1);
        arg.add(vec![vec![(0, false)]], Some(2), 2);
        arg.nodes[1].covered = true;
        arg.waiting.clear();
        arg.prune(2);
        let live: Vec<bool> = arg.nodes.iter().map(|n| n.live).collect();
        assert_eq!(live, [true, false, false, false]);
        assert!(!arg.nodes[0].expanded && arg.nodes[0].children.is_empty());
        assert_eq!(arg.waiting, [0]);
    }
}
