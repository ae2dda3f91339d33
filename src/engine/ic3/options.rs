//! The configuration of the IC3 engine (also its `--ic3-*` options on the command line).
//! Each switch is one published strengthening of IC3; the defaults are what measured better
//! on the development sample (docs/lab/ic3.md).

use crate::ts::TransitionSystem;

/// Switches of the IC3 engine. `--ic3-NAME` turns one on, `--ic3-NAME=false` off. All are
/// off by default: none solved more or faster on the development sample.
#[derive(Copy, Clone, Debug, Eq, PartialEq, clap::Args)]
#[command(next_help_heading = "Tuning: IC3 (--engine ic3)")]
pub struct Ic3Options {
    // Gurfinkel and Ivrii, "Pushing to the top", FMCAD 2015.
    /// Counterexamples to propagation: when a lemma fails to move up, the state that stops
    /// it is blocked one level lower if it can be, and the push is tried again.
    #[arg(long = "ic3-ctp", default_value_t = false, action = clap::ArgAction::Set,
          num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub ctp: bool,
    // Xia et al., "Searching for i-Good Lemmas to Accelerate Safety Model Checking", CAV 2023.
    /// Parent-lemma-guided generalisation: a cube blocked relative to F_i that a lemma of
    /// level exactly i (one that did not move up) excludes keeps that lemma's literals for
    /// last, so MIC looks for the parent plus few literals first.
    #[arg(long = "ic3-parent", default_value_t = false, action = clap::ArgAction::Set,
          num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub parent: bool,
    /// Drops an optional proof obligation (one pushed beyond the frame where it had to be
    /// blocked, to find longer counterexamples early) once it has had a predecessor this
    /// many times; the obligations a round must block are never dropped. 0: never.
    #[arg(long = "ic3-drop-po", default_value_t = 0, value_name = "N")]
    pub drop_po: u32,
    /// Failed literal drops in a row after which MIC stops generalising a cube (IC3ref's
    /// `micAttempts`); 0: try to drop every literal once, as rIC3 does, keeping the ones
    /// that fail (smaller lemmas for more queries).
    #[arg(long = "ic3-mic-attempts", default_value_t = 3, value_name = "N")]
    pub mic_attempts: u32,
    /// Counterexamples to generalisation MIC may block in a row before it joins the cube
    /// with the next one (IC3ref's and rIC3's `ctgMax`, 3 by default).
    #[arg(long = "ic3-ctg-max", default_value_t = 3, value_name = "N")]
    pub ctg_max: usize,
    /// Cubes one CTG's blocking may try to block: 1, the CTG one frame lower only (IC3ref);
    /// with more, a CTG that is not blocked there has its own predecessor blocked a frame
    /// lower still, recursively, and is tried again, within this many cubes in all (rIC3's
    /// `--ctg-limit`: a short blocking phase of its own inside generalisation).
    #[arg(long = "ic3-ctg-limit", default_value_t = 1, value_name = "N")]
    pub ctg_limit: u32,
    /// Drops any proof obligation, optional or not, whose activity passes this value: each
    /// blocking attempt adds 1, each frame it moves up multiplies it by 0.6 (rIC3's
    /// `--drop-po`). A dropped obligation that the round needs comes back as a new bad state
    /// with the lemmas learnt meanwhile. 0: never.
    #[arg(long = "ic3-po-act", default_value_t = 0, value_name = "T")]
    pub po_act: u32,
    /// Shrinks each lifted predecessor further: the core is lifted again in reverse order
    /// while that removes literals (at most 3 rounds), so obligations are smaller cubes.
    #[arg(long = "ic3-lift-min", default_value_t = false, action = clap::ArgAction::Set,
          num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub lift_min: bool,
    /// Plain MIC: a literal whose drop leaves a cube with a predecessor stays, with no
    /// counterexamples to generalisation blocked and no join with the predecessor (ABC
    /// `pdr`'s default generalisation: cheaper lemmas, more of them).
    #[arg(long = "ic3-simple-mic", default_value_t = false, action = clap::ArgAction::Set,
          num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub simple_mic: bool,
    /// Dynamic generalisation effort: the CTGs MIC may block in a row grow with the
    /// activity of the obligation's successors (how often the branch above it came back):
    /// none below 10 (joins only), 2-4 up to 40, 5 above, each then blocked through more
    /// cubes the higher the activity (rIC3's `--dynamic`). Off: `--ic3-ctg-max` and
    /// `--ic3-ctg-limit` for every obligation.
    #[arg(long = "ic3-dynamic", default_value_t = false, action = clap::ArgAction::Set,
          num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub dynamic_mic: bool,
    // Dureja et al., "IC3 with Internal Signals", FMCAD 2021.
    /// Internal signals as state variables: cubes and lemmas may name gates that depend on
    /// latches only (and have one initial value), predecessors are lifted over them first
    /// (rIC3's `--inn`).
    #[arg(long = "ic3-inn", default_value_t = false, action = clap::ArgAction::Set,
          num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub inn: bool,
    /// Localization inside IC3: a predecessor is lifted towards the latches made visible so
    /// far only (none at first), so obligations ignore the others; an obligation chain that
    /// meets the initial states is checked by BMC at its depth with the invisible latches
    /// guarded, and is either a counterexample or makes the latches of the unsat core
    /// visible. Lemmas are always proved on the whole system, so they survive refinement
    /// (rIC3's `--abs-trans`).
    #[arg(long = "ic3-abs", default_value_t = false, action = clap::ArgAction::Set,
          num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub abs: bool,
    // The code: src/engine/ic3/constraints.rs.
    /// Constraint abstraction: IC3 checks the system without its invariant constraints
    /// first; a counterexample that breaks some enables them and IC3 starts again with the
    /// lemmas it had (rIC3's `--ic3-abs-cst`).
    #[arg(long = "ic3-abs-cst", default_value_t = false, action = clap::ArgAction::Set,
          num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub abs_cst: bool,
    // The code: src/engine/lookahead.rs.
    /// Predicate propagation: IC3 checks the system one step ahead of its bad states (their
    /// predecessors are its bad states, the property one more constraint), after BMC of
    /// frame 0 (rIC3's `--pred-prop`).
    #[arg(long = "ic3-pred-prop", default_value_t = false, action = clap::ArgAction::Set,
          num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    pub pred_prop: bool,
    // Measured in docs/lab/ic3.md ("MIC's joins without lifting"): IC3 alone solved more
    // with `model`, in less time.
    /// What a cube whose literal drop failed is joined with when MIC tries no CTG: the
    /// predecessor's full state as the model has it (`model`, rIC3's `down`), or that state
    /// lifted by a SAT query (`lift`, IC3ref's join). The model's costs no query.
    #[arg(long = "ic3-join", value_enum, default_value_t = Join::Model, value_name = "HOW")]
    pub join: Join,
    /// Which of the obligations of the lowest frame is worked on first: the one closest to a
    /// bad state (`depth`, IC3ref's order), the one farthest from it (`deepest`, rIC3's), or
    /// the one queued last (`newest`, ABC `pdr`'s). The last two follow a chain of
    /// predecessors down towards the initial states before its siblings.
    #[arg(long = "ic3-po-order", value_enum, default_value_t = PoOrder::Depth, value_name = "ORDER")]
    pub po_order: PoOrder,
    /// The SAT solver of the frames and of lifting: CaDiCaL, or warden's own lean CDCL
    /// solver made for many small queries.
    #[arg(long = "ic3-sat", value_enum, default_value_t = Ic3Sat::Cadical, value_name = "SOLVER")]
    pub sat: Ic3Sat,
}

