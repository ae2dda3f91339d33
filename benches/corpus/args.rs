//! The corpus runner's command line.

use std::path::PathBuf;

pub(super) const USAGE: &str = "\
usage: cargo bench --bench corpus -- --set LIST.tsv [options]
  --set FILE         task list (TSV with columns path, expected[, format, ...])
  --timeout T        seconds per run (default 20); processes are killed at T + 10
  --engine E[,E..]   warden engine(s), each a column (default portfolio, what a user runs)
  --configs C[,C..]  named configurations (`warden configs`), each a column run alone with its
                     options, instead of --engine; with several, the greedy report (below)
  --matrix F[,F..]   run nothing: the greedy report of the --csv files of earlier runs (the
                     parts of a configuration matrix): each configuration's solved tasks, the
                     virtual best of the default's members, the sets that add most, greedily,
                     the default as --jobs 1..32 picks it (virtual best, and estimated with
                     its members taking turns), and the per-task times (--timeout: the
                     runs' timeout, for PAR-2)
  --vs abc           also run ABC (berkeley-abc), in the first column's campaign
  --abc-cmd C        bmc3 | pdr | both (default: bmc3 for --engine bmc, else pdr)
  --jobs J           runs at once (`warden batch --parallel`; default 1)
  --limit N          only the first N tasks (after --filter)
  --filter S         only tasks whose path contains S
  --csv FILE         one row per task and column (the format of `warden batch`'s results.csv)
  --out DIR          keep each column's campaign in DIR/COLUMN (results.jsonl), and resume
                     those there: a run recorded there is not run again (default: a fresh
                     folder, removed at the end)
  --warden-bin P     the warden binary whose `batch` runs everything (default: the one cargo
                     built)
  --warden-args A    extra flags for `warden check`, split at white space
                     (e.g. '--domain pred-cart --refinement seq-itp')
  --tools DIR        the independent checkers (aigsim, btorsim, certcheck, aigtoaig), passed
                     as `warden batch --checkers DIR` (default: $WARDEN_CHECKERS, else
                     target/checkers, built there by ../shared/tools/build.sh when missing;
                     the runner fails without them)
  --no-check         no independent checks (warden's own sim and certify still check every
                     answer)";

pub(super) struct Args {
    pub(super) set: PathBuf,
    pub(super) timeout: u64,
    /// warden engines, each a column of its own (`--engine a,b`).
    pub(super) engines: Vec<String>,
    /// Named configurations, each a column of its own (`--configs a,b`).
    pub(super) configs: Vec<String>,
    /// CSV files whose runs are reported together, nothing run (`--matrix`).
    pub(super) matrix: Vec<PathBuf>,
    pub(super) vs_abc: bool,
    pub(super) abc_cmd: Option<String>,
    pub(super) jobs: usize,
    pub(super) limit: Option<usize>,
    pub(super) filter: Option<String>,
    pub(super) csv: Option<PathBuf>,
    pub(super) out: Option<PathBuf>,
    pub(super) warden_bin: PathBuf,
    /// Extra flags for `warden check` (e.g. the CEGAR axes), as given.
    pub(super) warden_args: String,
    /// The independent checkers' folder (`--tools`).
    pub(super) tools: Option<PathBuf>,
    /// No independent checks (`--no-check`).
    pub(super) no_check: bool,
}

/// `Ok(None)`: neither `--set` nor `--matrix` (plain `cargo bench`), or `--help`.
pub(super) fn parse_args(argv: &[String]) -> Result<Option<Args>, String> {
    let mut set = None;
    let mut args = Args {
        set: PathBuf::new(),
        timeout: 20,
        engines: vec!["portfolio".to_owned()],
        configs: Vec::new(),
        matrix: Vec::new(),
        vs_abc: false,
        abc_cmd: None,
        jobs: 1,
        limit: None,
        filter: None,
        csv: None,
        out: None,
        warden_bin: PathBuf::from(env!("CARGO_BIN_EXE_warden")),
        warden_args: String::new(),
        tools: None,
        no_check: false,
    };
    let mut it = argv.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_owned())),
            _ => (arg.as_str(), None),
        };
        let takes_value = matches!(
            flag,
            "--set"
                | "--timeout"
                | "--engine"
                | "--configs"
                | "--matrix"
                | "--vs"
                | "--abc-cmd"
                | "--jobs"
                | "--limit"
                | "--filter"
                | "--csv"
                | "--out"
                | "--warden-bin"
                | "--warden-args"
                | "--tools"
        );
        if !takes_value {
            match flag {
                "--help" | "-h" => return Ok(None),
                "--bench" => {} // passed by cargo
                "--no-check" => args.no_check = true,
                _ => eprintln!("corpus: ignoring argument {arg}"),
            }
            continue;
        }
        let value = match inline.or_else(|| it.next().cloned()) {
            Some(v) => v,
            None => return Err(format!("{flag} needs a value")),
        };
        let number = |v: &str| {
            v.parse::<usize>()
                .map_err(|_| format!("{flag}: not a number: {v}"))
        };
        match flag {
            "--set" => set = Some(PathBuf::from(value)),
            "--timeout" => args.timeout = number(&value)?.max(1) as u64,
            "--engine" if value == "none" => {
                return Err(
                    "--engine none: each column is a `warden batch` campaign, which \
                            always runs warden (ABC beside it with --vs abc)"
                        .to_owned(),
                );
            }
            "--engine" => args.engines = value.split(',').map(str::to_owned).collect(),
            "--configs" => args.configs = value.split(',').map(str::to_owned).collect(),
            "--matrix" => args.matrix = value.split(',').map(PathBuf::from).collect(),
            "--vs" if value == "abc" => args.vs_abc = true,
            "--vs" => return Err(format!("--vs: only `abc` is known, not {value}")),
            "--abc-cmd" if ["bmc3", "pdr", "both"].contains(&value.as_str()) => {
                args.abc_cmd = Some(value)
            }
            "--abc-cmd" => return Err(format!("--abc-cmd: bmc3, pdr or both, not {value}")),
            "--jobs" => args.jobs = number(&value)?.max(1),
            "--limit" => args.limit = Some(number(&value)?),
            "--filter" => args.filter = Some(value),
            "--csv" => args.csv = Some(PathBuf::from(value)),
            "--out" => args.out = Some(PathBuf::from(value)),
            "--warden-bin" => args.warden_bin = PathBuf::from(value),
            "--warden-args" => args.warden_args = value,
            "--tools" => args.tools = Some(PathBuf::from(value)),
            _ => unreachable!("{flag}"),
        }
    }
    match set {
        Some(set) => Ok(Some(Args { set, ..args })),
        None if !args.matrix.is_empty() => Ok(Some(args)),
        None => Ok(None),
    }
}
