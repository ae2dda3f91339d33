//! CEGAR on a program's control-flow automaton (seed 000, Theta's CFA analysis; `--engine
//! cegar` on C input), next to the transition-system CEGAR of [`super::cegar`] for circuits.
//!
//! An abstract reachability graph ([`arg`]) over (location, abstract state) pairs is built with
//! explicit values (`--domain expl`, successors enumerated up to `--max-enum`), Cartesian
//! predicate abstraction (`pred-cart`), Boolean abstraction split into cubes (`pred-split`)
//! or the product of explicit values and predicates (`prod`) ([`abstraction`]) under a per-location
//! precision, in the order `--search` gives; locations from which the CFA cannot reach the error are not
//! explored at all. An abstract error path is checked concretely by bit-blasting its edges
//! into one SAT query ([`path`]); a feasible one becomes a counterexample of the encoded
//! model, first replayed by the CFA interpreter; a spurious one is interpolated (sequence,
//! backward or forward binary, per `--refinement`) and the interpolant at the path's `i`-th
//! node refines the precision of that node's location (its variables are tracked, or it
//! becomes predicates split per `--pred-split`); the graph is then pruned below the first
//! refined node (`--prune lazy`) or rebuilt (`--prune full`). A complete graph is a proof, turned into an invariant of the encoded model
//! ([`invariant`]) that the caller checks.
//!
//! `--refinement multi-seq` explores the whole graph and refines every abstract error path in
//! it (up to [`MAX_PATHS`]) by sequence interpolation before the graph is rebuilt;
//! `--refinement unsat-core` (explicit values) tracks the variables of a minimised unsat core
//! of the path's guarded updates at every location. Options that have no CFA counterpart
//! here (`--domain pred-bool`, `--abstract-engine`) are rejected by the command line
//! ([`crate::options`]); should a caller pass them anyway, `pred-bool` runs the Cartesian
//! abstraction.

mod abstraction;
mod arg;
pub mod condition;
mod condition_file;
mod counterexample;
pub mod impact;
mod invariant;
mod path;
mod precision;
mod program;
pub mod sequence;
pub mod symex;
#[cfg(test)]
mod tests;
pub mod ufo;

use std::collections::VecDeque;

use super::cegar::{CegarOptions, Domain, InitPrec, Prune, Refinement};
use super::{Stats, Verdict};
use crate::aig;
use crate::cfa::{self, Cfa};
use crate::error::InternalError;
use crate::ts::TransitionSystem;
use crate::wl::BitMap;
use crate::Budget;
use abstraction::{Abstractor, Mode, Post};
use arg::{Arg, State};
use condition::{Automaton, Step};
use counterexample::counterexample;
use path::{Check, Needed, Strategy};
use precision::{initial_precision, refine, track_everywhere};
use program::Program;

/// The outcome of a run: the verdict over the encoded model `ts`, the counters, and why it
/// is unknown if it is.
pub struct Outcome {
    pub verdict: Verdict,
    pub stats: Stats,
    pub note: Option<String>,
    /// Of an `unknown` CEGAR run: what its graph verified, for a run that follows.
    pub condition: Option<Automaton>,
}

impl Outcome {
    /// A `sat` or `unsat` verdict.
    fn decided(verdict: Verdict, stats: Stats) -> Outcome {
        Outcome {
            verdict,
            stats,
            note: None,
            condition: None,
        }
    }

    /// `unknown`, and why.
    fn unknown(why: String, stats: Stats) -> Outcome {
        Outcome {
            verdict: Verdict::Unknown { depth: None },
            stats,
            note: Some(why),
            condition: None,
        }
    }
}

/// The sequence interpolants of the abstract error path `edges` (Impact's and symbolic
/// execution's refinement); `Err` holds how the run ends instead: with the path as a
/// counterexample of `ts`, replayed, or `unknown` when the check stopped (the run's
/// counters from `stats`).
fn refute_or_end(
    prog: &mut Program,
    ts: &TransitionSystem,
    bits: &BitMap,
    edges: &[usize],
    budget: &Budget,
    stats: impl FnOnce() -> Stats,
) -> Result<Result<Vec<path::Cut>, Outcome>, InternalError> {
    Ok(match path::check(prog, edges, Strategy::Sequence, budget) {
        Check::Stopped(why) => Err(Outcome::unknown(why, stats())),
        Check::Feasible(drawn) => Err(unsafe_end(prog, ts, bits, edges, &drawn, stats())?),
        Check::Refuted(cuts) => Ok(cuts),
    })
}