/// How hard MIC works on counterexamples to generalisation: at most `max` blocked in a row
/// before a join, each blocked through at most `limit` cubes (`--ic3-ctg-limit`).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub(super) struct CtgEffort {
    pub(super) max: usize,
    pub(super) limit: u32,
}

impl Ic3Options {
    /// These options as they act on `ts`: without invariant constraints there are none to
    /// leave out at first, and `--ic3-abs-cst` runs plain IC3, query for query. The engine
    /// runs by this, and the portfolio compares its members by it.
    pub fn on(self, ts: &TransitionSystem) -> Ic3Options {
        Ic3Options {
            abs_cst: self.abs_cst && !ts.constraints.is_empty(),
            ..self
        }
    }

    /// The CTG effort of the command line (`--ic3-ctg-max`, `--ic3-ctg-limit`).
    pub(super) fn ctg_effort(&self) -> CtgEffort {
        CtgEffort {
            max: self.ctg_max,
            limit: self.ctg_limit,
        }
    }
}

/// The order of the proof obligations within one frame.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, clap::ValueEnum)]
pub enum PoOrder {
    #[default]
    Depth,
    Deepest,
    Newest,
}

/// What MIC joins a cube with after a failed drop that tries no CTG (`--ic3-join`).
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, clap::ValueEnum)]
pub enum Join {
    #[default]
    Model,
    Lift,
}

/// The SAT back ends IC3 can run on.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, clap::ValueEnum)]
pub enum Ic3Sat {
    #[default]
    Cadical,
    Cdcl,
}

impl Default for Ic3Options {
    /// The command line's defaults.
    fn default() -> Ic3Options {
        Ic3Options {
            ctp: false,
            parent: false,
            drop_po: 0,
            mic_attempts: 3,
            ctg_max: 3,
            ctg_limit: 1,
            po_act: 0,
            lift_min: false,
            simple_mic: false,
            dynamic_mic: false,
            inn: false,
            abs: false,
            abs_cst: false,
            pred_prop: false,
            join: Join::Model,
            po_order: PoOrder::Depth,
            sat: Ic3Sat::Cadical,
        }
    }
}
