//! The records of a campaign (`results.jsonl`), its progress line, and its summary and CSV.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::io::{IsTerminal as _, Write as _};
use std::path::Path;
use std::time::Instant;

use serde_json::{json, Value};

use super::tasks::{family, Task};
use super::tool::{Check, Run, Tool};
use crate::verdict::Verdict;

/// One finished run: one line of `results.jsonl`.
#[derive(Clone, Debug)]
pub struct Record {
    pub task: String,
    pub tool: String,
    pub expected: Verdict,
    pub verdict: Verdict,
    pub check: Check,
    /// `solved`, `wrong` or `unknown` ([`Record::judge`]).
    pub result: &'static str,
    pub time: f64,
    pub rss_mib: f64,
    pub note: String,
}

impl Record {
    pub fn of(task: &Task, tool: &str, run: &Run) -> Record {
        let mut r = Record {
            task: task.key.clone(),
            tool: tool.to_owned(),
            expected: task.expected,
            verdict: run.verdict,
            check: run.check,
            result: "",
            time: run.time,
            rss_mib: run.rss_mib,
            note: run.note.clone(),
        };
        r.result = r.judge();
        r
    }

    /// `wrong`: a rejected witness or certificate, or a verdict other than the expected
    /// one; `solved`: any other verdict (on a task without an expected verdict, any
    /// verdict whose check did not reject it); `unknown`: no verdict.
    fn judge(&self) -> &'static str {
        match (self.check, self.expected, self.verdict) {
            (Check::Rejected, _, _) => "wrong",
            (_, _, Verdict::Unknown) => "unknown",
            (_, Verdict::Unknown, _) => "solved",
            (_, e, v) if e == v => "solved",
            _ => "wrong",
        }
    }

    pub fn to_json(&self) -> String {
        json!({
            "task": self.task,
            "family": family(self.task.rsplit('/').next().unwrap_or(&self.task)),
            "tool": self.tool,
            "expected": self.expected.as_str(),
            "verdict": self.verdict.as_str(),
            "result": self.result,
            "check": self.check.as_str(),
            "time_s": (self.time * 1000.0).round() / 1000.0,
            "rss_mib": (self.rss_mib * 10.0).round() / 10.0,
            "note": self.note,
        })
        .to_string()
    }

    fn from_json(v: &Value) -> Option<Record> {
        let s = |k: &str| v.get(k).and_then(Value::as_str);
        let mut r = Record {
            task: s("task")?.to_owned(),
            tool: s("tool")?.to_owned(),
            expected: Verdict::parse(s("expected")?),
            verdict: Verdict::parse(s("verdict")?),
            check: Check::parse(s("check")?),
            result: "",
            time: v.get("time_s")?.as_f64()?,
            rss_mib: v.get("rss_mib")?.as_f64()?,
            note: s("note").unwrap_or("").to_owned(),
        };
        r.result = r.judge();
        Some(r)
    }
}

/// The records of `path` (none when it does not exist yet). A line that is not a whole
/// record (the campaign was killed while writing it) is skipped: its run is done again.
pub fn read_records(path: &Path) -> Result<Vec<Record>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    Ok(text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| Record::from_json(&v))
        .collect())
}

/// The progress of the running campaign on stderr: on a terminal one line redrawn in place
/// (a bar, done/total, solved, wrong, ETA), else one line per finished run.
pub struct Progress {
    total: usize,
    done: usize,
    /// Runs recorded before this start: not counted in the rate of the ETA.
    before: usize,
    solved: usize,
    wrong: usize,
    start: Instant,
    terminal: bool,
}

impl Progress {
    pub fn new(total: usize) -> Progress {
        Progress {
            total,
            done: 0,
            before: 0,
            solved: 0,
            wrong: 0,
            start: Instant::now(),
            terminal: std::io::stderr().is_terminal(),
        }
    }

    /// Counts a finished run without showing it (the records of an earlier start).
    pub fn count(&mut self, r: &Record) {
        self.done += 1;
        match r.result {
            "solved" => self.solved += 1,
            "wrong" => self.wrong += 1,
            _ => {}
        }
    }

    /// Starts the clock of the ETA after the earlier records, and draws the line.
    pub fn start(&mut self) {
        self.before = self.done;
        self.start = Instant::now();
        self.draw();
    }

