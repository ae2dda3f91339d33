//! Preprocessing with `gcc -E`, and the map from preprocessed text back to source lines.
//!
//! Most SV-COMP-style files of the corpus include headers that exist nowhere (`<lamp.h>`).
//! When `gcc -E` fails only because headers are missing, their `#include` lines are blanked
//! (so line numbers stay) and the file is preprocessed again; the dropped headers are
//! reported as a warning. Any identifier the program then uses undeclared is a clean error.

use std::io::Write;
use std::process::{Command, Stdio};

/// Preprocessed text plus the headers that had to be dropped.
pub struct Preprocessed {
    pub text: String,
    pub dropped: Vec<String>,
}

/// Why `gcc -E` gave no text.
#[derive(Debug, thiserror::Error)]
pub enum PreprocessError {
    #[error("cannot run gcc -E (the C preprocessor): {0}")]
    CannotRun(std::io::Error),
    #[error("gcc -E: {0}")]
    Wait(std::io::Error),
    /// gcc's own message (a missing header is dropped and gcc runs again instead).
    #[error("gcc -E failed: {0}")]
    Failed(String),
    #[error("gcc -E produced text that is not UTF-8")]
    NotUtf8,
}

/// Runs `gcc -E` on `source` (the text of a `.c` file).
pub fn preprocess(source: &str) -> Result<Preprocessed, PreprocessError> {
    let mut text = source.to_owned();
    let mut dropped = Vec::new();
    loop {
        let out = gcc_e(&text)?;
        if out.status.success() {
            let text = String::from_utf8(out.stdout).map_err(|_| PreprocessError::NotUtf8)?;
            return Ok(Preprocessed { text, dropped });
        }
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let failed = || PreprocessError::Failed(stderr.trim().to_owned());
        let Some(header) = missing_header(&stderr) else {
            return Err(failed());
        };
        let blanked = blank_include(&text, &header);
        if blanked == text {
            return Err(failed());
        }
        text = blanked;
        dropped.push(header);
    }
}

fn gcc_e(text: &str) -> Result<std::process::Output, PreprocessError> {
    let mut child = Command::new("gcc")
        .args(["-E", "-x", "c", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(PreprocessError::CannotRun)?;
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = text.to_owned();
    // A separate writer: gcc may fill its output pipe before it has read all its input.
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().map_err(PreprocessError::Wait)?;
    let _ = writer.join();
    Ok(out)
}

/// The source line of the first `<stdin>:N:` diagnostic in an error of [`preprocess`].
pub fn error_line(message: &str) -> Option<u32> {
    let (_, rest) = message.split_once("<stdin>:")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// The header named by gcc's `fatal error: NAME: No such file or directory`.
fn missing_header(stderr: &str) -> Option<String> {
    let line = stderr
        .lines()
        .find(|l| l.contains("fatal error:") && l.contains("No such file or directory"))?;
    let after = &line[line.find("fatal error:")? + "fatal error:".len()..];
    let name = after.trim().strip_suffix("No such file or directory")?;
    Some(name.trim().trim_end_matches(':').trim().to_owned())
}

/// `text` with every `#include` line naming `header` replaced by an empty line.
fn blank_include(text: &str, header: &str) -> String {
    text.split_inclusive('\n')
        .map(|line| {
            let t = line.trim_start();
            let is_include = t.starts_with('#')
                && t[1..].trim_start().starts_with("include")
                && (t.contains(&format!("<{header}>")) || t.contains(&format!("\"{header}\"")));
            if is_include {
                if line.ends_with('\n') {
                    "\n"
                } else {
                    ""
                }
            } else {
                line
            }
        })
        .collect()
}

/// Source line numbers of byte offsets in preprocessed text, following gcc's line markers
/// (`# N "file" ...`).
pub struct LineMap {
    /// Byte offset where each preprocessed line starts, and its source line number.
    starts: Vec<(usize, u32)>,
}

impl LineMap {
    pub fn new(text: &str) -> LineMap {
        let mut starts = Vec::new();
        let mut offset = 0;
        let mut next_line = 1u32;
        for line in text.split_inclusive('\n') {
            starts.push((offset, next_line));
            next_line += 1;
            if let Some(n) = marker_line(line) {
                next_line = n;
            }
            offset += line.len();
        }
        LineMap { starts }
    }

    /// The source line of byte `offset`.
    pub fn line(&self, offset: usize) -> u32 {
        self.start(offset).map_or(1, |(_, line)| line)
    }

    /// The 1-based column of byte `offset` in its line (`gcc -E` keeps a line's text where
    /// no macro expands in it, so this is the source column there).
    pub fn column(&self, offset: usize) -> u32 {
        (offset - self.start(offset).map_or(0, |(start, _)| start)) as u32 + 1
    }

    /// Where the preprocessed line that holds byte `offset` starts, and its source line.
    fn start(&self, offset: usize) -> Option<(usize, u32)> {
        let i = match self.starts.binary_search_by_key(&offset, |&(o, _)| o) {
            Ok(i) => i,
            Err(i) => i.checked_sub(1)?,
        };
        Some(self.starts[i])
    }
}

/// `N` of a line marker `# N "file" flags` (or `#line N`).
fn marker_line(line: &str) -> Option<u32> {
    let rest = line.strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("line").unwrap_or(rest).trim_start();
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preprocessor_errors_name_the_line() {
        let e = preprocess("int x;\n#if 1\nint y;\n").err().unwrap();
        assert_eq!(error_line(&e.to_string()), Some(2), "{e}");
    }

    #[test]
    fn missing_headers_are_blanked_and_lines_kept() {
        let src = "#include <no_such_header_xyz.h>\nint x;\nint main() { return x; }\n";
        let p = preprocess(src).unwrap();
        assert_eq!(p.dropped, vec!["no_such_header_xyz.h".to_string()]);
        let map = LineMap::new(&p.text);
        let at = p.text.find("int main").unwrap();
        assert_eq!(map.line(at), 3);
    }
}
