//! The summary of a campaign (per tool, per family and, for split models, per design) and
//! its CSV file; also the corpus runner's (`benches/corpus.rs`), over the columns of several
//! campaigns.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use super::record::Record;
use super::tasks::{family, Task};
use super::tool::Check;
use crate::verdict::Verdict;

/// The runs of `tasks` by the columns `tools`, per task and tool (the last record of each
/// wins; records of other tasks or tools are left out).
pub struct Table<'a> {
    tasks: &'a [Task],
    tools: Vec<String>,
    runs: HashMap<(&'a str, String), Record>,
    timeout: u64,
}

/// An independent checker and how many answers it checked, accepted, rejected and left
/// unchecked.
pub type CheckerCount = (String, [usize; 4]);

#[derive(Default)]
struct Stats {
    solved: usize,
    sat: usize,
    unsat: usize,
    wrong: usize,
    unknown: usize,
    unchecked: usize,
    missing: usize,
    par2: f64,
}

impl<'a> Table<'a> {
    pub fn new(
        tasks: &'a [Task],
        tools: Vec<String>,
        records: &[Record],
        timeout: u64,
    ) -> Table<'a> {
        let keys: HashMap<&str, &'a str> = tasks
            .iter()
            .map(|t| (t.key.as_str(), t.key.as_str()))
            .collect();
        let mut runs = HashMap::new();
        for r in records {
            if let Some(&k) = keys.get(r.task.as_str()) {
                runs.insert((k, r.tool.clone()), r.clone());
            }
        }
        Table {
            tasks,
            tools,
            runs,
            timeout,
        }
    }

    /// The record of `tool` on `task`, if it has one.
    pub fn get(&self, task: &'a Task, tool: &str) -> Option<&Record> {
        self.runs.get(&(task.key.as_str(), tool.to_owned()))
    }

    /// The record of each run of this campaign's tasks and tools that has one.
    pub fn records(&self) -> impl Iterator<Item = &Record> {
        (self.runs.values()).filter(|r| self.tools.contains(&r.tool))
    }

    /// Runs of this campaign's tasks and tools with a record.
    pub fn recorded(&self) -> usize {
        self.records().count()
    }

    fn stats(&self, tool: &str, tasks: &[&'a Task]) -> Stats {
        let mut s = Stats::default();
        let t2 = 2.0 * self.timeout as f64;
        for &task in tasks {
            let Some(r) = self.get(task, tool) else {
                s.missing += 1;
                continue;
            };
            match r.result {
                "solved" => {
                    s.solved += 1;
                    match r.verdict {
                        Verdict::Sat => s.sat += 1,
                        _ => s.unsat += 1,
                    }
                    if r.check == Check::Unchecked {
                        s.unchecked += 1;
                    }
                    s.par2 += r.time;
                }
                "wrong" => {
                    s.wrong += 1;
                    s.par2 += t2;
                }
                _ => {
                    s.unknown += 1;
                    s.par2 += t2;
                }
            }
        }
        s
    }

    /// Solved, sat, unsat, wrong, unknown, unchecked, not run and PAR-2 per tool, then the
    /// solved counts per family.
    pub fn summary(&self) -> String {
        let all: Vec<&Task> = self.tasks.iter().collect();
        let mut out = format!(
            "{} tasks, timeout {} s (PAR-2: time of a solved task, else 2 x timeout; \
             unchecked: solved, but no checker answered)\n",
            all.len(),
            self.timeout
        );
        let w = self.name_width();
        let _ = writeln!(
            out,
            "{:<w$} {:>6} {:>5} {:>5} {:>5} {:>7} {:>9} {:>7} {:>10}",
            "tool", "solved", "sat", "unsat", "wrong", "unknown", "unchecked", "not run", "PAR-2"
        );
        for tool in &self.tools {
            let s = self.stats(tool, &all);
            let _ = writeln!(
                out,
                "{tool:<w$} {:>6} {:>5} {:>5} {:>5} {:>7} {:>9} {:>7} {:>10.1}",
                s.solved, s.sat, s.unsat, s.wrong, s.unknown, s.unchecked, s.missing, s.par2
            );
        }
        self.checkers(&mut out);
        let mut families: BTreeMap<&str, Vec<&Task>> = BTreeMap::new();
        for task in self.tasks {
            families
                .entry(family(task.short_name()))
                .or_default()
                .push(task);
        }
        self.grouped(
            &mut out,
            ("solved per family", "family", "tasks"),
            &families,
            |tool, members| self.stats(tool, members).solved.to_string(),
        );
        self.designs(&mut out);
        out
    }

    /// Per independent checker of `tool`'s runs (`--checkers`), in the order of the tasks:
    /// the checker and how many answers it checked, accepted, rejected and left unchecked.
    pub fn checker_counts(&self, tool: &str) -> Vec<CheckerCount> {
        let mut counts: Vec<CheckerCount> = Vec::new();
        let checks = (self.tasks.iter()).filter_map(|t| self.get(t, tool)?.independent.as_ref());
        for i in checks {
            let at = match counts.iter().position(|(c, _)| *c == i.checker) {
                Some(at) => at,
                None => {
                    counts.push((i.checker.clone(), [0; 4]));
                    counts.len() - 1
                }
            };
            let c = &mut counts[at].1;
            c[0] += 1;
            match i.result {
                Check::Accepted => c[1] += 1,
                Check::Rejected => c[2] += 1,
                _ => c[3] += 1,
            }
        }
        counts
    }

    /// `aigsim 12 checked: 12 accepted, 0 rejected, 0 unchecked; ...`, or `none`.
    pub fn checker_line(&self, tool: &str) -> String {
        let cells: Vec<String> = (self.checker_counts(tool).into_iter())
            .map(|(c, [n, ok, bad, no])| {
                format!("{c} {n} checked: {ok} accepted, {bad} rejected, {no} unchecked")
            })
            .collect();
        match cells.is_empty() {
            true => "none".to_owned(),
            false => cells.join("; "),
        }
    }

    /// The independent checkers' counts per tool, when any record has them.
    fn checkers(&self, out: &mut String) {
        let rows: Vec<(&String, Vec<CheckerCount>)> = (self.tools.iter())
            .map(|t| (t, self.checker_counts(t)))
            .collect();
        if rows.iter().all(|(_, c)| c.is_empty()) {
            return;
        }
        let w = self.name_width();
        let _ = writeln!(
            out,
            "\nindependent checkers (--checkers): a rejected answer is wrong; unchecked: no \
             answer from the checker, or none it can check\n{:<w$} {:<9} {:>7} {:>8} {:>8} {:>9}",
            "tool", "checker", "checked", "accepted", "rejected", "unchecked"
        );
        for (tool, counts) in rows {
            for (c, [n, ok, bad, no]) in counts {
                let _ = writeln!(out, "{tool:<w$} {c:<9} {n:>7} {ok:>8} {bad:>8} {no:>9}");
            }
        }
    }

    /// The width of the summary's tool column: the longest tool name, at least 12.
    pub fn name_width(&self) -> usize {
        self.widest_tool(12)
    }

    /// The length of the longest tool name, or `at_least`.
    fn widest_tool(&self, at_least: usize) -> usize {
        (self.tools.iter().map(String::len).max()).map_or(at_least, |w| w.max(at_least))
    }

    /// The designs split into properties (`--split-properties`), grouped back: per tool the
    /// design's verdict (`sat` when a property fails, `unsat` when every one holds, else
    /// `unknown`) and how many of its properties the tool solved.
    fn designs(&self, out: &mut String) {
        let mut designs: BTreeMap<&str, Vec<&Task>> = BTreeMap::new();
        for task in self.tasks.iter().filter(|t| t.key != t.design) {
            designs.entry(&task.design).or_default().push(task);
        }
        if designs.is_empty() {
            return;
        }
        self.grouped(
            out,
            ("per design", "design", "props"),
            &designs,
            |tool, members| {
                let verdicts: Vec<Verdict> = (members.iter())
                    .map(|&t| self.get(t, tool).map_or(Verdict::Unknown, |r| r.verdict))
                    .collect();
                let verdict = if verdicts.contains(&Verdict::Sat) {
                    Verdict::Sat
                } else if verdicts.iter().all(|&v| v == Verdict::Unsat) {
                    Verdict::Unsat
                } else {
                    Verdict::Unknown
                };
                let solved = self.stats(tool, members).solved;
                format!("{} {solved}/{}", verdict.as_str(), members.len())
            },
        );
    }

    /// A table of `groups` of tasks under `title`: the group's name (column `name`), its
    /// number of tasks (column `count`) and one `cell` per tool.
    fn grouped(
        &self,
        out: &mut String,
        (title, name, count): (&str, &str, &str),
        groups: &BTreeMap<&str, Vec<&'a Task>>,
        cell: impl Fn(&str, &[&'a Task]) -> String,
    ) {
        let width = groups.keys().map(|k| k.len()).max().unwrap_or(0).max(32);
        let _ = write!(out, "\n{title}\n{name:<width$} {count:>5}");
        let cw = self.widest_tool(10);
        for tool in &self.tools {
            let _ = write!(out, " {tool:>cw$}");
        }
        out.push('\n');
        for (group, members) in groups {
            let _ = write!(out, "{group:<width$} {:>5}", members.len());
            for tool in &self.tools {
                let _ = write!(out, " {:>cw$}", cell(tool, members));
            }
            out.push('\n');
        }
    }

    /// Writes `OUT/results.csv`.
    pub fn write_csv_in(&self, out: &Path) -> Result<(), String> {
        let csv = out.join("results.csv");
        (self.write_csv(&csv)).map_err(|e| format!("cannot write {}: {e}", csv.display()))
    }

    /// One row per task and tool: `task,family,tool,expected,verdict,result,check,time_s,
    /// rss_mib,note,checker,checker_result` (a run without a record has an empty verdict;
    /// `checker` is empty where no independent checker ran).
    pub fn write_csv(&self, path: &Path) -> std::io::Result<()> {
        let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
        writeln!(
            out,
            "task,family,tool,expected,verdict,result,check,time_s,rss_mib,note,checker,\
             checker_result"
        )?;
        for task in self.tasks {
            for tool in &self.tools {
                let fam = family(task.short_name());
                let (key, exp) = (csv_field(&task.key), task.expected.as_str());
                match self.get(task, tool) {
                    Some(r) => writeln!(
                        out,
                        "{key},{fam},{tool},{exp},{},{},{},{:.3},{:.1},{},{},{}",
                        r.verdict.as_str(),
                        r.result,
                        r.check.as_str(),
                        r.time,
                        r.rss_mib,
                        csv_field(&r.note),
                        (r.independent.as_ref()).map_or("", |i| i.checker.as_str()),
                        (r.independent.as_ref()).map_or("", |i| i.result.as_str()),
                    )?,
                    None => writeln!(out, "{key},{fam},{tool},{exp},,,,,,,,")?,
                }
            }
        }
        out.flush()
    }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}
