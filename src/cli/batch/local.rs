//! A campaign run on this machine: `--parallel` runs at once, each record appended to
//! `OUT/results.jsonl` as it ends, a progress line, then the summary and `results.csv`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use super::campaign::Campaign;
use super::progress::Progress;
use super::record::{self, RESULTS};
use super::{catch_signals, INTERRUPTED};
use crate::error::ExitCode;

pub fn run(c: &Campaign, parallel: Option<usize>) -> Result<ExitCode, String> {
    c.save()?;
    let recorded = c.records()?;
    let todo = c.todo(&recorded);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let parallel = parallel
        .unwrap_or(cores / c.settings.jobs.unwrap_or(1).max(1))
        .max(1);
    let results = c.out.join(RESULTS);
    let runs = c.runs();
    eprintln!(
        "warden batch: {} tasks x {} tools, {} runs recorded in {}, {} to run, {parallel} at once",
        c.tasks.len(),
        c.tools.len(),
        runs - todo.len(),
        c.out.display(),
        todo.len()
    );
    catch_signals();
    let sink = record::open_for_append(&results)?;
    let mut progress = Progress::new(runs);
    // The runs of this campaign recorded before: counted once each (the last record wins).
    let before = c.table(&recorded);
    before.records().for_each(|r| progress.count(r));
    progress.start();
    let progress = Mutex::new(progress);
    let sink = Mutex::new(sink);
    let next = AtomicUsize::new(0);
    let scratch = c.out.join("running");
    std::thread::scope(|s| {
        for _ in 0..parallel.min(todo.len()) {
            s.spawn(|| loop {
                if INTERRUPTED.load(Ordering::Relaxed) {
                    break;
                }
                let Some(&run) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else {
                    break;
                };
                let dir = scratch.join(format!("{}-{}", run.0, c.tools[run.1].name()));
                let Some(record) = c.run(run, &dir, &INTERRUPTED) else {
                    break;
                };
                if let Err(e) = record::append(&sink.lock().unwrap(), &record) {
                    eprintln!("warden batch: cannot write {}: {e}", results.display());
                    INTERRUPTED.store(true, Ordering::Relaxed);
                }
                progress.lock().unwrap().finished(&record);
            });
        }
    });
    let _ = std::fs::remove_dir(&scratch);
    progress.lock().unwrap().clear();

    let records = c.records()?;
    let table = c.table(&records);
    table.write_csv_in(&c.out)?;
    print!("{}", table.summary());
    if INTERRUPTED.load(Ordering::Relaxed) {
        eprintln!(
            "warden batch: interrupted with {} of {runs} runs recorded; the same command \
             resumes the campaign",
            table.recorded()
        );
        return Ok(ExitCode::Internal);
    }
    Ok(ExitCode::Verdict)
}
