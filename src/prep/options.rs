//! Which preprocessing passes run: each pass is a named configuration (`--prep`), so that it
//! can be measured on its own and in the portfolio.

/// A preprocessing pass after the cone of influence.
#[derive(Copy, Clone, Debug, Eq, PartialEq, clap::ValueEnum)]
pub enum PrepPass {
    /// Constant latches by ternary simulation from the reset state.
    Ternary,
    /// Signal correspondence: equivalent latches and latch-only gates proved by a
    /// `--scorr-depth`-step induction, then gates that read inputs merged by SAT sweeping
    /// under those equivalences.
    Scorr,
    /// Functional reduction: gates equal in every state (reachable or not) merged by
    /// simulation and SAT; no induction, so cheaper than scorr, but blind to reachability.
    Fraig,
}

/// The passes and their settings.
#[derive(Clone, Debug, Eq, PartialEq, clap::Args)]
#[command(next_help_heading = "Tuning: preprocessing")]
pub struct PrepOptions {
    /// Passes after the cone of influence, in order (comma-separated; an empty list runs
    /// only the cone of influence). `scorr` and `fraig` are skipped on systems of 150,000
    /// AND gates or more, where they found next to nothing in their time.
    #[arg(long, value_enum, value_delimiter = ',', num_args = 0..,
          default_values_t = PrepOptions::DEFAULT_PASSES)]
    pub prep: Vec<PrepPass>,
    /// Depth k of signal correspondence's induction: equivalences that hold in the first k
    /// frames and after every k consecutive frames where they hold (1 = van Eijk's method).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
    pub scorr_depth: u16,
}

impl PrepOptions {
    const DEFAULT_PASSES: [PrepPass; 2] = [PrepPass::Ternary, PrepPass::Scorr];
}

impl Default for PrepOptions {
    fn default() -> PrepOptions {
        PrepOptions {
            prep: PrepOptions::DEFAULT_PASSES.to_vec(),
            scorr_depth: 1,
        }
    }
}
