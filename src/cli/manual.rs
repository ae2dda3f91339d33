//! What the command line says about itself: `--help` with the engines' tuning options hidden,
//! `warden check --help-all` with every option, the man pages (`warden man`) and the shell
//! completions (`warden completions SHELL`), all from the one set of clap definitions.

use std::io::Write;
use std::path::Path;

use clap::builder::PossibleValue;
use clap::{Arg, ArgAction, Command, CommandFactory};
use clap_complete::Shell;

use super::Cli;
use crate::error::ExitCode;

/// The help headings that `warden check --help` leaves out: options that tune one engine,
/// which no one needs to run the default portfolio (they stay in `--help-all`, the man page
/// and the completions).
const TUNING: &str = "Tuning";

/// The flag that shows the tuning options too.
const HELP_ALL: &str = "help-all";

/// The command line with every option visible: what `--help-all`, the man pages and the
/// completions describe.
pub(super) fn full_command() -> Command {
    Cli::command().mut_subcommand("check", |check| {
        // Beside `--help`, not under the heading of the options declared last.
        check.next_help_heading(None).arg(
            Arg::new(HELP_ALL)
                .long(HELP_ALL)
                .action(ArgAction::SetTrue)
                .help("Print help with every option, the engines' tuning options too"),
        )
    })
}

/// The command line as it parses and as `--help` shows it: the tuning options of `check`
/// hidden, and the values of its other options named without their descriptions (the
/// engines': `--help-all` and `warden configs` give them). A description of a value is long
/// help to clap, which would turn all of `--help` into the long form, every option over three
/// lines: this way the help stays one screen of one line per option.
pub(super) fn command() -> Command {
    full_command().mut_subcommand("check", |check| {
        check.mut_args(|a| match a.get_help_heading() {
            Some(h) if h.starts_with(TUNING) => a.hide(true),
            _ => values_inline(a),
        })
    })
}

/// `arg` with the names of its values at the end of its help instead of a list of values
/// with their descriptions (unchanged if its values have none).
fn values_inline(arg: Arg) -> Arg {
    let values: Vec<PossibleValue> = (arg.get_value_parser().possible_values())
        .map_or(Vec::new(), |v| v.filter(|v| !v.is_hide_set()).collect());
    if values.iter().all(|v| v.get_help().is_none()) {
        return arg;
    }
    let names: Vec<&str> = values.iter().map(PossibleValue::get_name).collect();
    let help = arg.get_help().map_or(String::new(), |h| h.to_string());
    arg.hide_possible_values(true)
        .help(format!("{help} [possible values: {}]", names.join(", ")))
}

/// Whether `args` ask `warden check` for its help with every option.
pub(super) fn asks_help_all(args: &[String]) -> bool {
    args.get(1).is_some_and(|a| a == "check") && args.iter().any(|a| a == "--help-all")
}

/// Prints the help of `warden check` with every option.
pub(super) fn print_help_all() -> ExitCode {
    match full_command().try_get_matches_from(["warden", "check", "--help"]) {
        Err(help) => {
            let _ = help.print();
            ExitCode::Verdict
        }
        Ok(_) => unreachable!("--help always ends the parse"),
    }
}

/// The man pages, one per command (`warden`, `warden-check`, ...), written into `dir`, or
/// one after the other on stdout without it (`man -l -` shows them in turn).
pub(super) fn man(dir: Option<&Path>) -> ExitCode {
    let mut cmd = full_command().disable_help_subcommand(true);
    cmd.build();
    let mut pages = vec![clap_mangen::Man::new(cmd.clone())];
    // A subcommand has no version of its own: its page names warden's.
    let source = format!("warden {}", super::VERSION);
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        pages.push(clap_mangen::Man::new(sub.clone()).source(source.clone()));
    }
    let written = match dir {
        Some(dir) => (pages.iter()).try_for_each(|page| page.generate_to(dir).map(|_| ())),
        None => {
            let mut out = std::io::stdout().lock();
            (pages.iter())
                .try_for_each(|page| page.render(&mut out))
                .and_then(|()| out.flush())
        }
    };
    match written {
        Ok(()) => ExitCode::Verdict,
        Err(e) => {
            let place = dir.map_or("stdout".to_owned(), |d| d.display().to_string());
            eprintln!("warden: {place}: cannot write the man pages: {e}");
            ExitCode::Input
        }
    }
}

/// The completion script of `shell` on stdout.
pub(super) fn completions(shell: Shell) -> ExitCode {
    let mut cmd = full_command();
    clap_complete::generate(shell, &mut cmd, "warden", &mut std::io::stdout());
    ExitCode::Verdict
}
