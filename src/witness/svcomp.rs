//! SV-COMP witnesses (`--witness-format svcomp`): the YAML format 2.0 that SV-COMP's
//! validators read, for C programs.
//!
//! - A `sat` answer becomes a `violation_sequence`: one `function_return` waypoint per value
//!   a `__VERIFIER_nondet_*` call (or another function assumed nondet) returned on the error
//!   path, in the order the program drew them (`\result == V` at the call's closing
//!   parenthesis), and a `target` waypoint at the error call. Values the path gives
//!   uninitialised locals have no waypoint: the format has none for them, and a validator
//!   explores them.
//! - An `unsat` answer becomes an `invariant_set` of `loop_invariant`s: what the proof's
//!   invariant says at each loop head in C ([`super::loop_invariants`]), possibly none (a
//!   proof without an invariant, by execution or by BMC to the longest path; conjuncts C
//!   cannot state at the loop), which claims correctness and leaves the proof to the
//!   validator.
//!
//! Every entry names its task: the program file and its SHA-256, the property and the
//! data model.

use std::time::{SystemTime, UNIX_EPOCH};

use sha2::{Digest, Sha256};

use super::loop_invariants::LoopInvariant;
use crate::cfa::path::{decimal, ErrorPath};
use crate::cfa::Cfa;
use crate::wl::Value;

/// What every entry says of the task it belongs to.
pub struct Task<'a> {
    /// The program's path as given on the command line.
    pub file: &'a str,
    /// The program's text.
    pub source: &'a str,
    /// The property (a `CHECK` line).
    pub specification: String,
    /// The error function of the property, to place the target waypoint.
    pub error_function: &'a str,
    /// `ILP32` or `LP64`.
    pub data_model: &'a str,
}

/// The violation witness of `path`, an error path of `cfa` (the program as translated).
pub fn violation(cfa: &Cfa, path: &ErrorPath, task: &Task) -> String {
    let mut out = header("violation_sequence", task);
    out.push_str("  content:\n");
    for step in &path.steps {
        for (n, v) in &step.drawn {
            let source = &cfa.nondets[*n];
            let (Some(column), Value::Bv(b)) = (source.column, v) else {
                continue;
            };
            let value = decimal(b, source.signed);
            out.push_str(&waypoint(
                "function_return",
                task.file,
                source.line,
                column,
                Some(&format!("\\result == {value}")),
            ));
        }
    }
    let line = (path.steps.last())
        .and_then(|s| cfa.edges[s.edge].lines.last().copied())
        .unwrap_or(1);
    let column = call_column(task.source, line, task.error_function);
    out.push_str(&waypoint("target", task.file, line, column, None));
    out
}

/// The correctness witness of a program proved safe, with the loop invariants the proof
/// gave.
pub fn correctness(task: &Task, invariants: &[LoopInvariant]) -> String {
    let mut out = header("invariant_set", task);
    out.push_str(match invariants.is_empty() {
        true => "  content: []\n",
        false => "  content:\n",
    });
    for inv in invariants {
        out.push_str(&format!(
            "    - invariant:\n        type: loop_invariant\n        location:\n          \
             file_name: {}\n          line: {}\n          column: {}\n          function: {}\n        \
             value: {}\n        format: c_expression\n",
            quote(task.file),
            inv.line,
            inv.column,
            quote(&inv.function),
            quote(&inv.value)
        ));
    }
    out
}

/// One segment holding one waypoint that the run follows.
fn waypoint(kind: &str, file: &str, line: u32, column: u32, constraint: Option<&str>) -> String {
    let mut s = format!(
        "    - segment:\n        - waypoint:\n            type: {kind}\n            action: follow\n            \
         location:\n              file_name: {}\n              line: {line}\n              column: {column}\n",
        quote(file)
    );
    if let Some(c) = constraint {
        s.push_str(&format!(
            "            constraint:\n              value: {}\n              format: c_expression\n",
            quote(c)
        ));
    }
    s
}

/// The entry's type and metadata.
fn header(entry_type: &str, task: &Task) -> String {
    let hash = Sha256::digest(task.source.as_bytes());
    let hex: String = hash.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "- entry_type: {entry_type}\n  metadata:\n    format_version: \"2.0\"\n    uuid: {}\n    \
         creation_time: {}\n    producer:\n      name: warden\n      version: {}\n    task:\n      \
         input_files:\n        - {file}\n      input_file_hashes:\n        {file}: {hex}\n      \
         specification: {}\n      data_model: {}\n      language: C\n",
        uuid(&hex),
        now_rfc3339(),
        quote(env!("CARGO_PKG_VERSION")),
        quote(&task.specification),
        task.data_model,
        file = quote(task.file),
    )
}

/// The 1-based column where `function(` starts on source line `line`, or where the line's
/// text starts if the call is not written there (a macro).
fn call_column(source: &str, line: u32, function: &str) -> u32 {
    let Some(text) = source.lines().nth(line.saturating_sub(1) as usize) else {
        return 1;
    };
    let called = text.match_indices(function).find(|(i, _)| {
        let before = text[..*i].chars().next_back();
        let after = text[i + function.len()..].trim_start();
        !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') && after.starts_with('(')
    });
    let at = called.map_or_else(|| text.len() - text.trim_start().len(), |(i, _)| i);
    at as u32 + 1
}

/// A YAML double-quoted scalar.
fn quote(s: &str) -> String {
    let escaped = s.replace('\\', "\\\\").replace('"', "\\\"");
    format!("\"{escaped}\"")
}

/// A version-4 UUID from the program's hash and the clock (unique per run).
fn uuid(hash: &str) -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let digest = Sha256::digest(format!("{hash}{nanos}{}", std::process::id()));
    let mut b: [u8; 16] = digest[..16].try_into().expect("32-byte digest");
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

/// The current UTC time as RFC 3339 (`2026-11-28T17:50:00Z`).
fn now_rfc3339() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_the_target_at_the_call_and_quotes_scalars() {
        let source = "int main() {\n  if (x) { reach_error(); }\n  my_reach_error();\n}\n";
        assert_eq!(call_column(source, 2, "reach_error"), 12);
        assert_eq!(call_column(source, 3, "reach_error"), 3);
        assert_eq!(quote(r#"\result == "a""#), r#""\\result == \"a\"""#);
    }

    #[test]
    fn dates_and_uuids_are_well_formed() {
        let t = now_rfc3339();
        assert_eq!(t.len(), 20, "{t}");
        assert!(
            t.starts_with("20") && t.ends_with('Z') && &t[10..11] == "T",
            "{t}"
        );
        let u = uuid("00");
        assert_eq!(u.len(), 36);
        assert_eq!(&u[14..15], "4");
        assert!(matches!(&u[19..20], "8" | "9" | "a" | "b"), "{u}");
    }
}
