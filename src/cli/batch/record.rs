//! The records of a campaign: one JSON line per finished run, appended to `OUT/results.jsonl`
//! by a local campaign and to one file per SLURM array element under `OUT/records/`.

use std::fs::File;
use std::io::Write as _;
use std::path::Path;

use serde_json::{json, Value};

use super::independent::Independent;
use super::tasks::{family, Task};
use super::tool::{Check, Run};
use crate::verdict::Verdict;

/// One finished run: one line of `results.jsonl`.
#[derive(Clone, Debug)]
pub struct Record {
    pub task: String,
    /// The family of the task's design ([`family`]).
    pub family: String,
    pub tool: String,
    pub expected: Verdict,
    pub verdict: Verdict,
    pub check: Check,
    /// `solved`, `wrong` or `unknown` ([`Record::judge`]).
    pub result: &'static str,
    pub time: f64,
    pub rss_mib: f64,
    pub note: String,
    /// What the independent checker said (`--checkers`): the fields `checker`,
    /// `checker_result` and `checker_note`, absent when none ran (and in the records of
    /// campaigns before the option).
    pub independent: Option<Independent>,
}

impl Record {
    pub fn of(task: &Task, tool: &str, run: &Run) -> Record {
        let mut r = Record {
            task: task.key.clone(),
            family: family(task.short_name()).to_owned(),
            tool: tool.to_owned(),
            expected: task.expected,
            verdict: run.verdict,
            check: run.check,
            result: "",
            time: run.time,
            rss_mib: run.rss_mib,
            note: run.note.clone(),
            independent: run.independent.clone(),
        };
        r.result = r.judge();
        r
    }

    /// `wrong`: a witness or certificate rejected by warden's check or the independent
    /// checker, or a verdict other than the expected one; `solved`: any other verdict (on a
    /// task without an expected verdict, any verdict whose checks did not reject it);
    /// `unknown`: no verdict.
    fn judge(&self) -> &'static str {
        let rejected = |c: Check| c == Check::Rejected;
        let by_checker = (self.independent.as_ref()).is_some_and(|i| rejected(i.result));
        match (
            rejected(self.check) || by_checker,
            self.expected,
            self.verdict,
        ) {
            (true, _, _) => "wrong",
            (_, _, Verdict::Unknown) => "unknown",
            (_, Verdict::Unknown, _) => "solved",
            (_, e, v) if e == v => "solved",
            _ => "wrong",
        }
    }

    /// The run in one line for people: tool, task, verdict, time, result and the note.
    pub fn line(&self) -> String {
        let note = match self.note.as_str() {
            "" => String::new(),
            n => format!(" ({n})"),
        };
        let verdict = self.verdict.as_str();
        let (tool, task, time, result) = (&self.tool, &self.task, self.time, self.result);
        format!("{tool} {task} {verdict} {time:.1}s {result}{note}")
    }

    fn to_json(&self) -> String {
        let mut v = json!({
            "task": self.task,
            "family": self.family,
            "tool": self.tool,
            "expected": self.expected.as_str(),
            "verdict": self.verdict.as_str(),
            "result": self.result,
            "check": self.check.as_str(),
            "time_s": (self.time * 1000.0).round() / 1000.0,
            "rss_mib": (self.rss_mib * 10.0).round() / 10.0,
            "note": self.note,
        });
        if let Some(i) = &self.independent {
            v["checker"] = json!(i.checker);
            v["checker_result"] = json!(i.result.as_str());
            v["checker_note"] = json!(i.note);
        }
        v.to_string()
    }

    fn from_json(v: &Value) -> Option<Record> {
        let s = |k: &str| v.get(k).and_then(Value::as_str);
        let mut r = Record {
            task: s("task")?.to_owned(),
            family: s("family").unwrap_or("").to_owned(),
            tool: s("tool")?.to_owned(),
            expected: Verdict::parse(s("expected")?),
            verdict: Verdict::parse(s("verdict")?),
            check: Check::parse(s("check")?),
            result: "",
            time: v.get("time_s")?.as_f64()?,
            rss_mib: v.get("rss_mib")?.as_f64()?,
            note: s("note").unwrap_or("").to_owned(),
            independent: s("checker").map(|checker| Independent {
                checker: checker.to_owned(),
                result: Check::parse(s("checker_result").unwrap_or("")),
                note: s("checker_note").unwrap_or("").to_owned(),
            }),
        };
        r.result = r.judge();
        Some(r)
    }
}

/// The file a local campaign appends its records to.
pub const RESULTS: &str = "results.jsonl";
/// The folder of the record files of SLURM array elements (one file per element).
pub const ELEMENT_RECORDS: &str = "records";

/// The records of the campaign in `out`: `results.jsonl`, then every file of `records/`.
pub fn read_all(out: &Path) -> Result<Vec<Record>, String> {
    let mut records = read_records(&out.join(RESULTS))?;
    let mut files: Vec<_> = match std::fs::read_dir(out.join(ELEMENT_RECORDS)) {
        Ok(dir) => dir.filter_map(|e| Some(e.ok()?.path())).collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    for f in files {
        records.extend(read_records(&f)?);
    }
    Ok(records)
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

/// Opens `path` for appending records, first ending a last line cut off by a kill (which
/// would swallow the next record).
pub fn open_for_append(path: &Path) -> Result<File, String> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let cut_off = std::fs::read(path).is_ok_and(|t| t.last().is_some_and(|&b| b != b'\n'));
    if cut_off {
        (&file)
            .write_all(b"\n")
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(file)
}

/// Appends `record` as one line in one write on a file opened for appending: a record is
/// whole or, when the process is killed mid-write, an unreadable last line that the next
/// start ignores (and reruns).
pub fn append(mut file: &File, record: &Record) -> std::io::Result<()> {
    file.write_all(format!("{}\n", record.to_json()).as_bytes())
}