    pub fn finished(&mut self, r: &Record) {
        self.count(r);
        let mut line = format!(
            "{} {} {} {:.1}s {}",
            r.tool,
            r.task,
            r.verdict.as_str(),
            r.time,
            r.result
        );
        if !r.note.is_empty() {
            let _ = write!(line, " ({})", r.note);
        }
        if !self.terminal {
            eprintln!("[{}/{}] {line}", self.done, self.total);
        } else if r.result == "wrong" || !r.note.is_empty() {
            // Wrong answers and errors stay on the screen above the progress line.
            eprintln!("\r\x1b[K{line}");
        }
        self.draw();
    }

    fn draw(&self) {
        if !self.terminal {
            return;
        }
        let width = 30;
        let filled = (self.done * width).checked_div(self.total).unwrap_or(width);
        let ran = self.done - self.before;
        let eta = match ran {
            0 => "-".to_owned(),
            _ => {
                let per = self.start.elapsed().as_secs_f64() / ran as f64;
                let s = (per * (self.total - self.done) as f64) as u64;
                format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
            }
        };
        eprint!(
            "\r\x1b[K[{}{}] {}/{} solved {} wrong {} ETA {eta}",
            "#".repeat(filled),
            ".".repeat(width - filled),
            self.done,
            self.total,
            self.solved,
            self.wrong
        );
        let _ = std::io::stderr().flush();
    }

    /// Ends the progress line (on a terminal) before the summary.
    pub fn clear(&self) {
        if self.terminal {
            eprintln!();
        }
    }
}

/// The campaign's runs, per task and tool (the last record of each wins).
pub struct Table<'a> {
    tasks: &'a [Task],
    tools: Vec<String>,
    runs: HashMap<(&'a str, String), Record>,
    timeout: u64,
}

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
    pub fn new(tasks: &'a [Task], tools: &[Tool], records: &[Record], timeout: u64) -> Table<'a> {
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
            tools: tools.iter().map(|t| t.name().to_owned()).collect(),
            runs,
            timeout,
        }
    }

    fn get(&self, task: &'a Task, tool: &str) -> Option<&Record> {
        self.runs.get(&(task.key.as_str(), tool.to_owned()))
    }

    /// Runs of this campaign's tasks and tools with a record.
    pub fn recorded(&self) -> usize {
        self.runs
            .values()
            .filter(|r| self.tools.contains(&r.tool))
            .count()
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
        let _ = writeln!(
            out,
            "{:<12} {:>6} {:>5} {:>5} {:>5} {:>7} {:>9} {:>7} {:>10}",
            "tool", "solved", "sat", "unsat", "wrong", "unknown", "unchecked", "not run", "PAR-2"
        );
        for tool in &self.tools {
            let s = self.stats(tool, &all);
            let _ = writeln!(
                out,
                "{tool:<12} {:>6} {:>5} {:>5} {:>5} {:>7} {:>9} {:>7} {:>10.1}",
                s.solved, s.sat, s.unsat, s.wrong, s.unknown, s.unchecked, s.missing, s.par2
            );
        }
        let mut families: BTreeMap<&str, Vec<&Task>> = BTreeMap::new();
        for task in self.tasks {
            families
                .entry(family(task.short_name()))
                .or_default()
                .push(task);
        }
        let _ = write!(out, "\nsolved per family\n{:<32} {:>5}", "family", "tasks");
        for tool in &self.tools {
            let _ = write!(out, " {tool:>10}");
        }
        out.push('\n');
        for (name, members) in &families {
            let _ = write!(out, "{name:<32} {:>5}", members.len());
            for tool in &self.tools {
                let _ = write!(out, " {:>10}", self.stats(tool, members).solved);
            }
            out.push('\n');
        }
        out
    }

    /// One row per task and tool: `task,family,tool,expected,verdict,result,check,time_s,
    /// rss_mib,note` (a run without a record has an empty verdict).
    pub fn write_csv(&self, path: &Path) -> std::io::Result<()> {
        let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
        writeln!(
            out,
            "task,family,tool,expected,verdict,result,check,time_s,rss_mib,note"
        )?;
        for task in self.tasks {
            for tool in &self.tools {
                let fam = family(task.short_name());
                let (key, exp) = (csv_field(&task.key), task.expected.as_str());
                match self.get(task, tool) {
                    Some(r) => writeln!(
                        out,
                        "{key},{fam},{tool},{exp},{},{},{},{:.3},{:.1},{}",
                        r.verdict.as_str(),
                        r.result,
                        r.check.as_str(),
                        r.time,
                        r.rss_mib,
                        csv_field(&r.note)
                    )?,
                    None => writeln!(out, "{key},{fam},{tool},{exp},,,,,,")?,
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
