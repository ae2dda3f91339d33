//! Verbosity-gated logging to stderr (stdout carries only verdicts and witnesses). Every line
//! goes through [`crate::progress::hold`], so that none is printed into a status line.
//!
//! Layer: plumbing; imports only [`crate::progress`], so that any module may log.

use std::fmt::Arguments;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};

static LEVEL: AtomicU8 = AtomicU8::new(0);

/// `-q`: nothing on stderr but errors.
static QUIET: AtomicBool = AtomicBool::new(false);

/// Sets the verbosity (`-v` counts): 0 quiet, 1 progress, 2 per-query detail.
pub fn set_level(level: u8) {
    LEVEL.store(level, Ordering::Relaxed);
}

pub fn level() -> u8 {
    LEVEL.load(Ordering::Relaxed)
}

/// Silences [`info`] and [`note`] (`-q`); errors and warnings are still printed.
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Prints `args` on stderr when the verbosity is at least `level`, unless quiet.
pub fn info(level: u8, args: Arguments) {
    if self::level() >= level && !QUIET.load(Ordering::Relaxed) {
        let _screen = crate::progress::hold();
        eprintln!("c {args}");
    }
}

/// Prints `warden: {args}` on stderr unless quiet: what the run says besides its verdict.
pub fn note(args: Arguments) {
    if !QUIET.load(Ordering::Relaxed) {
        warn(args);
    }
}

/// Prints `warden: {args}` on stderr even when quiet: an error, or something going wrong
/// that the run survives.
pub fn warn(args: Arguments) {
    let _screen = crate::progress::hold();
    eprintln!("warden: {args}");
}
