//! The corpus runner's report on the records of its campaigns: `warden batch`'s summary over
//! all the columns (with the virtual best of several warden columns as one more), then what
//! that summary leaves out: times and memory, the tasks one column solves and another does
//! not, disagreements, and the greedy report of several warden columns.

use std::path::Path;

use warden::cli::batch::record::Record;
use warden::cli::batch::report::Table;
use warden::cli::batch::tasks::Task;
use warden::cli::batch::tool::Check;
use warden::verdict::Verdict;

use super::greedy::Matrix;

/// The column of the virtual best of several warden columns.
const VIRTUAL_BEST: &str = "virtual-best";

/// The runs of every column on the tasks.
pub(super) struct Runs<'a> {
    tasks: &'a [Task],
    /// The warden columns, in order.
    warden: Vec<String>,
    /// Every column: the warden ones, the virtual best of them when there are several,
    /// then the other tools'.
    columns: Vec<String>,
    table: Table<'a>,
    timeout: u64,
}

impl<'a> Runs<'a> {
    /// The runs of `records` by the `warden` and `others` columns on `tasks`, with the
    /// virtual best of the warden columns when there are several.
    pub(super) fn new(
        tasks: &'a [Task],
        warden: Vec<String>,
        others: Vec<String>,
        mut records: Vec<Record>,
        timeout: u64,
    ) -> Runs<'a> {
        let mut columns = warden.clone();
        if warden.len() > 1 {
            let table = Table::new(tasks, warden.clone(), &records, timeout);
            let best: Vec<Record> = (tasks.iter())
                .filter_map(|t| virtual_best(warden.iter().filter_map(|c| table.get(t, c))))
                .collect();
            records.extend(best);
            columns.push(VIRTUAL_BEST.to_owned());
        }
        columns.extend(others);
        let table = Table::new(tasks, columns.clone(), &records, timeout);
        Runs {
            tasks,
            warden,
            columns,
            table,
            timeout,
        }
    }

    /// `N sat, M unsat, K unknown expected`.
    pub(super) fn expected_counts(&self) -> String {
        let count = |v: Verdict| self.tasks.iter().filter(|t| t.expected == v).count();
        format!(
            "{} sat, {} unsat, {} unknown expected (any verdict solves these)",
            count(Verdict::Sat),
            count(Verdict::Unsat),
            count(Verdict::Unknown)
        )
    }

    fn solved(&self, task: &'a Task, column: &str) -> Option<&Record> {
        (self.table.get(task, column)).filter(|r| r.result == "solved")
    }

    pub(super) fn print(&self) {
        print!("{}", self.table.summary());
        self.times();
        self.differences();
        self.disagreements();
        if self.warden.len() > 1 {
            self.matrix().print(self.timeout as f64);
        }
    }

    /// Per column: runs that hit the time limit or failed, the median time of the solved
    /// runs, the median and maximum peak RSS over all runs, and the answers whose check
    /// (warden's `sim` or `certify`) accepted or rejected them; then per warden column what
    /// each independent checker said.
    fn times(&self) {
        let w = self.table.name_width();
        println!(
            "\ntimes (s) and memory (MiB): timeout = no verdict at the limit, error = the \
             process failed; med t over solved runs, RSS over all runs\n\
             {:<w$} {:>7} {:>5} {:>8} {:>8} {:>8} {:>8} {:>8}",
            "tool", "timeout", "error", "med t", "RSS med", "RSS max", "accepted", "rejected"
        );
        for column in &self.columns {
            let runs: Vec<&Record> = (self.tasks.iter())
                .filter_map(|t| self.table.get(t, column))
                .collect();
            let unknown = runs.iter().filter(|r| r.result == "unknown");
            // Killed at T + 10 s, or gave up at its own limit T.
            let at_limit = |r: &&&Record| {
                r.note == "timeout" || (r.note.is_empty() && r.time >= self.timeout as f64)
            };
            let timeouts = unknown.clone().filter(at_limit).count();
            let errors = unknown
                .filter(|r| !at_limit(r) && !r.note.is_empty())
                .count();
            let times: Vec<f64> = (runs.iter())
                .filter(|r| r.result == "solved")
                .map(|r| r.time)
                .collect();
            let rss: Vec<f64> = runs.iter().map(|r| r.rss_mib).collect();
            let checked = |c: Check| runs.iter().filter(|r| r.check == c).count();
            let rss_max = rss.iter().copied().fold(f64::NAN, f64::max);
            println!(
                "{column:<w$} {timeouts:>7} {errors:>5} {:>8} {:>8} {:>8} {:>8} {:>8}",
                fmt_or_dash(median(&times), 2),
                fmt_or_dash(median(&rss), 1),
                fmt_or_dash(rss_max, 1),
                checked(Check::Accepted),
                checked(Check::Rejected)
            );
        }
        println!(
            "independent checks of warden's answers (a rejected answer is wrong; unchecked: \
             no answer from the checker):"
        );
        for column in &self.warden {
            println!("  {column:<w$} {}", self.table.checker_line(column));
        }
        println!();
    }

    /// The tasks solved by one column and not by another: each warden column against each
    /// other tool's, or against each other warden column when no other tool ran.
    fn differences(&self) {
        let others: Vec<&String> = (self.columns.iter())
            .filter(|c| !self.warden.contains(c) && *c != VIRTUAL_BEST)
            .collect();
        let mut pairs = Vec::new();
        for (i, a) in self.warden.iter().enumerate() {
            match others.is_empty() {
                true => pairs.extend(self.warden[i + 1..].iter().map(|b| (a, b))),
                false => pairs.extend(others.iter().map(|&b| (a, b))),
            }
        }
        for (a, b) in pairs {
            for (x, y) in [(a, b), (b, a)] {
                let names: Vec<&str> = (self.tasks.iter())
                    .filter(|&t| self.solved(t, x).is_some() && self.solved(t, y).is_none())
                    .map(|t| t.short_name())
                    .collect();
                println!("Solved by {x} but not {y} ({}):", names.len());
                for n in names {
                    println!("  {n}");
                }
            }
        }
    }

    /// The tasks on which columns gave contradicting verdicts.
    fn disagreements(&self) {
        for task in self.tasks {
            let given: Vec<(&str, Verdict)> = (self.columns.iter())
                .filter(|c| *c != VIRTUAL_BEST)
                .filter_map(|c| Some((c.as_str(), self.table.get(task, c)?.verdict)))
                .filter(|&(_, v)| v != Verdict::Unknown)
                .collect();
            if given.windows(2).any(|w| w[0].1 != w[1].1) {
                let cells: Vec<String> = (given.iter())
                    .map(|(c, v)| format!("{c}={}", v.as_str()))
                    .collect();
                println!(
                    "Columns disagree on {}: {}",
                    task.short_name(),
                    cells.join(" ")
                );
            }
        }
    }

    /// The warden columns' solved times per task, and each task's shortest run, for the
    /// greedy report.
    fn matrix(&self) -> Matrix {
        Matrix {
            columns: self.warden.clone(),
            tasks: (self.tasks.iter())
                .map(|t| (t.key.clone(), t.expected.as_str().to_owned()))
                .collect(),
            solved: (self.tasks.iter())
                .map(|t| {
                    (self.warden.iter())
                        .map(|c| self.solved(t, c).map(|r| r.time))
                        .collect()
                })
                .collect(),
            shortest: (self.tasks.iter())
                .map(|t| {
                    (self.warden.iter())
                        .filter_map(|c| self.table.get(t, c).map(|r| r.time))
                        .min_by(f64::total_cmp)
                        .unwrap_or(0.0)
                })
                .collect(),
        }
    }

    /// One row per task and column, as `warden batch`'s `results.csv`.
    pub(super) fn write_csv(&self, path: &Path) -> std::io::Result<()> {
        self.table.write_csv(path)
    }
}

/// The virtual best of a task's `runs` (by the warden columns): the fastest solved one,
/// else no verdict after as long as the slowest run took (a wrong answer of one column is
/// not the virtual best's); `None` without runs.
fn virtual_best<'r>(runs: impl Iterator<Item = &'r Record>) -> Option<Record> {
    let runs: Vec<&Record> = runs.collect();
    let fastest = (runs.iter())
        .filter(|r| r.result == "solved")
        .min_by(|a, b| a.time.total_cmp(&b.time));
    let best = match fastest {
        Some(&r) => r.clone(),
        None => Record {
            verdict: Verdict::Unknown,
            check: Check::None,
            result: "unknown",
            time: runs.iter().map(|r| r.time).fold(0.0, f64::max),
            note: String::new(),
            independent: None,
            ..(*runs.first()?).clone()
        },
    };
    Some(Record {
        tool: VIRTUAL_BEST.to_owned(),
        ..best
    })
}

fn median(v: &[f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// `x` with `digits` decimals, or `-` when it is NaN (e.g. the median of nothing).
fn fmt_or_dash(x: f64, digits: usize) -> String {
    if x.is_nan() {
        "-".to_owned()
    } else {
        format!("{x:.digits$}")
    }
}
