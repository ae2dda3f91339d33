//! Which engine reads which command-line option, on which kind of input, and the defaults
//! that follow from each other.
//!
//! An option that the chosen engine would ignore, or a value it would run as something else,
//! is a usage error naming the option, the engine and the input kind, rather than a run that
//! silently does not do what was asked. Each engine declares what it reads in [`reads`]; the
//! CEGAR options are given here as `Option`s so that a default is told apart from an explicit
//! choice, and the defaults depend on the domain and the input (the refinement follows the
//! domain: `unsat-core` for the explicit domain on circuits, sequence interpolation
//! otherwise).
//!
//! Layer: options; imports [`crate::engine`] (its option types), [`crate::front`] (input kinds) and
//! below, so that [`crate::check`] and the command line read one table.

use crate::engine::cegar::{
    AbstractEngine, CegarOptions, ConfigError, Domain, InitPrec, PredSplit, Prune, Refinement,
    Search, DEFAULT_MAX_ENUM,
};
use crate::engine::EngineKind;
use crate::front::InputKind;

pub mod configs;
pub mod cores;

/// The CEGAR options of the command line (`--engine cegar` only).
#[derive(Clone, Debug, Default, PartialEq, clap::Args)]
#[command(next_help_heading = "Tuning: CEGAR (--engine cegar)")]
pub struct CegarArgs {
    /// Abstract domain [default: expl]. On C programs every domain but pred-bool (a CFA state
    /// is one cube: pred-split makes each cube of the Boolean abstraction one).
    #[arg(long, value_enum)]
    pub domain: Option<Domain>,
    /// Refinement of a spurious counterexample [default: unsat-core for expl on circuits,
    /// else seq-itp]. unsat-core needs --domain expl, multi-seq an abstract reachability
    /// graph (on circuits: a predicate or product domain, or --abstract-engine arg).
    #[arg(long, value_enum)]
    pub refinement: Option<Refinement>,
    /// How interpolants become predicates (predicate and product domains) [default:
    /// conjuncts].
    #[arg(long, value_enum)]
    pub pred_split: Option<PredSplit>,
    /// Order of expansion of the abstract reachability graph (graph domains) [default: bfs].
    /// err, err-dfs and dfs-err (distance to the error location) on C programs only.
    #[arg(long, value_enum)]
    pub search: Option<Search>,
    /// What of the abstract reachability graph survives a refinement (graph domains)
    /// [default: lazy].
    #[arg(long, value_enum)]
    pub prune: Option<Prune>,
    /// Initial precision [default: prop].
    #[arg(long, value_enum)]
    pub init_prec: Option<InitPrec>,
    /// Engine for the localized system (explicit domain, circuits only) [default: ic3].
    #[arg(long, value_enum)]
    pub abstract_engine: Option<AbstractEngine>,
    /// Successor valuations of the tracked latches enumerated per step before their values
    /// become unknown (explicit domain with --abstract-engine arg, and prod; on C programs
    /// the explicit domain's tracked variables); 0: no limit [default: 10]. Doubled whenever
    /// a refinement finds nothing new to track.
    #[arg(long, value_name = "K")]
    pub max_enum: Option<usize>,
}

/// An option the run would ignore or run as something else, or a combination that cannot run.
#[derive(Debug, thiserror::Error)]
pub enum UsageError {
    #[error("{option} is ignored by --engine {engine}{configured} on {input}: leave it out")]
    Ignored {
        option: &'static str,
        engine: &'static str,
        /// For CEGAR: the configuration that ignores it (` with --domain ...`).
        configured: String,
        input: InputKind,
    },
    #[error("{option} {value} is not implemented by --engine {engine} on {input} ({hint})")]
    NotImplemented {
        option: &'static str,
        value: String,
        engine: &'static str,
        input: InputKind,
        hint: &'static str,
    },
    #[error("--engine {engine} does not run on {input}: {hint}")]
    Input {
        engine: &'static str,
        input: InputKind,
        hint: &'static str,
    },
    #[error("--engine {engine} on {input}: {source}")]
    Cegar {
        engine: &'static str,
        input: InputKind,
        source: ConfigError,
    },
}

/// The options of `check` that only some engines or inputs read; the others (output files,
/// limits, verbosity) every run reads.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Opt {
    MaxDepth,
    Jobs,
    Portfolio,
    Bmc,
    Ic3,
    Smt,
    Prep,
    DataModel,
    NondetFn,
    StrictExtern,
    Blocks,
    Spec,
    WitnessFormat,
    WlSimplify,
    ConditionIn,
    ConditionOut,
    Domain,
    Refinement,
    PredSplit,
    Search,
    Prune,
    InitPrec,
    AbstractEngine,
    MaxEnum,
    UfoPost,
}

