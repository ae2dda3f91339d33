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
mod counterexample;
pub mod impact;
mod invariant;
mod path;
mod precision;
mod program;
mod search;
pub mod sequence;
pub mod symex;
#[cfg(test)]
mod tests;
pub mod ufo;

use std::collections::VecDeque;

use super::cegar::CegarOptions;
use super::cegar_core::Counts;
use super::{Stats, Verdict};
use crate::aig;
use crate::cfa::{self, Cfa};
use crate::error::InternalError;
use crate::ts::TransitionSystem;
use crate::wl::BitMap;
use crate::Budget;
use arg::Arg;
use condition::Automaton;
use counterexample::counterexample;
use path::{Check, Strategy};
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
    rounds: Counts,
    expansion: Expansion,
}

/// Counters of the CFA domain's expansions.
#[derive(Default)]
struct Expansion {
    posts: u64,
    /// Nodes not expanded: their location repeats too often on their path.
    cut: u64,
    /// Posts not computed: the given condition's automaton says the edge is safe there.
    condition_safe: u64,
}

impl Counters {
    fn stats(&self) -> Stats {
        let mut stats = self.rounds.stats();
        stats.extend([
            ("cegar_precision", self.rounds.predicates),
            ("cegar_posts", self.expansion.posts),
            ("cegar_cut", self.expansion.cut),
            ("cegar_condition_safe", self.expansion.condition_safe),
        ]);
        stats
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
    let mut outcome = search::search(
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
