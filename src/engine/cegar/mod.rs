//! Counterexample-guided abstraction refinement (seed 000, Theta's configurable CEGAR, on a
//! bit-level transition system).
//!
//! Two abstract domains share one concrete check ([`path`]):
//! - the *explicit* domain ([`localize`]): the precision is a set of visible latches, every
//!   other latch becomes a free input (localization abstraction, Clarke et al.'s visible
//!   variables: Theta's explicit domain with unlimited enumeration, "for transition systems
//!   defined by partitioned transition relations"). The abstract system is an ordinary
//!   transition system, so it goes to IC3 (which proves) or BMC (which finds bugs);
//! - the *predicate* domains ([`predicate`]): the precision is a set of predicates (AIG
//!   functions over the latches) and an abstract reachability graph with coverage is built,
//!   with Boolean (AllSAT), Cartesian or split-Boolean abstraction. The same graph runs the
//!   explicit domain Theta's way (`--abstract-engine arg`: tracked latches, successor
//!   valuations enumerated up to `--max-enum`) and the product of both (`--domain prod`).
//!
//! An abstract counterexample is checked on the concrete system in one BMC-style query along
//! the abstract path ([`path`]); a feasible one is the concrete trace returned, a spurious one
//! refines the precision (unsat core of the invisible latches' connections, or the support /
//! the formulas of sequence, backward- or forward-binary interpolants, of one counterexample
//! or of all those of the graph). A proof is an invariant over the concrete latches
//! (the abstract system over-approximates the concrete one).

mod localize;
pub(super) mod path;
mod predicate;
#[cfg(test)]
mod tests;

use super::cegar_core::Counts;
use super::{Engine, Stats, Verdict};
use crate::engine::ic3::Ic3Options;
use crate::ts::TransitionSystem;
use crate::Budget;

/// The abstract domain (`--domain`).
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, clap::ValueEnum)]
pub enum Domain {
    /// Visible latches; the invisible ones are free inputs (localization).
    #[default]
    Expl,
    /// Boolean predicate abstraction: the successor is the disjunction of every cube of
    /// predicate values a successor state can have (AllSAT; past 1024 cubes, the Cartesian
    /// abstraction instead).
    PredBool,
    /// Cartesian predicate abstraction: the successor is the cube of the predicates every
    /// successor state agrees on (two entailment checks per predicate).
    PredCart,
    /// Boolean abstraction whose cubes become separate graph nodes (Theta's PRED_SPLIT); the
    /// only predicate domain in which a node of a one-location system has several children,
    /// so the one where `--search` matters.
    PredSplit,
    /// The product of the explicit domain (tracked latches, enumerated up to `--max-enum`
    /// valuations per step, each its own graph node) and Cartesian predicate abstraction
    /// (the other predicates). Interpolants split into predicates as `--pred-split` says;
    /// the pieces that are single latches are tracked explicitly.
    Prod,
}

/// What a spurious counterexample refines with (`--refinement`).
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, clap::ValueEnum)]
pub enum Refinement {
    /// Sequence interpolants along the abstract path: their latches (explicit) or formulas
    /// (predicates) join the precision.
    SeqItp,
    /// One binary interpolant at the start of the longest feasible suffix.
    BwBinItp,
    /// One binary interpolant after the longest feasible prefix.
    FwBinItp,
    /// Sequence interpolants of every abstract counterexample of the graph at once (the
    /// graph is explored to the end instead of stopping at the first unsafe node; needs an
    /// abstract reachability graph).
    MultiSeq,
    /// The invisible latches whose connections an unsat core of the concrete check uses
    /// (explicit domain only).
    #[default]
    UnsatCore,
}

impl Refinement {
    /// The interpolation strategy, for the refinements that interpolate.
    pub(in crate::engine) fn strategy(self) -> Option<path::Strategy> {
        match self {
            Refinement::SeqItp | Refinement::MultiSeq => Some(path::Strategy::Sequence),
            Refinement::BwBinItp => Some(path::Strategy::BackwardBinary),
            Refinement::FwBinItp => Some(path::Strategy::ForwardBinary),
            Refinement::UnsatCore => None,
        }
    }
}

