//! The engines a run can ask for by name (`--engine`): the lowest layer's names, which the
//! options, the configurations and a run read.

/// Which engine a run uses (`--engine`).
#[derive(Copy, Clone, Debug, Eq, PartialEq, clap::ValueEnum)]
pub enum EngineKind {
    /// Several engines in parallel threads, first answer wins.
    Portfolio,
    /// Bounded model checking.
    Bmc,
    /// k-induction with invariant injection.
    Kind,
    /// IC3/PDR.
    Ic3,
    /// Interpolation-based model checking (McMillan).
    Imc,
    /// BDD-based forward reachability (small systems).
    Reach,
    /// Counterexample-guided abstraction refinement (see the CEGAR options).
    Cegar,
    /// k-liveness with IC3 (justice properties only: proves them, never refutes them).
    Klive,
    /// Word-level BMC on Z3 (BTOR2 and C models: finds counterexamples; with
    /// `--smt-induction`, k-induction that proves too).
    Smt,
    /// Lazy abstraction with interpolants (McMillan's Impact): a C program's CFA unwound into
    /// a tree, a circuit into a chain.
    Impact,
    // Conditional model checking (Beyer et al.); src/engine/sequence.rs for circuits,
    // src/engine/cfa_cegar/sequence.rs for C programs.
    /// A conditional sequence, each stage passing on what it verified: on a circuit BMC,
    /// then k-induction, then IC3; on a C program BMC, then explicit-value CEGAR, then
    /// predicate CEGAR on what the explicit run left open.
    Sequence,
    /// Random simulation with weighted input phases (finds deep bugs, proves nothing).
    Sim,
    /// Symbolic execution with CEGAR on the tracked variables (C programs only).
    Symex,
    /// UFO: the CFA unrolled into a DAG, every error path refined at once (C programs only;
    /// see `--ufo-post`).
    Ufo,
}

impl EngineKind {
    /// The name `--engine` takes.
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Portfolio => "portfolio",
            EngineKind::Bmc => "bmc",
            EngineKind::Kind => "kind",
            EngineKind::Ic3 => "ic3",
            EngineKind::Imc => "imc",
            EngineKind::Reach => "reach",
            EngineKind::Cegar => "cegar",
            EngineKind::Klive => "klive",
            EngineKind::Smt => "smt",
            EngineKind::Impact => "impact",
            EngineKind::Sequence => "sequence",
            EngineKind::Sim => "sim",
            EngineKind::Symex => "symex",
            EngineKind::Ufo => "ufo",
        }
    }
}
