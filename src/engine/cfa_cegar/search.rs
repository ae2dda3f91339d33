//! The CFA engine's CEGAR loop: the shared core ([`crate::engine::cegar_core`]) with the
//! CFA's domain. A node is an abstract error at the error location; its successors are the
//! abstract posts along each outgoing edge from which the error stays reachable (edges the
//! given condition says are safe are skipped). An error path is checked by bit-blasting its
//! edges ([`path`]); its interpolants refine the precision of the locations of their nodes.

use super::abstraction::{self, Abstractor, Mode, Post};
use super::arg::{self, Arg, State};
use super::condition::{Automaton, Step};
use super::path::{self, Check, Needed, Strategy};
use super::precision::{initial_precision, refine, track_everywhere};
use super::program::Program;
use super::{invariant, node_labels, unsafe_end, Counters, Expansion, Given, Outcome};
use crate::aig;
use crate::cfa::Loc;
use crate::engine::cegar::{CegarOptions, Domain, InitPrec, Refinement};
use crate::engine::cegar_core::{self, Explored, Look, Next, PathCheck, Stopped};
use crate::engine::Verdict;
use crate::error::InternalError;
use crate::ts::TransitionSystem;
use crate::wl::BitMap;
use crate::Budget;

/// The CEGAR loop of [`super::check_given`]; `graph` is the graph at the end (a condition's
/// source when the loop ends `unknown`).
#[allow(clippy::too_many_arguments)]
pub(super) fn search(
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
            let assume = root_assume.clone();
            let locations = cfa.locations.len();
            *graph = Some(arg::new(
                locations,
                cfa.entry,
                root,
                assume,
                opts.search,
                dist,
            ));
        }
        let arg = graph.as_mut().expect("the graph is built");
        let images = abstraction::images(prog, &prec);
        let all = opts.refinement == Refinement::MultiSeq;
        let mut explorer = Explorer {
            ab: Abstractor::new(prog, images, mode, budget),
            prec: &prec,
            dist,
            outgoing: &outgoing,
            given: given.map(|g| g.automaton),
            repeats,
            all,
            counts: &mut counters.expansion,
        };
        let found = cegar_core::explore(&mut explorer, arg, all, &mut counters.rounds, budget);
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
        let mut refiner = Refiner {
            prog,
            prec: &mut prec,
            mode: &mut mode,
            opts,
            budget,
        };
        match cegar_core::refine(
            &mut refiner,
            arg,
            &error_nodes,
            opts.prune,
            &mut counters.rounds,
        ) {
            Next::Explore => {}
            Next::Rebuild => rebuild = true,
            Next::End(End::Stopped(why)) => return Ok(unknown(why, counters)),
            Next::End(End::Feasible(edges, drawn)) => {
                return unsafe_end(prog, ts, bits, &edges, &drawn, counters.stats())
            }
            Next::NoProgress => {
                let why = "the refinement found no new predicate".to_string();
                return Ok(unknown(why, counters));
            }
        }
    }
}

/// The abstracting half of the CFA domain, for one exploration.
struct Explorer<'a, 'p> {
    ab: Abstractor<'p>,
    prec: &'a [Vec<aig::Lit>],
    dist: &'a [Option<usize>],
    outgoing: &'a [Vec<usize>],
    given: Option<&'a Automaton>,
    repeats: Option<u32>,
    all: bool,
    counts: &'a mut Expansion,
}

impl cegar_core::Abstractor<Loc, State> for Explorer<'_, '_> {
    fn look(&mut self, arg: &mut Arg, n: usize) -> Result<Look, Stopped> {
        if arg.nodes[n].loc == self.ab.program().cfa.error {
            return Ok(Look::Error);
        }
        if self.repeats.is_some_and(|k| arg.nodes[n].visits > k) {
            self.counts.cut += 1;
            return Ok(Look::Skip);
        }
        Ok(Look::Expand)
    }