impl Opt {
    /// The flag on the command line.
    pub fn flag(self) -> &'static str {
        match self {
            Opt::MaxDepth => "--max-depth",
            Opt::Jobs => "--jobs",
            Opt::Portfolio => "--portfolio",
            Opt::Bmc => "--bmc-*",
            Opt::Ic3 => "--ic3-*",
            Opt::Smt => "--smt-induction",
            Opt::Prep => "--prep/--scorr-depth",
            Opt::DataModel => "--data-model",
            Opt::NondetFn => "--nondet-fn",
            Opt::StrictExtern => "--strict-extern",
            Opt::Blocks => "--blocks",
            Opt::Spec => "--spec",
            Opt::WitnessFormat => "--witness-format",
            Opt::WlSimplify => "--wl-simplify",
            Opt::ConditionIn => "--condition-in",
            Opt::ConditionOut => "--condition-out",
            Opt::Domain => "--domain",
            Opt::Refinement => "--refinement",
            Opt::PredSplit => "--pred-split",
            Opt::Search => "--search",
            Opt::Prune => "--prune",
            Opt::InitPrec => "--init-prec",
            Opt::AbstractEngine => "--abstract-engine",
            Opt::MaxEnum => "--max-enum",
            Opt::UfoPost => "--ufo-post",
        }
    }
}

/// The options of `set` whose flag is true (set explicitly).
pub fn given<const N: usize>(set: [(bool, Opt); N]) -> Vec<Opt> {
    set.into_iter()
        .filter(|(s, _)| *s)
        .map(|(_, o)| o)
        .collect()
}

impl CegarArgs {
    /// The CEGAR options given explicitly.
    fn given(&self) -> Vec<Opt> {
        given([
            (self.domain.is_some(), Opt::Domain),
            (self.refinement.is_some(), Opt::Refinement),
            (self.pred_split.is_some(), Opt::PredSplit),
            (self.search.is_some(), Opt::Search),
            (self.prune.is_some(), Opt::Prune),
            (self.init_prec.is_some(), Opt::InitPrec),
            (self.abstract_engine.is_some(), Opt::AbstractEngine),
            (self.max_enum.is_some(), Opt::MaxEnum),
        ])
    }

    /// The configuration these options ask for, the unset ones at their defaults for `input`.
    pub fn resolve(&self, input: InputKind) -> CegarOptions {
        let domain = self.domain.unwrap_or_default();
        let refinement = match (input, domain) {
            (InputKind::Circuit, Domain::Expl) => Refinement::UnsatCore,
            _ => Refinement::SeqItp,
        };
        CegarOptions {
            domain,
            refinement: self.refinement.unwrap_or(refinement),
            pred_split: self.pred_split.unwrap_or_default(),
            search: self.search.unwrap_or_default(),
            prune: self.prune.unwrap_or_default(),
            init_prec: self.init_prec.unwrap_or_default(),
            abstract_engine: self.abstract_engine.unwrap_or_default(),
            max_enum: self.max_enum.unwrap_or(DEFAULT_MAX_ENUM),
        }
    }
}

/// Whether `engine` on `input`, configured as `cegar` (for `--engine cegar`), reads `opt`.
pub fn reads(engine: EngineKind, input: InputKind, cegar: &CegarOptions, opt: Opt) -> bool {
    let circuit = input == InputKind::Circuit;
    let predicates = cegar.domain != Domain::Expl;
    match opt {
        // The portfolio hands the bound to its k-induction, IMC, CEGAR and BMC workers.
        Opt::MaxDepth => match engine {
            EngineKind::Portfolio
            | EngineKind::Bmc
            | EngineKind::Kind
            | EngineKind::Imc
            | EngineKind::Smt
            | EngineKind::Sequence => true,
            EngineKind::Ic3
            | EngineKind::Klive
            | EngineKind::Reach
            | EngineKind::Sim
            | EngineKind::Symex
            | EngineKind::Ufo => false,
            // The chain of a circuit; the CFA's tree has no bound.
            EngineKind::Impact => circuit,
            // Only localized BMC is bounded.
            EngineKind::Cegar => {
                circuit && !predicates && cegar.abstract_engine == AbstractEngine::Bmc
            }
        },
        Opt::Jobs | Opt::Portfolio => engine == EngineKind::Portfolio,
        // The portfolio's BMC workers have their own configurations.
        Opt::Bmc => matches!(engine, EngineKind::Bmc | EngineKind::Sequence),
        Opt::Smt => engine == EngineKind::Smt,
        // Likewise the portfolio's IC3 workers; k-liveness runs IC3 with them, and so does
        // localization with `--abstract-engine ic3`.
        Opt::Ic3 => match engine {
            EngineKind::Ic3 | EngineKind::Klive => true,
            // On a C program, the sequence's stages after BMC are the CFA analyses.
            EngineKind::Sequence => circuit,
            EngineKind::Cegar => {
                circuit && !predicates && cegar.abstract_engine == AbstractEngine::Ic3
            }
            _ => false,
        },
        // Preprocessing runs before every engine on the bit-level system; the CFA analysis
        // of a C program (`--engine cegar`) works on the program itself, and the SMT engine
        // on the word-level model.
        Opt::Prep => match engine {
            EngineKind::Smt | EngineKind::Symex | EngineKind::Ufo => false,
            EngineKind::Cegar | EngineKind::Impact | EngineKind::Sequence => circuit,
            _ => true,
        },
        Opt::DataModel
        | Opt::NondetFn
        | Opt::StrictExtern
        | Opt::Blocks
        | Opt::Spec
        | Opt::WitnessFormat => !circuit,
        // BTOR2 models only (the command line rejects it on AIGER once the file is read);
        // C programs are encoded without it.
        Opt::WlSimplify => circuit,
        Opt::UfoPost => engine == EngineKind::Ufo,
        // Read by the engines that unroll from the initial states (the depth) or share the
        // lemma pool (the lemmas).
        Opt::ConditionIn => match engine {
            EngineKind::Portfolio | EngineKind::Bmc | EngineKind::Kind | EngineKind::Ic3 => true,
            // A C program's sequence passes its CFA conditions inside the run; the CFA
            // CEGAR of a C program reads an earlier one's assumption automaton.
            EngineKind::Sequence => circuit,
            EngineKind::Cegar => !circuit,
            _ => false,
        },
        // Every run of the bit-level system reports its depth; the CFA analysis of a C
        // program and k-liveness check something else.
        Opt::ConditionOut => match engine {
            // On a C program, the CFA CEGAR (alone, or the sequence's last stage) writes its
            // assumption automaton.
            EngineKind::Cegar | EngineKind::Sequence => true,
            EngineKind::Impact => circuit,
            EngineKind::Klive | EngineKind::Symex | EngineKind::Ufo => false,
            _ => true,
        },
        // The portfolio's CEGAR worker has its own fixed configuration.
        _ if engine != EngineKind::Cegar => false,
        Opt::Domain | Opt::Refinement | Opt::InitPrec => true,
        Opt::AbstractEngine => circuit && !predicates,
        Opt::Search | Opt::Prune => !circuit || cegar.builds_graph(),
        Opt::PredSplit => predicates,
        Opt::MaxEnum => match input {
            InputKind::Circuit => {
                cegar.builds_graph() && matches!(cegar.domain, Domain::Expl | Domain::Prod)
            }
            InputKind::C => matches!(cegar.domain, Domain::Expl | Domain::Prod),
        },
    }
}