/// The `sat` outcome of the feasible path `edges` with the nondet values `drawn`: its
/// counterexample of `ts`, replayed ([`counterexample`]).
fn unsafe_end(
    prog: &Program,
    ts: &TransitionSystem,
    bits: &BitMap,
    edges: &[usize],
    drawn: &path::Drawn,
    stats: Stats,
) -> Result<Outcome, InternalError> {
    let trace = counterexample(prog, ts, bits, edges, drawn)?;
    Ok(Outcome::decided(Verdict::Unsafe(trace), stats))
}

/// The program's edge circuits and each location's distance to the error, or why the CFA
/// engines cannot check it (what the blaster does not support, an interrupted blasting, an
/// exit location that reaches the error).
fn setup<'a>(cfa: &'a Cfa, budget: &Budget) -> Result<(Program<'a>, Vec<Option<usize>>), String> {
    let prog = Program::new(cfa, budget).map_err(|e| e.to_string())?;
    let dist = distances(cfa);
    if dist[cfa.exit.index()].is_some() {
        return Err("unsupported: the exit location reaches the error".into());
    }
    Ok((prog, dist))
}

/// Counters of one run.
#[derive(Default)]
struct Counters {
    refinements: u64,
    spurious_depth_max: u64,
    predicates: u64,
    arg_nodes: u64,
    covered: u64,
    posts: u64,
    /// Nodes not expanded: their location repeats too often on their path.
    cut: u64,
    /// Posts not computed: the given condition's automaton says the edge is safe there.
    condition_safe: u64,
}

impl Counters {
    fn stats(&self) -> Stats {
        vec![
            ("cegar_refinements", self.refinements),
            ("cegar_spurious_depth_max", self.spurious_depth_max),
            ("cegar_precision", self.predicates),
            ("cegar_arg_nodes", self.arg_nodes),
            ("cegar_covered", self.covered),
            ("cegar_posts", self.posts),
            ("cegar_cut", self.cut),
            ("cegar_condition_safe", self.condition_safe),
        ]
    }
}

/// Checks `cfa`, whose encoding ([`cfa::encode`]) blasted is `ts` with its words at `bits`.
/// The verdict speaks of `ts`; `Err` is an internal error (a feasible path that the
/// interpreter does not confirm).
pub fn check(
    cfa: &Cfa,
    ts: &TransitionSystem,
    bits: &BitMap,
    opts: &CegarOptions,
    budget: &Budget,
) -> Result<Outcome, InternalError> {
    check_given(cfa, ts, bits, opts, None, None, budget)
}

/// A condition given to a run ([`condition`]), with its labels built in the run's program.
struct Given<'a> {
    automaton: &'a Automaton,
    /// Per automaton state, its label.
    labels: Vec<aig::Lit>,
    /// The verified nodes' locations and labels.
    verified: Vec<(cfa::Loc, Vec<aig::Lit>)>,
}

/// [`check`], exploring only what the condition `given` (of an earlier run on the same
/// CFA) leaves open, and expanding no node whose location occurs more than `repeats` times
/// on its path (seed 003's failure-preventing condition on repeating locations: such a run
/// ends `unknown` once the rest is explored). An `unknown` outcome carries the run's own
/// condition (which includes the given one's).
pub fn check_given(
    cfa: &Cfa,
    ts: &TransitionSystem,
    bits: &BitMap,
    opts: &CegarOptions,
    given: Option<&Automaton>,
    repeats: Option<u32>,
    budget: &Budget,
) -> Result<Outcome, InternalError> {
    let mut counters = Counters::default();
    let (mut prog, dist) = match setup(cfa, budget) {
        Ok(p) => p,
        Err(why) => return Ok(Outcome::unknown(why, counters.stats())),
    };
    let given = match given {
        Some(a) if !a.fits(&prog) => {
            let why = "the condition speaks of another program".to_string();
            return Ok(Outcome::unknown(why, counters.stats()));
        }
        Some(automaton) => {
            let (labels, verified) = automaton.labels_in(&mut prog);
            Some(Given {
                automaton,
                labels,
                verified,
            })
        }
        None => None,
    };
    let mut graph = None;
    let mut outcome = search(
        &mut prog,
        ts,
        bits,
        &dist,
        opts,
        given.as_ref(),
        repeats,
        &mut graph,
        &mut counters,
        budget,
    )?;
    if let (Verdict::Unknown { .. }, Some(arg)) = (&outcome.verdict, &graph) {
        let labels = node_labels(&mut prog, arg, given.as_ref());
        let earlier = given.as_ref().map_or(&[][..], |g| &g.verified[..]);
        let automaton = Automaton::of_graph(&prog, arg, &labels, earlier);
        crate::log::info(
            1,
            format_args!(
                "cegar: condition: {} open states, {} verified nodes",
                automaton.open_states(),
                automaton.verified()
            ),
        );
        outcome.condition = Some(automaton);
    }
    Ok(outcome)
}

