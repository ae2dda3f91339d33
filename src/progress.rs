//! Progress of a long run on stderr: what each engine has reached (BMC's depth, IC3's frame
//! and lemmas, k-induction's k, localization's refinements), so that a user watching a long
//! proof can tell a run that advances from one that is stuck.
//!
//! The engines write into a [`Board`] that the run's [`crate::Budget`] carries, each into the
//! slot of its own run ([`Progress::open`]): one relaxed atomic store per depth, frame or
//! lemma, and nothing at all when no board was made (`-q`, or stderr not a terminal without
//! `-v`). One reporter thread ([`show`]) reads the board: on a terminal it redraws one status
//! line in place every quarter second after the first 2 s, without `-v` too; when stderr is
//! not a terminal, with `-v`, it prints a plain `warden: progress ...` line every 5 s, which
//! logs keep.
//!
//! stdout is never written here (the verdict and the witness go there, and tools parse it).
//! Every other stderr line printed while the status line may be shown goes through [`hold`],
//! which erases the status line first, so that no line is printed into it; the verdict
//! ([`close`]) erases it for good.
//!
//! Layer: plumbing, the very bottom: it imports nothing of the crate, so that any module may report
//! progress.

use std::fmt::Write as _;
use std::io::{IsTerminal, Write as _};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};
use std::thread::{self, Thread};
use std::time::{Duration, Instant};

/// What an engine reports.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Measure {
    /// The frame BMC is checking.
    Depth,
    /// IC3's frontier N (the frame being strengthened).
    Frame,
    /// Lemmas IC3 has learnt.
    Lemmas,
    /// The k of k-induction's step case.
    K,
    /// Refinements of an abstraction (localization).
    Refinements,
}

/// The measures in the order the status line names them: an outer loop's before an inner
/// one's (k-liveness's k, then the frame of its IC3 run for that k).
const MEASURES: [Measure; 5] = [
    Measure::Depth,
    Measure::K,
    Measure::Refinements,
    Measure::Frame,
    Measure::Lemmas,
];

/// A value not reported yet.
const UNSET: u64 = u64::MAX;

impl Measure {
    /// `value` as the status line says it.
    fn describe(self, value: u64, out: &mut String) {
        let _ = match self {
            Measure::Depth => write!(out, " depth {value}"),
            Measure::Frame => write!(out, " frame {value}"),
            Measure::Lemmas => write!(out, " lemmas {value}"),
            Measure::K => write!(out, " k={value}"),
            Measure::Refinements => write!(out, " refinements {value}"),
        };
    }
}

/// How the run shows its progress.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A status line redrawn in place (stderr is a terminal).
    Terminal,
    /// A plain line every 5 s (stderr is a file or a pipe, and `-v` was given).
    Plain,
}

impl Mode {
    /// The mode for a run with `-q` (`quiet`) and `-v` counted `verbose`; `None`: nothing is
    /// shown (quiet, or a pipe without `-v`, whose reader asked for the answer only).
    pub fn choose(quiet: bool, verbose: u8) -> Option<Mode> {
        match (quiet, std::io::stderr().is_terminal(), verbose) {
            (true, _, _) => None,
            (false, true, _) => Some(Mode::Terminal),
            (false, false, 0) => None,
            (false, false, _) => Some(Mode::Plain),
        }
    }
}

impl Mode {
    /// When the first line is shown: on a terminal after 2 s (a run that ends sooner shows
    /// none), on a pipe after one period.
    fn first(self) -> Duration {
        match self {
            Mode::Terminal => Duration::from_secs(2),
            Mode::Plain => self.every(),
        }
    }

    /// How often the line is shown again: the terminal's redrawn a few times a second, a
    /// plain line every 5 s (a log a user can read while it grows).
    fn every(self) -> Duration {
        match self {
            Mode::Terminal => Duration::from_millis(250),
            Mode::Plain => Duration::from_secs(5),
        }
    }
}

/// What one engine run has reached.
#[derive(Debug)]
struct Slot {
    name: &'static str,
    values: [AtomicU64; MEASURES.len()],
    /// The engine run ended ([`Running`] was dropped): the board forgets it.
    done: AtomicBool,
}

/// The progress of one `check` run: its start, its engine runs, and for a batch of
/// properties how many there are and how many are settled.
#[derive(Debug)]
pub struct Board {
    mode: Mode,
    start: Instant,
    /// Engine runs in the order they started; a lock taken when one starts and when the
    /// reporter reads, never by an engine's loop.
    slots: Mutex<Vec<Arc<Slot>>>,
    properties: AtomicUsize,
    settled: AtomicUsize,
    /// When the next line is due, in ms since the start.
    due: AtomicU64,
}