/// The CEGAR configuration of a run of `engine` on `input` whose options `given` (besides the
/// CEGAR ones in `cegar`) were set explicitly, or why it would not run as asked.
pub fn check(
    engine: EngineKind,
    input: InputKind,
    cegar: &CegarArgs,
    given: &[Opt],
) -> Result<CegarOptions, UsageError> {
    let opts = cegar.resolve(input);
    let name = engine.name();
    let c_only = match engine {
        EngineKind::Symex => Some("symbolic execution runs on C programs"),
        // On a circuit UFO's DAG is the chain of time frames and its ARG condition BMC's
        // formula up to a depth (seed 004's own mapping): IMC and Impact cover it.
        EngineKind::Ufo => Some("UFO unrolls a C program's CFA (on a circuit: imc or impact)"),
        _ => None,
    };
    if let (Some(hint), false) = (c_only, input == InputKind::C) {
        return Err(UsageError::Input {
            engine: name,
            input,
            hint,
        });
    }
    let cegar_given = cegar.given();
    let mut all_given = given.iter().chain(&cegar_given);
    if let Some(o) = all_given.find(|&&o| !reads(engine, input, &opts, o)) {
        let configured = match (engine, input, opts.domain) {
            (EngineKind::Cegar, InputKind::Circuit, Domain::Expl) => format!(
                " with --domain expl --abstract-engine {}",
                value_name(opts.abstract_engine)
            ),
            (EngineKind::Cegar, _, domain) => format!(" with --domain {}", value_name(domain)),
            _ => String::new(),
        };
        return Err(UsageError::Ignored {
            option: o.flag(),
            engine: name,
            configured,
            input,
        });
    }
    if engine != EngineKind::Cegar {
        return Ok(opts);
    }
    let unimplemented = |option: &'static str, value: String, hint| UsageError::NotImplemented {
        option,
        value,
        engine: name,
        input,
        hint,
    };
    match input {
        InputKind::C => {
            if opts.domain == Domain::PredBool {
                let hint = "an abstract state of the CFA analysis is one cube: pred-split \
                    makes each cube of the Boolean abstraction a state";
                return Err(unimplemented("--domain", value_name(opts.domain), hint));
            }
            if opts.domain != Domain::Expl && opts.refinement == Refinement::UnsatCore {
                return Err(UsageError::Cegar {
                    engine: name,
                    input,
                    source: ConfigError::UnsatCoreNeedsExpl,
                });
            }
            Ok(opts)
        }
        InputKind::Circuit => {
            if matches!(opts.search, Search::Err | Search::ErrDfs | Search::DfsErr) {
                let hint = "a circuit has no error location: bfs or dfs";
                return Err(unimplemented("--search", value_name(opts.search), hint));
            }
            opts.validate().map_err(|source| UsageError::Cegar {
                engine: name,
                input,
                source,
            })?;
            Ok(opts)
        }
    }
}

/// How the command line spells `v`.
fn value_name(v: impl clap::ValueEnum) -> String {
    v.to_possible_value()
        .map_or(String::new(), |p| p.get_name().to_owned())
}