/// Each node's state, conjoined with the labels of the automaton states its path may be in
/// (what the node stands for in a proof or a condition of its own).
fn node_labels(prog: &mut Program, arg: &Arg, given: Option<&Given>) -> Vec<Vec<aig::Lit>> {
    (arg.nodes.iter())
        .map(|n| {
            let mut label = n.state.lits.clone();
            if let (Some(g), Some(set)) = (given, &n.state.assume) {
                let aig = &mut prog.circuits.aig;
                label.push(aig.or_all(set.iter().map(|&q| g.labels[q as usize])));
            }
            label
        })
        .collect()
}

/// The CEGAR loop of [`check_given`]; `graph` is the graph at the end (a condition's source
/// when the loop ends `unknown`).
#[allow(clippy::too_many_arguments)]
fn search(
    prog: &mut Program,
    ts: &TransitionSystem,
    bits: &BitMap,
    dist: &[Option<usize>],
    opts: &CegarOptions,
    given: Option<&Given>,
    repeats: Option<u32>,
    graph: &mut Option<Arg>,
    counters: &mut Counters,
    budget: &Budget,
) -> Result<Outcome, InternalError> {
    let cfa = prog.cfa;
    let unknown = |why: String, c: &Counters| Outcome::unknown(why, c.stats());
    // The unsat-core refinement interpolates nothing (the strategy is unused there).
    let strategy = opts.refinement.strategy().unwrap_or(Strategy::Sequence);
    let mut mode = match opts.domain {
        Domain::Expl => Mode::Explicit {
            max_enum: opts.max_enum,
        },
        Domain::Prod => Mode::Product {
            max_enum: opts.max_enum,
        },
        Domain::PredSplit => Mode::Split,
        Domain::PredBool | Domain::PredCart => Mode::Cartesian,
    };
    let start = match given {
        None => Step::Open,
        Some(g) => g.automaton.start(),
    };
    let root_assume = match start {
        // Every path from the entry is verified: the condition's proof is the program's.
        Step::Safe => {
            let verified = given.map_or(&[][..], |g| &g.verified[..]);
            let mut at = vec![Vec::new(); cfa.locations.len()];
            for (l, label) in verified {
                at[l.index()].push(&label[..]);
            }
            let inv = invariant::invariant(prog, &at, dist, ts, bits);
            return Ok(Outcome::decided(Verdict::Safe(inv), counters.stats()));
        }
        Step::Open => None,
        Step::To(set) => Some(set),
    };
    let mut prec: Vec<Vec<aig::Lit>> = vec![Vec::new(); cfa.locations.len()];
    if opts.init_prec == InitPrec::Prop {
        initial_precision(prog, &mut prec, mode);
    }
    let outgoing = cfa.outgoing();
    // A pruned graph is rebuilt when the loop goes on, so that a run stopped before that
    // keeps the last graph's condition.
    let mut rebuild = true;
    loop {
        if budget.expired() {
            return Ok(unknown("interrupted".into(), counters));
        }
        if std::mem::take(&mut rebuild) {
            let root = abstraction::initial(prog, &prec[cfa.entry.index()]);
            *graph = Some(arg::new(
                cfa.locations.len(),
                cfa.entry,
                root,
                root_assume.clone(),
                opts.search,
                dist,
            ));
        }
        let arg = graph.as_mut().expect("the graph is built");
        let images = abstraction::images(prog, &prec);
        let ab = Abstractor::new(prog, images, mode, budget);
        let multi = opts.refinement == Refinement::MultiSeq;
        let automaton = given.map(|g| g.automaton);
        let found = explore(
            &ab, arg, &prec, dist, &outgoing, automaton, repeats, multi, counters, budget,
        );
        counters.arg_nodes = arg.live() as u64;
        counters.covered = arg.covered;
        let error_nodes = match found {
            Explored::Stopped => return Ok(unknown("interrupted".into(), counters)),
            Explored::Complete if arg.unexpanded() => {
                let why = format!(
                    "every node is explored but those past {} visits of their location",
                    repeats.unwrap_or(0)
                );
                return Ok(unknown(why, counters));
            }
            Explored::Complete => {
                let labels = node_labels(prog, arg, given);
                let mut at: Vec<Vec<&[aig::Lit]>> = (arg.at.iter())
                    .map(|nodes| nodes.iter().map(|&n| &labels[n][..]).collect())
                    .collect();
                for (l, label) in given.map_or(&[][..], |g| &g.verified[..]) {
                    at[l.index()].push(&label[..]);
                }
                let inv = invariant::invariant(prog, &at, dist, ts, bits);
                return Ok(Outcome::decided(Verdict::Safe(inv), counters.stats()));
            }
            Explored::Errors(nodes) => nodes,
        };
        let mut new = 0;
        let mut paths = Vec::new();
        for &error_node in error_nodes.iter().take(MAX_PATHS) {
            let edges = arg.path(error_node);
            let nodes = arg.ancestry(error_node);
            if opts.refinement == Refinement::UnsatCore {
                match path::needed_vars(prog, &edges, budget) {
                    Needed::Stopped => return Ok(unknown("interrupted".into(), counters)),
                    Needed::Feasible(drawn) => {
                        return unsafe_end(prog, ts, bits, &edges, &drawn, counters.stats())
                    }
                    Needed::Vars(vars) => new += track_everywhere(prog, &mut prec, &vars),
                }
                paths.push(nodes);
                continue;
            }
            // A binary interpolant need not rule out its path when the abstract states before
            // its node are too weak to entail it: the same path then comes back, and the
            // sequence of interpolants refines it instead.
            let mut attempts = vec![strategy];
            if strategy != Strategy::Sequence {
                attempts.push(Strategy::Sequence);
            }
            for s in attempts {
                let before = new;
                match path::check(prog, &edges, s, budget) {
                    Check::Stopped(why) => return Ok(unknown(why, counters)),
                    Check::Feasible(drawn) => {
                        return unsafe_end(prog, ts, bits, &edges, &drawn, counters.stats())
                    }
                    Check::Refuted(cuts) => {
                        for cut in cuts {
                            let loc = arg.nodes[nodes[cut.node]].loc.index();
                            new += refine(prog, &mut prec[loc], cut.pred, mode, opts.pred_split);
                        }
                    }
                }
                if new > before {
                    break;
                }
            }
            counters.spurious_depth_max = counters.spurious_depth_max.max(edges.len() as u64);
            paths.push(nodes);
        }
        counters.refinements += 1;
        crate::log::info(
            2,
            format_args!(
                "cegar: refinement {}: {} spurious path(s), {} new predicates, {} nodes, {} gates",
                counters.refinements,
                paths.len(),
                new,
                arg.nodes.len(),
                prog.aig().num_ands()
            ),
        );
        counters.predicates += new as u64;
        // The first path node computed with less than its location's precision: with the
        // interpolants all in the precision, the path nodes from there on must be recomputed
        // (a predicate added by an earlier refinement may be missing from a node that
        // refinement did not prune). Lazy pruning re-expands its parent; the root's own
        // state needs a new graph, and so do several paths refined at once.
        let pivots: Vec<Option<usize>> = (paths.iter())
            .map(|nodes| {
                (nodes.iter())
                    .position(|&n| arg.nodes[n].precision < prec[arg.nodes[n].loc.index()].len())
            })
            .collect();
        let pivot = pivots.iter().flatten().next().copied();
        match (opts.prune, &pivots[..]) {
            (Prune::Lazy, [Some(p)]) if *p > 0 => arg.reopen(paths[0][p - 1]),
            _ => rebuild = true,
        }
        if new == 0 && pivot.is_none() {
            // Explicit values: the path came back because too many successors made tracked
            // variables unknown; enumerate more of them (as the transition-system engine does).
            match &mut mode {
                Mode::Explicit { max_enum } | Mode::Product { max_enum } if *max_enum != 0 => {
                    *max_enum = max_enum.saturating_mul(2)
                }
                _ => {
                    return Ok(unknown(
                        "the refinement found no new predicate".into(),
                        counters,
                    ))
                }
            }
        }
    }
}