    /// Every edge is expanded before an error child is reported: a refinement may keep this
    /// node (lazy pruning), and it must not lose successors.
    fn expand(&mut self, arg: &mut Arg, n: usize) -> Result<Option<usize>, Stopped> {
        let cfa = self.ab.program().cfa;
        let mut found = None;
        for &e in &self.outgoing[arg.nodes[n].loc.index()] {
            let to = cfa.edges[e].to;
            if self.dist[to.index()].is_none() {
                continue;
            }
            let assume = match (self.given, &arg.nodes[n].state.assume) {
                (Some(a), Some(set)) => match a.step(set, e) {
                    Step::Safe => {
                        self.counts.condition_safe += 1;
                        continue;
                    }
                    Step::Open => None,
                    Step::To(set) => Some(set),
                },
                _ => None,
            };
            self.counts.posts += 1;
            let Post::States(states) = self.ab.post(&arg.nodes[n].state.lits, e) else {
                return Err(Stopped);
            };
            let precision = self.prec[to.index()].len();
            for lits in states {
                let assume = assume.clone();
                let state = State { lits, assume };
                let child = arg::add(arg, cfa.error, to, state, precision, (n, e));
                if to == cfa.error && !self.all {
                    found = found.or(child);
                }
            }
        }
        Ok(found)
    }
}

/// How a run ends on an abstract error path.
enum End {
    /// Feasible: its edges and the nondet values drawn.
    Feasible(Vec<usize>, path::Drawn),
    Stopped(String),
}

/// The refining half of the CFA domain: the precision of each location.
struct Refiner<'a, 'p> {
    prog: &'a mut Program<'p>,
    prec: &'a mut [Vec<aig::Lit>],
    mode: &'a mut Mode,
    opts: &'a CegarOptions,
    budget: &'a Budget,
}

impl cegar_core::Refiner<Loc, State> for Refiner<'_, '_> {
    type End = End;

    fn check(&mut self, arg: &Arg, nodes: &[usize]) -> PathCheck<End> {
        let edges = arg.path(*nodes.last().expect("a path has a node"));
        let (prog, budget) = (&mut *self.prog, self.budget);
        let mut new = 0;
        if self.opts.refinement == Refinement::UnsatCore {
            match path::needed_vars(prog, &edges, budget) {
                Needed::Stopped => return PathCheck::End(End::Stopped("interrupted".into())),
                Needed::Feasible(drawn) => return PathCheck::End(End::Feasible(edges, drawn)),
                Needed::Vars(vars) => new += track_everywhere(prog, self.prec, &vars),
            }
        } else {
            // A binary interpolant need not rule out its path when the abstract states
            // before its node are too weak to entail it: the same path then comes back, and
            // the sequence of interpolants refines it instead.
            let strategy = self
                .opts
                .refinement
                .strategy()
                .unwrap_or(Strategy::Sequence);
            let mut attempts = vec![strategy];
            if strategy != Strategy::Sequence {
                attempts.push(Strategy::Sequence);
            }
            for s in attempts {
                match path::check(prog, &edges, s, budget) {
                    Check::Stopped(why) => return PathCheck::End(End::Stopped(why)),
                    Check::Feasible(drawn) => return PathCheck::End(End::Feasible(edges, drawn)),
                    Check::Refuted(cuts) => {
                        for cut in cuts {
                            let loc = arg.nodes[nodes[cut.node]].loc.index();
                            let (mode, split) = (*self.mode, self.opts.pred_split);
                            new += refine(prog, &mut self.prec[loc], cut.pred, mode, split);
                        }
                    }
                }
                if new > 0 {
                    break;
                }
            }
        }
        // The first path node computed with less than its location's precision: with the
        // interpolants all in the precision, the path from there on is recomputed (a
        // predicate added by an earlier refinement may be missing from a node that
        // refinement did not prune).
        let pivot = (nodes.iter())
            .position(|&n| arg.nodes[n].precision < self.prec[arg.nodes[n].loc.index()].len());
        PathCheck::Spurious { added: new, pivot }
    }

    /// Explicit values: the path came back because too many successors made tracked
    /// variables unknown; enumerate more of them (as the transition-system engine does).
    fn enumerate_more(&mut self) -> bool {
        match self.mode {
            Mode::Explicit { max_enum } | Mode::Product { max_enum } if *max_enum != 0 => {
                *max_enum = max_enum.saturating_mul(2);
                true
            }
            _ => false,
        }
    }
}
