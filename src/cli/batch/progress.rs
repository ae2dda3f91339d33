//! The progress of a running campaign on stderr.

use std::io::{IsTerminal as _, Write as _};
use std::time::Instant;

use super::record::Record;

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
        let line = r.line();
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
