//! Verbosity-gated logging to stderr (stdout carries only verdicts and witnesses).

use std::fmt::Arguments;
use std::sync::atomic::{AtomicU8, Ordering};

static LEVEL: AtomicU8 = AtomicU8::new(0);

/// Sets the verbosity (`-v` counts): 0 quiet, 1 progress, 2 per-query detail.
pub fn set_level(level: u8) {
    LEVEL.store(level, Ordering::Relaxed);
}

pub fn level() -> u8 {
    LEVEL.load(Ordering::Relaxed)
}

/// Prints `args` on stderr when the verbosity is at least `level`.
pub fn info(level: u8, args: Arguments) {
    if self::level() >= level {
        eprintln!("c {args}");
    }
}