/// An engine's handle on the run's board (none: nothing is shown, every call is a no-op),
/// carried by [`crate::Budget`] so that every engine has it where it has its budget.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    board: Option<Arc<Board>>,
    /// The engine run this handle writes into (none: the run's own handle, before any
    /// engine).
    slot: Option<Arc<Slot>>,
}

impl Progress {
    /// A new board shown in `mode` (`None`: no board, nothing is shown).
    pub fn new(mode: Option<Mode>) -> Progress {
        Progress {
            board: mode.map(|mode| {
                Arc::new(Board {
                    mode,
                    start: Instant::now(),
                    slots: Mutex::new(Vec::new()),
                    properties: AtomicUsize::new(0),
                    settled: AtomicUsize::new(0),
                    due: AtomicU64::new(millis(mode.first())),
                })
            }),
            slot: None,
        }
    }

    /// Records that this engine run reached `value` of `measure`: one relaxed store, cheap
    /// enough for every lemma.
    #[inline]
    pub fn set(&self, measure: Measure, value: usize) {
        if let Some(slot) = &self.slot {
            slot.values[measure as usize].store(value as u64, Ordering::Relaxed);
        }
    }

    /// A slot for an engine run named `name` (shown on the status line until the returned
    /// [`Running`] is dropped); its handle is [`Running::progress`].
    pub fn open(&self, name: &'static str) -> Running {
        let Some(board) = &self.board else {
            return Running(Progress::default());
        };
        let slot = Arc::new(Slot {
            name,
            values: std::array::from_fn(|_| AtomicU64::new(UNSET)),
            done: AtomicBool::new(false),
        });
        let mut slots = board.slots.lock().unwrap_or_else(|e| e.into_inner());
        slots.retain(|s| !s.done.load(Ordering::Relaxed));
        slots.push(slot.clone());
        Running(Progress {
            board: Some(board.clone()),
            slot: Some(slot),
        })
    }

    /// Starts a batch of `total` properties checked one by one (`--all-properties`): the
    /// status line says how many are settled.
    pub fn batch(&self, total: usize) {
        if let Some(board) = &self.board {
            board.properties.store(total, Ordering::Relaxed);
        }
    }