/// How exploring the graph ended.
enum Explored {
    /// Every node is expanded or covered, and none is at the error.
    Complete,
    /// These nodes are at the error location: the first one found, or (`--refinement
    /// multi-seq`) every one of the explored graph.
    Errors(Vec<usize>),
    Stopped,
}

/// At most this many abstract error paths are refined at once (`--refinement multi-seq`).
const MAX_PATHS: usize = 64;

/// Expands waiting nodes until one is at the error (with `all`, until none waits, collecting
/// the error nodes).
#[allow(clippy::too_many_arguments)]
fn explore(
    ab: &Abstractor,
    arg: &mut Arg,
    prec: &[Vec<aig::Lit>],
    dist: &[Option<usize>],
    outgoing: &[Vec<usize>],
    given: Option<&Automaton>,
    repeats: Option<u32>,
    all: bool,
    counters: &mut Counters,
    budget: &Budget,
) -> Explored {
    let cfa = ab.program().cfa;
    let error = cfa.error;
    if arg.nodes[0].loc == error {
        return Explored::Errors(vec![0]);
    }
    let mut errors = Vec::new();
    while let Some(n) = arg.pop() {
        if budget.expired() {
            return Explored::Stopped;
        }
        if arg.nodes[n].loc == error {
            errors.push(n);
            match all {
                true => continue,
                false => return Explored::Errors(errors),
            }
        }
        if repeats.is_some_and(|k| arg.nodes[n].visits > k) {
            counters.cut += 1;
            continue;
        }
        // Every edge is expanded before an error child is reported: a refinement may keep
        // this node (lazy pruning), and it must not lose successors.
        let mut found = None;
        for &e in &outgoing[arg.nodes[n].loc.index()] {
            let to = cfa.edges[e].to;
            if dist[to.index()].is_none() {
                continue;
            }
            let assume = match (given, &arg.nodes[n].state.assume) {
                (Some(a), Some(set)) => match a.step(set, e) {
                    Step::Safe => {
                        counters.condition_safe += 1;
                        continue;
                    }
                    Step::Open => None,
                    Step::To(set) => Some(set),
                },
                _ => None,
            };
            counters.posts += 1;
            let Post::States(states) = ab.post(&arg.nodes[n].state.lits, e) else {
                return Explored::Stopped;
            };
            let precision = prec[to.index()].len();
            for s in states {
                let state = State {
                    lits: s,
                    assume: assume.clone(),
                };
                let child = arg::add(arg, error, to, state, precision, (n, e));
                if to == error && !all {
                    found = found.or(child);
                }
            }
        }
        arg.nodes[n].expanded = true;
        if let Some(child) = found {
            return Explored::Errors(vec![child]);
        }
    }
    match errors.is_empty() {
        true => Explored::Complete,
        false => Explored::Errors(errors),
    }
}

/// Each location's distance (in edges) to the error, by backward breadth-first search.
fn distances(cfa: &Cfa) -> Vec<Option<usize>> {
    let mut incoming = vec![Vec::new(); cfa.locations.len()];
    for e in &cfa.edges {
        incoming[e.to.index()].push(e.from);
    }
    let mut dist = vec![None; cfa.locations.len()];
    dist[cfa.error.index()] = Some(0);
    let mut queue = VecDeque::from([cfa.error]);
    while let Some(l) = queue.pop_front() {
        let d = dist[l.index()].unwrap_or(0) + 1;
        for &p in &incoming[l.index()] {
            if dist[p.index()].is_none() {
                dist[p.index()] = Some(d);
                queue.push_back(p);
            }
        }
    }
    dist
}
