//! A model checker's answer as a word, as the benchmark runners and `warden compare` read it
//! from a tool's output.
//!
//! Layer: plumbing; imports nothing of the crate (it reads other tools' output too).

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    Sat,
    Unsat,
    Unknown,
}

impl Verdict {
    /// `sat`/`unsat`, or SV-COMP's `false`/`true`; anything else is unknown.
    pub fn parse(s: &str) -> Verdict {
        match s.trim() {
            "sat" | "false" => Verdict::Sat,
            "unsat" | "true" => Verdict::Unsat,
            _ => Verdict::Unknown,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Sat => "sat",
            Verdict::Unsat => "unsat",
            Verdict::Unknown => "unknown",
        }
    }
}