    /// One more property of the batch is settled (failed or proved).
    pub fn settle(&self) {
        if let Some(board) = &self.board {
            board.settled.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The status after `elapsed`: `12.0s: settled 3/7; ic3 frame 14 lemmas 302; kind k=9;
    /// bmc depth 41` (the engine runs in the order they started, each with what it reported;
    /// the batch only for `--all-properties`). `None` without a board.
    pub fn status(&self, elapsed: Duration) -> Option<String> {
        let board = self.board.as_ref()?;
        let mut line = format!("{:.1}s", elapsed.as_secs_f64());
        let mut sep = ": ";
        let total = board.properties.load(Ordering::Relaxed);
        if total > 0 {
            let settled = board.settled.load(Ordering::Relaxed);
            let _ = write!(line, "{sep}settled {settled}/{total}");
            sep = "; ";
        }
        let slots = board.slots.lock().unwrap_or_else(|e| e.into_inner());
        for slot in slots.iter().filter(|s| !s.done.load(Ordering::Relaxed)) {
            line.push_str(sep);
            line.push_str(slot.name);
            for m in MEASURES {
                let value = slot.values[m as usize].load(Ordering::Relaxed);
                if value != UNSET {
                    m.describe(value, &mut line);
                }
            }
            sep = "; ";
        }
        Some(line)
    }
}

/// An engine run on the board; dropping it takes the run off the status line.
pub struct Running(Progress);

impl Running {
    /// The handle the engine run writes into (give it to the engine in its budget).
    pub fn progress(&self) -> &Progress {
        &self.0
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(slot) = &self.0.slot {
            slot.done.store(true, Ordering::Relaxed);
        }
    }
}

/// Whether the terminal's status line is on the screen; one per process, as stderr is.
/// Held while a status line or any other stderr line is written.
static SHOWN: Mutex<bool> = Mutex::new(false);

/// The verdict is being printed: nothing may be drawn after it.
static CLOSED: AtomicBool = AtomicBool::new(false);

/// Clears the line the cursor is on (the status line) and goes back to its start.
const ERASE: &str = "\r\x1b[K";

/// How long the verdict waits for a status line being drawn before it is printed anyway
/// (a draw takes microseconds, unless stderr is blocked: the verdict on stdout is not
/// held up by that).
const ERASE_WAIT: Duration = Duration::from_millis(50);

/// Erases the status line if it is shown.
fn erase(shown: &mut bool) {
    if std::mem::take(shown) {
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(ERASE.as_bytes()).and_then(|()| err.flush());
    }
}

/// The screen, waited for at most [`ERASE_WAIT`].
fn screen_soon() -> Option<MutexGuard<'static, bool>> {
    let start = Instant::now();
    loop {
        match SHOWN.try_lock() {
            Ok(s) => return Some(s),
            Err(TryLockError::Poisoned(e)) => return Some(e.into_inner()),
            Err(TryLockError::WouldBlock) if start.elapsed() < ERASE_WAIT => {
                thread::sleep(Duration::from_millis(1))
            }
            Err(TryLockError::WouldBlock) => return None,
        }
    }
}

/// Stderr without the status line, until the guard is dropped: a line printed meanwhile
/// starts at the start of a clean line. Must not be held while calling anything that logs
/// (the lock is not reentrant).
pub fn hold() -> impl Drop {
    let mut shown = SHOWN.lock().unwrap_or_else(|e| e.into_inner());
    erase(&mut shown);
    shown
}

/// Erases the status line for good: the verdict is being printed, and nothing may be drawn
/// after it.
pub fn close() {
    CLOSED.store(true, Ordering::Relaxed);
    if let Some(mut shown) = screen_soon() {
        erase(&mut shown);
    }
}

/// The reporter thread of a board; dropping it stops the thread (without waiting for it)
/// and erases the status line.
pub struct Shown {
    thread: Option<(Thread, Arc<AtomicBool>)>,
}

/// Shows the progress of the board of `progress` (nothing without a board) until the
/// returned [`Shown`] is dropped.
pub fn show(progress: &Progress) -> Shown {
    let Some(board) = &progress.board else {
        return Shown { thread: None };
    };
    let mode = board.mode;
    let stop = Arc::new(AtomicBool::new(false));
    let (progress, stopped) = (progress.clone(), stop.clone());
    let handle = thread::Builder::new()
        .name("progress".into())
        .spawn(move || report(&progress, mode, &stopped));
    Shown {
        thread: handle.ok().map(|h| (h.thread().clone(), stop)),
    }
}

impl Drop for Shown {
    fn drop(&mut self) {
        if let Some((thread, stop)) = self.thread.take() {
            stop.store(true, Ordering::Relaxed);
            thread.unpark();
            // The reporter draws only while holding the screen and seeing no stop: once
            // the screen is taken, it draws no more.
            if let Some(mut shown) = screen_soon() {
                erase(&mut shown);
            }
        }
    }
}

/// The reporter's loop: sleeps until the board's next turn (woken early by a stop), then
/// draws the status line or prints a plain line, until stopped.
fn report(progress: &Progress, mode: Mode, stop: &AtomicBool) {
    let Some(board) = &progress.board else {
        return;
    };
    let every = millis(mode.every());
    loop {
        let due = board.due.load(Ordering::Relaxed);
        let elapsed = board.start.elapsed();
        if millis(elapsed) < due {
            thread::park_timeout(Duration::from_millis(due) - elapsed);
        }
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let elapsed = board.start.elapsed();
        if millis(elapsed) < due {
            continue;
        }
        // The turn after this one, on the board: a reporter started later (the next
        // property of a batch) keeps the same rhythm instead of printing at once.
        board
            .due
            .store((millis(elapsed) / every + 1) * every, Ordering::Relaxed);
        let Some(status) = progress.status(elapsed) else {
            return;
        };
        // A writer holding the screen is printing: this turn is skipped, not waited for.
        let Ok(mut shown) = SHOWN.try_lock() else {
            continue;
        };
        if CLOSED.load(Ordering::Relaxed) || stop.load(Ordering::Relaxed) {
            return;
        }
        let mut err = std::io::stderr().lock();
        let written = match mode {
            Mode::Terminal => {
                *shown = true;
                let line = format!("warden {status}");
                write!(err, "{ERASE}{}", fit(&line, terminal_width())).and_then(|()| err.flush())
            }
            Mode::Plain => writeln!(err, "warden: progress {status}"),
        };
        if written.is_err() {
            return;
        }
    }
}

fn millis(d: Duration) -> u64 {
    d.as_millis() as u64
}

/// `line` cut to fewer than `width` characters: a line as wide as the terminal would wrap,
/// and the erase would clear only its second half.
pub fn fit(line: &str, width: usize) -> &str {
    let keep = width.saturating_sub(1).max(1);
    match line.char_indices().nth(keep) {
        Some((cut, _)) => &line[..cut],
        None => line,
    }
}

/// The width of the terminal on stderr (80 when it cannot be read).
fn terminal_width() -> usize {
    let mut size = libc::winsize {
        ws_row: 0,
        ws_col: 0,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: TIOCGWINSZ writes one `winsize` into the struct it is given.
    let ok = unsafe { libc::ioctl(libc::STDERR_FILENO, libc::TIOCGWINSZ, &mut size) } == 0;
    match ok && size.ws_col > 0 {
        true => usize::from(size.ws_col),
        false => 80,
    }
}
