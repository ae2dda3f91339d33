//! A campaign: its tasks, tools and limits, saved as `OUT/campaign.json` at every start, so
//! that a SLURM array element (on another machine, with no task list of its own) and
//! `--status` read the very campaign that was started.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use serde_json::{json, Value};

use super::independent;
use super::record::{self, Record};
use super::report::Table;
use super::tasks::Task;
use super::tool::{self, Settings, Tool};
use crate::verdict::Verdict;

pub struct Campaign {
    /// The campaign's folder, absolute.
    pub out: PathBuf,
    pub tasks: Vec<Task>,
    /// The `--vs` values, as given (each node resolves them again: `abc` is found on its
    /// `PATH`).
    vs: Vec<String>,
    pub tools: Vec<Tool>,
    pub settings: Settings,
}

/// One run: (task index, tool index).
pub type RunId = (usize, usize);

const FILE: &str = "campaign.json";

impl Campaign {
    /// A campaign of `tasks` (their paths made absolute) with warden and the `vs` tools.
    pub fn new(
        out: &Path,
        mut tasks: Vec<Task>,
        vs: Vec<String>,
        settings: Settings,
    ) -> Result<Campaign, String> {
        let absolute =
            |p: &Path| std::path::absolute(p).map_err(|e| format!("{}: {e}", p.display()));
        for t in &mut tasks {
            t.path = absolute(&t.path)?;
        }
        let mut tools = vec![Tool::Warden];
        for v in &vs {
            tools.push(Tool::parse_vs(v)?);
        }
        Ok(Campaign {
            out: absolute(out)?,
            tasks,
            vs,
            tools,
            settings,
        })
    }

    /// Writes `OUT/campaign.json` (creating `OUT`).
    pub fn save(&self) -> Result<(), String> {
        let out = &self.out;
        std::fs::create_dir_all(out)
            .map_err(|e| format!("cannot create {}: {e}", out.display()))?;
        let s = &self.settings;
        let tasks: Vec<Value> = (self.tasks.iter())
            .map(|t| {
                json!({
                    "key": t.key, "design": t.design, "path": t.path, "format": t.format,
                    "expected": t.expected.as_str(), "options": t.options,
                })
            })
            .collect();
        let v = json!({
            "timeout": s.timeout, "mem_limit": s.mem_limit, "jobs": s.jobs,
            "warden_args": s.warden_args, "vs": self.vs, "tasks": tasks,
            "checkers": s.checkers,
        });
        let path = out.join(FILE);
        std::fs::write(&path, v.to_string())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// The campaign saved in `out`.
    pub fn load(out: &Path) -> Result<Campaign, String> {
        let path = out.join(FILE);
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("no campaign in {}: cannot read {FILE}: {e}", out.display()))?;
        let bad = || format!("{}: not a campaign file of this warden", path.display());
        let v: Value = serde_json::from_str(&text).map_err(|_| bad())?;
        let strings = |v: &Value| -> Option<Vec<String>> {
            (v.as_array()?.iter())
                .map(|s| s.as_str().map(str::to_owned))
                .collect()
        };
        let task = |t: &Value| -> Option<Task> {
            let s = |k: &str| t.get(k)?.as_str().map(str::to_owned);
            Some(Task {
                key: s("key")?,
                design: s("design")?,
                path: PathBuf::from(s("path")?),
                format: s("format")?,
                expected: Verdict::parse(&s("expected")?),
                options: strings(t.get("options")?)?,
            })
        };
        let tasks = (v["tasks"].as_array().ok_or_else(bad)?.iter())
            .map(task)
            .collect::<Option<Vec<Task>>>()
            .ok_or_else(bad)?;
        let settings = Settings {
            warden: std::env::current_exe().map_err(|e| format!("cannot find warden: {e}"))?,
            timeout: v["timeout"].as_u64().ok_or_else(bad)?,
            mem_limit: v["mem_limit"].as_u64(),
            jobs: v["jobs"].as_u64().map(|j| j as usize),
            warden_args: strings(&v["warden_args"]).ok_or_else(bad)?,
            // Checked again: on SLURM, the nodes must see the folder too.
            checkers: (v["checkers"].as_str())
                .map(|d| independent::checkers_at(Path::new(d)))
                .transpose()?,
        };
        let vs = strings(&v["vs"]).ok_or_else(bad)?;
        Campaign::new(out, tasks, vs, settings)
    }

    /// Every record in the campaign's folder.
    pub fn records(&self) -> Result<Vec<Record>, String> {
        record::read_all(&self.out)
    }

    /// The runs of this campaign, in task order, that have no record among `records`.
    pub fn todo(&self, records: &[Record]) -> Vec<RunId> {
        let done: HashSet<(&str, &str)> = (records.iter())
            .map(|r| (r.task.as_str(), r.tool.as_str()))
            .collect();
        (0..self.tasks.len())
            .flat_map(|t| (0..self.tools.len()).map(move |k| (t, k)))
            .filter(|&(t, k)| !done.contains(&(self.tasks[t].key.as_str(), self.tools[k].name())))
            .collect()
    }

    /// The summary table of this campaign's runs among `records`.
    pub fn table<'a>(&'a self, records: &[Record]) -> Table<'a> {
        let tools = self.tools.iter().map(|t| t.name().to_owned()).collect();
        Table::new(&self.tasks, tools, records, self.settings.timeout)
    }

    /// The number of runs: tasks times tools.
    pub fn runs(&self) -> usize {
        self.tasks.len() * self.tools.len()
    }

    /// Does `run` in the scratch folder `dir` (made here, removed after) and returns its
    /// record; `None` when `cancel` stopped it.
    pub fn run(&self, (t, k): RunId, dir: &Path, cancel: &AtomicBool) -> Option<Record> {
        let (task, tool) = (&self.tasks[t], &self.tools[k]);
        let run = match std::fs::create_dir_all(dir) {
            Ok(()) => tool::run(tool, task, &self.settings, dir, cancel),
            Err(e) => Some(tool::failed(format!(
                "cannot create {}: {e}",
                dir.display()
            ))),
        };
        let _ = std::fs::remove_dir_all(dir);
        Some(Record::of(task, tool.name(), &run?))
    }
}