/// How an interpolant becomes predicates (`--pred-split`).
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, clap::ValueEnum)]
pub enum PredSplit {
    Whole,
    /// The top-level conjuncts of the interpolant's circuit.
    #[default]
    Conjuncts,
    /// The latches in the interpolant's support, each a predicate of its own (at bit level
    /// the atoms of a formula are its variables).
    Atoms,
}

/// Order in which the graph's waiting nodes are expanded (`--search`). The error-distance
/// orders (seed 000: priority `w_D * depth + w_E * distance to the error location`) need the
/// locations of a program; on a transition system they expand breadth-first.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, clap::ValueEnum)]
pub enum Search {
    #[default]
    Bfs,
    Dfs,
    /// Nearest to the error location first (`w_D = 0, w_E = 1`).
    Err,
    /// `w_D = 2, w_E = 1`.
    ErrDfs,
    /// `w_D = 1, w_E = 2`.
    DfsErr,
}

/// What survives a refinement of the graph (`--prune`).
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, clap::ValueEnum)]
pub enum Prune {
    /// Only the subtree below the first node the interpolants refine is removed.
    #[default]
    Lazy,
    /// The graph restarts from the initial node.
    Full,
}

/// The initial precision (`--init-prec`).
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, clap::ValueEnum)]
pub enum InitPrec {
    Empty,
    /// The latches in the combinational support of the bad properties (as predicates in the
    /// predicate domains).
    #[default]
    Prop,
}

/// The engine the localized system of the explicit domain goes to (`--abstract-engine`).
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, clap::ValueEnum)]
pub enum AbstractEngine {
    #[default]
    Ic3,
    /// Finds bugs (localized BMC); its bound holds for the concrete system, but it proves
    /// nothing.
    Bmc,
    /// Abstract reachability over valuations of the visible latches (Theta's explicit
    /// domain, configured by `--max-enum`).
    Arg,
}

/// The CEGAR configuration: one value per axis of seed 000 that this engine implements. The
/// command line ([`crate::options::CegarArgs`]) fills it in, with defaults that fit together.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct CegarOptions {
    /// Abstract domain.
    pub domain: Domain,
    /// Refinement of a spurious counterexample.
    pub refinement: Refinement,
    /// How interpolants become predicates (predicate domains).
    pub pred_split: PredSplit,
    /// Order of expansion of the abstract reachability graph.
    pub search: Search,
    /// What of the abstract reachability graph survives a refinement.
    pub prune: Prune,
    /// Initial precision.
    pub init_prec: InitPrec,
    /// Engine for the localized system (explicit domain).
    pub abstract_engine: AbstractEngine,
    /// Successor valuations of the tracked latches enumerated per step before their values
    /// become unknown; 0: no limit. Doubled whenever a refinement finds nothing new to track.
    pub max_enum: usize,
}

/// Seed 000 (RQ1) found limits 5 to 50 best overall.
pub const DEFAULT_MAX_ENUM: usize = 10;

impl Default for CegarOptions {
    fn default() -> CegarOptions {
        CegarOptions {
            domain: Domain::default(),
            refinement: Refinement::default(),
            pred_split: PredSplit::default(),
            search: Search::default(),
            prune: Prune::default(),
            init_prec: InitPrec::default(),
            abstract_engine: AbstractEngine::default(),
            max_enum: DEFAULT_MAX_ENUM,
        }
    }
}

impl CegarOptions {
    /// Why this combination cannot run, if it cannot (the caller reports it as a usage error).
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.domain != Domain::Expl && self.refinement == Refinement::UnsatCore {
            return Err(ConfigError::UnsatCoreNeedsExpl);
        }
        if self.refinement == Refinement::MultiSeq && !self.builds_graph() {
            return Err(ConfigError::MultiSeqNeedsGraph);
        }
        Ok(())
    }

    /// Whether this configuration explores an abstract reachability graph (rather than
    /// handing a localized system to another engine).
    pub fn builds_graph(&self) -> bool {
        self.domain != Domain::Expl || self.abstract_engine == AbstractEngine::Arg
    }
}

