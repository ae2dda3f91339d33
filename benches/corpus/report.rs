//! The corpus runner's report: the tables of solved counts, PAR-2, times and memory per
//! tool (the virtual best of several warden columns among them), per family, the
//! independent checks' counts, and the CSV file.

use std::io::Write as _;
use std::path::Path;

use super::checkers::Check;
use super::{family, independent, judge, Judgement, Run, Runner, Task, Tool, Verdict};

#[derive(Default)]
struct Stats {
    tasks: usize,
    solved: usize,
    sat: usize,
    unsat: usize,
    wrong: usize,
    no_verdict: usize,
    timeouts: usize,
    errors: usize,
    par2: f64,
    solved_times: Vec<f64>,
    rss_mib: Vec<f64>,
}

impl Stats {
    fn add(&mut self, expected: Verdict, run: &Run, timeout: u64) {
        self.tasks += 1;
        self.rss_mib.push(run.rss_kib as f64 / 1024.0);
        match judge(expected, run) {
            Judgement::Solved => {
                self.solved += 1;
                match run.verdict {
                    Verdict::Sat => self.sat += 1,
                    _ => self.unsat += 1,
                }
                self.par2 += run.time;
                self.solved_times.push(run.time);
            }
            Judgement::Wrong => {
                self.wrong += 1;
                self.par2 += 2.0 * timeout as f64;
            }
            Judgement::NoVerdict => {
                self.no_verdict += 1;
                // Killed at T + 10 s, or gave up at its own limit T.
                let at_limit = run.note.is_empty() && run.time >= timeout as f64;
                if run.note == "timeout" || at_limit {
                    self.timeouts += 1;
                } else if !run.note.is_empty() {
                    self.errors += 1;
                }
                self.par2 += 2.0 * timeout as f64;
            }
        }
    }
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

fn print_table(title: &str, tools: &[Tool], stats: &[Stats]) {
    println!("{title}");
    println!(
        "  {:<16} {:>6} {:>5} {:>5} {:>5} {:>7} {:>7} {:>5} {:>10} {:>8} {:>8} {:>8} {:>8}",
        "tool",
        "solved",
        "sat",
        "unsat",
        "wrong",
        "unknown",
        "timeout",
        "error",
        "PAR-2 sum",
        "mean",
        "med t",
        "RSS med",
        "RSS max"
    );
    for (tool, s) in tools.iter().zip(stats) {
        let rss_max = s.rss_mib.iter().copied().fold(f64::NAN, f64::max);
        println!(
            "  {:<16} {:>6} {:>5} {:>5} {:>5} {:>7} {:>7} {:>5} {:>10.1} {:>8.2} {:>8} {:>8.1} {:>8.1}",
            tool.name(),
            s.solved,
            s.sat,
            s.unsat,
            s.wrong,
            s.no_verdict,
            s.timeouts,
            s.errors,
            s.par2,
            s.par2 / s.tasks.max(1) as f64,
            fmt_or_dash(median(&s.solved_times), 2),
            median(&s.rss_mib),
            rss_max
        );
    }
}

/// The tools and runs with a virtual-best column added when there are several warden
/// columns: per task, the fastest solved run among them (by [`judge`]), else the first
/// warden run without a verdict (a wrong answer of one column is not the virtual best's).
pub(super) fn with_virtual_best(
    tools: &[Tool],
    tasks: &[Task],
    mut results: Vec<Vec<Run>>,
) -> (Vec<Tool>, Vec<Vec<Run>>) {
    let warden: Vec<usize> = (0..tools.len()).filter(|&i| tools[i].is_warden()).collect();
    if warden.len() < 2 {
        return (tools.to_vec(), results);
    }
    for (task, runs) in tasks.iter().zip(&mut results) {
        let solved = (warden.iter().map(|&i| &runs[i]))
            .filter(|r| judge(task.expected, r) == Judgement::Solved)
            .min_by(|a, b| a.time.total_cmp(&b.time));
        // Unsolved: no verdict, as long as the slowest column took (a timeout if that did).
        let slowest = warden.iter().map(|&i| runs[i].time).fold(0.0, f64::max);
        let unsolved = Run {
            time: slowest,
            ..Run::failed(String::new())
        };
        let best = solved.cloned().unwrap_or(unsolved);
        runs.push(best);
    }
    let mut tools = tools.to_vec();
    tools.push(Tool::VirtualBest);
    (tools, results)
}

pub(super) fn summarize(runner: &Runner, tools: &[Tool], tasks: &[Task], results: &[Vec<Run>]) {
    let t = runner.args.timeout;
    let known = |task: &Task| task.expected != Verdict::Unknown;
    let count = |v: Verdict| tasks.iter().filter(|t| t.expected == v).count();
    println!(
        "\ncorpus {}: {} tasks ({} sat, {} unsat, {} unknown expected), timeout {t} s, \
         warden {}",
        runner.args.set.display(),
        tasks.len(),
        count(Verdict::Sat),
        count(Verdict::Unsat),
        count(Verdict::Unknown),
        match runner.args.configs.is_empty() {
            true => format!("--engine {}", runner.args.engines.join(",")),
            false => format!("--configs {}", runner.args.configs.join(",")),
        }
    );
    println!(
        "(times in s, RSS in MiB; PAR-2 = sum of times of solved tasks + 2*{t} per unsolved; \
         med t over solved; unknown = no verdict, of which timeout = at the limit, \
         error = process failed)\n"
    );
    for (title, want_known) in [
        ("Tasks with an expected verdict:", true),
        (
            "Tasks with an unknown expected verdict (any verdict counts as solved):",
            false,
        ),
    ] {
        if !tasks.iter().any(|task| known(task) == want_known) {
            continue;
        }
        let mut stats: Vec<Stats> = tools.iter().map(|_| Stats::default()).collect();
        for (task, runs) in tasks.iter().zip(results) {
            if known(task) == want_known {
                for (s, run) in stats.iter_mut().zip(runs) {
                    s.add(task.expected, run, t);
                }
            }
        }
        print_table(title, tools, &stats);
        println!();
    }
    println!("Independent checks of warden's answers:");
    for (i, tool) in tools.iter().enumerate().filter(|(_, t)| t.is_warden()) {
        let mut tally = independent::Tally::default();
        for run in results.iter().map(|runs| &runs[i]) {
            if let Some((checker, check)) = &run.independent {
                tally.add(checker, check);
            }
        }
        println!("  {:<16} {}", tool.name(), tally.line());
    }
    println!();
    let names: Vec<&str> = tasks.iter().map(|t| t.short_name()).collect();
    family::print_table(&names, tools, |task, tool| {
        judge(tasks[task].expected, &results[task][tool]) == Judgement::Solved
    });
    // Tasks solved by one tool and not by another: each warden engine against each ABC
    // command (against each other warden engine when ABC did not run).
    let any_abc = tools.iter().any(|t| matches!(t, Tool::Abc(_)));
    let pairs = (0..tools.len()).flat_map(|i| (i + 1..tools.len()).map(move |j| (i, j)));
    let compared =
        pairs.filter(|&(i, j)| tools[i].is_warden() && (tools[j].is_warden() != any_abc));
    for (i, j) in compared {
        for (a, b) in [(i, j), (j, i)] {
            let names: Vec<&str> = tasks
                .iter()
                .zip(results)
                .filter(|(task, runs)| {
                    judge(task.expected, &runs[a]) == Judgement::Solved
                        && judge(task.expected, &runs[b]) != Judgement::Solved
                })
                .map(|(task, _)| task.short_name())
                .collect();
            let (na, nb) = (tools[a].name(), tools[b].name());
            println!("Solved by {na} but not {nb} ({}):", names.len());
            for n in names {
                println!("  {n}");
            }
        }
    }
    // Tools contradicting each other where the expected verdict is unknown.
    for (task, runs) in tasks.iter().zip(results) {
        let given: Vec<Verdict> = runs
            .iter()
            .map(|r| r.verdict)
            .filter(|&v| v != Verdict::Unknown)
            .collect();
        if given.windows(2).any(|w| w[0] != w[1]) {
            let cells: Vec<String> = tools
                .iter()
                .zip(runs)
                .map(|(tool, r)| format!("{}={}", tool.name(), r.verdict.as_str()))
                .collect();
            println!(
                "Tools disagree on {}: {}",
                task.short_name(),
                cells.join(" ")
            );
        }
    }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

pub(super) fn write_csv(
    path: &Path,
    tools: &[Tool],
    tasks: &[Task],
    results: &[Vec<Run>],
) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    writeln!(
        out,
        "task,tool,expected,verdict,correct,time_s,rss_mib,witness_ok,checker,checker_ok"
    )?;
    for (task, runs) in tasks.iter().zip(results) {
        for (tool, run) in tools.iter().zip(runs) {
            let correct = match judge(task.expected, run) {
                Judgement::Solved => "true",
                Judgement::Wrong => "false",
                Judgement::NoVerdict => "",
            };
            let witness = run.witness_ok.map(|w| w.to_string()).unwrap_or_default();
            let (checker, checked) = match &run.independent {
                Some((t, Check::Accepted)) => (*t, "true"),
                Some((t, Check::Rejected(_))) => (*t, "false"),
                Some((t, Check::Failed(_))) => (*t, ""),
                None => ("", ""),
            };
            writeln!(
                out,
                "{},{},{},{},{correct},{:.3},{:.1},{witness},{checker},{checked}",
                csv_field(&task.key),
                tool.name(),
                task.expected.as_str(),
                run.verdict.as_str(),
                run.time,
                run.rss_kib as f64 / 1024.0
            )?;
        }
    }
    out.flush()
}
