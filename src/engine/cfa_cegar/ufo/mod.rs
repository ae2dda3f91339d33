//! UFO (seed 004: Albarghouthi, Gurfinkel and Chechik, "From under-approximations to
//! over-approximations and back", TACAS 2012), `--engine ufo` on a C program's CFA.
//!
//! The CFA is unrolled into a DAG ([`dag`]) in the order of its weak topological ordering
//! ([`crate::cfa::wto`]): one *future node* per location collects every edge into that
//! location until the walk reaches it, so paths join again after each branch and each loop's
//! exits; a loop is unrolled one iteration at a time, innermost first, until the node of its
//! head is covered by the join of the labels of the heads of the current unrolling (the only
//! covering UFO does). A node's label is the join, over its edges in, of the abstract post
//! of its parent's label (`--ufo-post`: *true*, uUFO, Impact-like; Cartesian predicate
//! abstraction, cpUFO, the default, the paper's best; Boolean predicate abstraction, bpUFO),
//! or the label the last refinement gave it while nothing above it changed.
//!
//! When the walk reaches the error location with a label that is not *false*, every error
//! path of the DAG is checked at once ([`refine`]): one query over the whole DAG (the ARG
//! condition of the paper: a control variable per node) decides whether some path is
//! feasible, which is then a counterexample, replayed; otherwise every node that reaches the
//! error gets a label such that each edge's source label and the edge entail the target's
//! and the error's is *false* (DAG interpolants), and the labels' conjuncts become
//! predicates of their locations. A walk that ends with the error's label *false* (or never
//! reaches the error) leaves a safe, complete, well-labelled DAG: the labels of its
//! uncovered nodes per location are an invariant of the encoded model ([`invariant`]),
//! checked by the caller.

mod dag;
mod refine;

use super::invariant;
use super::precision::refine as add_predicates;
use super::{abstraction, refute_or_end, setup, Outcome};
use crate::aig;
use crate::cfa::wto::{weak_topological_order, Wto};
use crate::cfa::Cfa;
use crate::engine::cegar::PredSplit;
use crate::engine::{Stats, Verdict};
use crate::error::InternalError;
use crate::ts::TransitionSystem;
use crate::wl::BitMap;
use crate::Budget;
use abstraction::Mode;
use dag::{Dag, Walked};
use refine::Refined;

/// UFO's abstract post (`--ufo-post`).
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, clap::ValueEnum)]
pub enum UfoPost {
    /// *true*: no abstraction (uUFO, under-approximation driven as Impact).
    True,
    /// Cartesian predicate abstraction (cpUFO).
    #[default]
    Cart,
    /// Boolean predicate abstraction (bpUFO; beyond 1024 cubes of predicate values,
    /// Cartesian).
    Bool,
}

impl UfoPost {
    /// The abstract domain of the post, if it abstracts.
    fn mode(self) -> Option<Mode> {
        match self {
            UfoPost::True => None,
            UfoPost::Cart => Some(Mode::Cartesian),
            UfoPost::Bool => Some(Mode::Split),
        }
    }
}

/// Counters of one run.
#[derive(Default)]
struct Counters {
    rounds: u64,
    refinements: u64,
    nodes: u64,
    covered: u64,
    posts: u64,
    interpolants: u64,
    predicates: u64,
    /// Entailment checks (covering, old labels kept) and their time, ms.
    checks: u64,
    check_ms: u64,
    /// Time in abstract posts and in refinement (the paper's PTIME and ITIME), ms.
    post_ms: u64,
    refine_ms: u64,
}

impl Counters {
    fn stats(&self) -> Stats {
        vec![
            ("ufo_rounds", self.rounds),
            ("ufo_refinements", self.refinements),
            ("ufo_nodes", self.nodes),
            ("ufo_covered", self.covered),
            ("ufo_posts", self.posts),
            ("ufo_interpolants", self.interpolants),
            ("ufo_predicates", self.predicates),
            ("ufo_checks", self.checks),
            ("ufo_check_ms", self.check_ms),
            ("ufo_post_ms", self.post_ms),
            ("ufo_refine_ms", self.refine_ms),
        ]
    }
}

/// Checks `cfa` with UFO and the abstract post `post`; `ts` is its encoding blasted with its
/// words at `bits`, over which the verdict speaks (as [`super::check`]'s).
pub fn check(
    cfa: &Cfa,
    ts: &TransitionSystem,
    bits: &BitMap,
    post: UfoPost,
    budget: &Budget,
) -> Result<Outcome, InternalError> {
    let mut counters = Counters::default();
    let unknown = |why: String, c: &Counters| Outcome::unknown(why, c.stats());
    let (mut prog, dist) = match setup(cfa, budget) {
        Ok(p) => p,
        Err(why) => return Ok(unknown(why, &counters)),
    };
    // The unrolling order of the locations that reach the error.
    let outgoing = cfa.outgoing();
    let succ: Vec<Vec<usize>> = (outgoing.iter())
        .map(|es| {
            (es.iter().map(|&e| cfa.edges[e].to.index()))
                .filter(|&to| dist[to].is_some())
                .collect()
        })
        .collect();
    let wto: Vec<Wto> = match dist[cfa.entry.index()] {
        Some(_) => weak_topological_order(&succ, cfa.entry.index()),
        None => Vec::new(),
    };
    let mut prec: Vec<Vec<aig::Lit>> = vec![Vec::new(); cfa.locations.len()];
    let mut dag = Dag::new(cfa, &outgoing, &dist, post.mode());
    loop {
        counters.rounds += 1;
        let walked = dag.walk(&mut prog, &prec, &wto, &mut counters, budget);
        let err = match walked {
            Walked::Stopped(why) => return Ok(unknown(why, &counters)),
            Walked::Safe => {
                let at = dag.labels_per_location(cfa.locations.len());
                let inv = invariant::invariant(&prog, &at, &dist, ts, bits);
                return Ok(Outcome::decided(Verdict::Safe(inv), counters.stats()));
            }
            Walked::Error(err) => err,
        };
        counters.refinements += 1;
        let start = std::time::Instant::now();
        let refined = refine::refine(&mut prog, &dag, err, &mut counters, budget);
        counters.refine_ms += start.elapsed().as_millis() as u64;
        let labels = match refined {
            Refined::Stopped(why) => return Ok(unknown(why, &counters)),
            Refined::Feasible(edges) => {
                return match refute_or_end(&mut prog, ts, bits, &edges, budget, || {
                    counters.stats()
                })? {
                    Err(end) => Ok(end),
                    Ok(_) => Ok(unknown(
                        "a path of the ARG condition's model is spurious".into(),
                        &counters,
                    )),
                }
            }
            Refined::Labels(labels) => labels,
        };
        if let Some(mode) = post.mode() {
            for (&n, &label) in &labels {
                let loc = dag.location(n);
                let added =
                    add_predicates(&prog, &mut prec[loc], label, mode, PredSplit::Conjuncts);
                counters.predicates += added as u64;
            }
        }
        crate::log::info(
            2,
            format_args!(
                "ufo: refinement {}: {} nodes labelled, {} nodes in all",
                counters.refinements,
                labels.len(),
                counters.nodes
            ),
        );
        dag.set_labels(labels);
    }
}