/// The interpolating refinements other than the default `seq-itp`, which the test grids of
/// both CEGAR engines run in every domain.
#[cfg(test)]
pub(crate) const INTERPOLATING: [Refinement; 3] = [
    Refinement::BwBinItp,
    Refinement::FwBinItp,
    Refinement::MultiSeq,
];

#[cfg(test)]
impl CegarOptions {
    /// This configuration once with each of `values` (written by `set`): one of seed 000's
    /// axes varied alone, the unit of the circuit and the CFA engines' test grids.
    pub(crate) fn varied<T>(
        self,
        values: impl IntoIterator<Item = T>,
        set: impl Fn(&mut CegarOptions, T),
    ) -> Vec<CegarOptions> {
        (values.into_iter())
            .map(|v| {
                let mut opts = self;
                set(&mut opts, v);
                opts
            })
            .collect()
    }
}

/// Every value of one of seed 000's axes but `except` (which the test grid runs elsewhere or
/// the input refuses).
#[cfg(test)]
pub(crate) fn all_but<T: clap::ValueEnum + Copy + PartialEq + 'static>(
    except: T,
) -> impl Iterator<Item = T> {
    (T::value_variants().iter().copied()).filter(move |&v| v != except)
}

/// A CEGAR configuration that cannot run.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error(
        "--refinement unsat-core needs --domain expl (predicate and product domains refine \
         with interpolants)"
    )]
    UnsatCoreNeedsExpl,
    #[error(
        "--refinement multi-seq needs an abstract reachability graph: a predicate or product \
         domain, or --abstract-engine arg"
    )]
    MultiSeqNeedsGraph,
}

/// Counters of one CEGAR run.
#[derive(Default)]
struct CegarStats {
    rounds: Counts,
    /// Visible latches (explicit) or predicates at the end.
    precision: u64,
    concrete_latches: u64,
}

/// The CEGAR engine; `max_depth` bounds localized BMC.
pub struct Cegar {
    opts: CegarOptions,
    max_depth: Option<usize>,
    /// The options of the IC3 that checks the localized systems (`--abstract-engine ic3`).
    ic3: Ic3Options,
    stats: CegarStats,
}

impl Cegar {
    pub fn new(opts: CegarOptions, max_depth: Option<usize>) -> Cegar {
        Cegar {
            opts,
            max_depth,
            ic3: Ic3Options::default(),
            stats: CegarStats::default(),
        }
    }

    /// Localization checks its abstractions with an IC3 configured by `ic3`.
    pub fn with_ic3(mut self, ic3: Ic3Options) -> Cegar {
        self.ic3 = ic3;
        self
    }
}

impl Engine for Cegar {
    fn name(&self) -> &'static str {
        "cegar"
    }

    fn check(&mut self, ts: &TransitionSystem, budget: &Budget) -> Verdict {
        self.stats = CegarStats {
            concrete_latches: ts.latches.len() as u64,
            ..CegarStats::default()
        };
        let checker = match (self.opts.domain, self.opts.abstract_engine) {
            (Domain::Expl, AbstractEngine::Ic3) => localize::Checker::Ic3(self.ic3),
            (Domain::Expl, AbstractEngine::Bmc) => localize::Checker::Bmc(self.max_depth),
            _ => return predicate::run(ts, &self.opts, budget, &mut self.stats),
        };
        localize::run(ts, &self.opts, checker, budget, &mut self.stats)
    }

    fn stats(&self) -> Stats {
        let s = &self.stats;
        let mut stats = s.rounds.stats();
        stats.extend([
            ("cegar_precision", s.precision),
            ("cegar_concrete_latches", s.concrete_latches),
        ]);
        stats
    }
}

/// The latches in the combinational support of the bad properties.
fn property_latches(ts: &TransitionSystem) -> Vec<usize> {
    cone_latches(ts, ts.bad.iter().copied())
}

/// The latches (indices) in the combinational support of `roots`.
fn cone_latches(
    ts: &TransitionSystem,
    roots: impl IntoIterator<Item = crate::aig::Lit>,
) -> Vec<usize> {
    let cone = ts.aig.cone(roots);
    ts.latches
        .iter()
        .enumerate()
        .filter(|(_, l)| cone[l.var.index()])
        .map(|(i, _)| i)
        .collect()
}
