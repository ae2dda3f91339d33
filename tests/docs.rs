//! The command examples of `README.md` and `docs/**/*.md` run, so the documentation cannot rot.
//!
//! # How to write an example (for doc writers)
//!
//! ````markdown
//! ```sh
//! warden check circuits/counter4_sat.aag --engine bmc
//! ```
//!
//! ```output
//! sat
//! ...
//! ```
//! ````
//!
//! - A fenced block tagged `sh` is **run**: the whole block is one bash script
//!   (`set -e -o pipefail`), with the `warden` of this build first on `PATH`. Every command
//!   must succeed; to show a failing one, write `warden ... || echo "exit code $?"` and show
//!   that line in the output.
//! - A block tagged `output` right after it (only blank lines between) is what the script
//!   prints, stdout and stderr together as a terminal shows them. The test compares line by
//!   line after collapsing runs of blanks and writing every decimal number (`0.016`, `6.2`)
//!   as `N.N`, so times and memory never make it fail. In the expected text, `[..]` stands for
//!   any text within a line and a line `...` for any number of lines (also none): use them for
//!   what differs from run to run, such as witness inputs that do not matter (the portfolio
//!   engine that answers first picks them) or `-v` progress lines, never for a verdict. A
//!   command block without an output block is still run and must succeed.
//! - The blocks of one file run in order in one scratch directory of their own, which holds
//!   links to the repository's top-level entries (`circuits/`, `contrib/`, ...): a later block
//!   can read the files an earlier one wrote (`--witness cex.txt`), and nothing is written into
//!   the repository.
//! - `cargo run --release --` is read as `warden`, and a leading `scripts/setup && ` is left
//!   out (the test runs after the build and the set-up).
//! - A block that must not run here (it takes an hour, installs software, or its tool is still
//!   being built) gets a comment right before its fence saying why:
//!   `<!-- not run: REASON -->`. Forges do not render it; the test skips that block and the
//!   output block after it, and prints the reason.
//! - Anything else that looks like a command but is not one (a synopsis, an annotated file
//!   format) goes in a `text` block. `bash`, `shell` and `console` blocks are refused, so an
//!   example cannot escape the test by its tag.
//! - Examples that read Verilog need `yosys`, those that run ABC (`warden compare`,
//!   `berkeley-abc`) need `berkeley-abc` (`scripts/setup` installs both); without them they
//!   are skipped with a message, like the other tests that need them.
//! - `docs/lab/` is the log of measurements, not the user's path: its blocks are not run.
//!
//! Besides the examples, this test checks that the relative links of these files point to
//! files and headings that exist, that the README stays a front door (at most 220 lines),
//! and that the user's pages (`README.md`, `docs/*.md`, `docs/guide/`) name no source files
//! (`src/...`); `docs/lab/`, the measurement log, may. The whole test takes a few seconds.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// One fenced block of a markdown file.
#[derive(Debug)]
struct Block {
    /// The info string's first word (`sh`, `output`, `text`, ...).
    tag: String,
    /// 1-based line of the opening fence.
    line: usize,
    body: String,
    /// The reason of a `<!-- not run: REASON -->` right before the fence.
    not_run: Option<String>,
    /// Only blank lines lie between the previous block's closing fence and this one.
    follows_previous: bool,
}

fn blocks(text: &str) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut last_close: Option<usize> = None;
    while i < lines.len() {
        let trimmed = lines[i].trim_start();
        let fence = ["```", "~~~"].into_iter().find(|f| trimmed.starts_with(f));
        let Some(fence) = fence else {
            i += 1;
            continue;
        };
        let ticks = trimmed
            .chars()
            .take_while(|&c| c == fence.as_bytes()[0] as char)
            .count();
        let tag = trimmed[ticks..]
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_owned();
        let open = i;
        // The nearest non-blank line before the fence.
        let mut j = open;
        while j > 0 && lines[j - 1].trim().is_empty() {
            j -= 1;
        }
        let not_run = (j > 0)
            .then(|| lines[j - 1].trim())
            .and_then(|l| l.strip_prefix("<!-- not run:"))
            .and_then(|l| l.strip_suffix("-->"))
            .map(|r| r.trim().to_owned());
        let follows_previous =
            last_close.is_some_and(|c| lines[c + 1..open].iter().all(|l| l.trim().is_empty()));
        let closing = fence[..1].repeat(ticks);
        let mut k = open + 1;
        while k < lines.len() && lines[k].trim() != closing {
            k += 1;
        }
        assert!(k < lines.len(), "line {}: unclosed fenced block", open + 1);
        out.push(Block {
            tag,
            line: open + 1,
            body: lines[open + 1..k].join("\n"),
            not_run,
            follows_previous,
        });
        last_close = Some(k);
        i = k + 1;
    }
    out
}

/// A line as compared: blanks collapsed, decimal numbers as `N.N`.
fn normalise(line: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = line.trim().chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            while i < chars.len() && chars[i].is_whitespace() {
                i += 1;
            }
            out.push(' ');
            continue;
        }
        if c.is_ascii_digit() && (i == 0 || !chars[i - 1].is_ascii_alphanumeric()) {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            if i + 1 < chars.len() && chars[i] == '.' && chars[i + 1].is_ascii_digit() {
                i += 1;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
                out.push_str("N.N");
            } else {
                out.extend(&chars[start..i]);
            }
            continue;
        }
        out.push(c);
        i += 1;
    }
    out
}

/// Whether `actual` matches the pattern line `expected` (`[..]`: any text).
fn line_matches(expected: &str, actual: &str) -> bool {
    let parts: Vec<&str> = expected.split("[..]").collect();
    if parts.len() == 1 {
        return expected == actual;
    }
    let Some(mut rest) = actual.strip_prefix(parts[0]) else {
        return false;
    };
    for (n, part) in parts.iter().enumerate().skip(1) {
        if n == parts.len() - 1 {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// Whether the output `actual` matches `expected` (lines normalised; `...`: any lines).
fn output_matches(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((e, rest)) if e == "..." => {
            (0..=actual.len()).any(|skip| output_matches(rest, &actual[skip..]))
        }
        Some((e, rest)) => actual
            .split_first()
            .is_some_and(|(a, arest)| line_matches(e, a) && output_matches(rest, arest)),
    }
}

fn normalised_lines(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = text.lines().map(normalise).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    while lines.first().is_some_and(|l| l.is_empty()) {
        lines.remove(0);
    }
    lines
}

/// The script a `sh` block runs.
fn script_of(body: &str) -> String {
    body.lines()
        .map(|l| {
            let l = l.strip_prefix("scripts/setup && ").unwrap_or(l);
            l.replace("cargo run --release --", "warden")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The markdown files whose examples run: the README and everything under `docs/`.
fn doc_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "md") {
                out.push(p);
            }
        }
    }
    let mut files = vec![Path::new(ROOT).join("README.md")];
    walk(&Path::new(ROOT).join("docs"), &mut files);
    files.sort();
    files
}

/// Whether `program` is on `PATH`.
fn have(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(program).is_file()))
}

/// Folders the examples write into: SBY puts its task folders beside the project file. In a
/// scratch directory these are real folders holding links to their files, so that nothing is
/// written into the repository and two pages running the same SBY task at once don't collide.
const WRITTEN: &[&str] = &["circuits/sby"];

/// A scratch directory with links to the repository's top-level entries.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warden-docs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    link_entries(Path::new(ROOT), &dir, "");
    dir
}

/// Links the entries of `from` into `to`, except the folders on the way to a [`WRITTEN`] one,
/// which are made real and filled the same way. `rel` is `from` relative to the repository.
fn link_entries(from: &Path, to: &Path, rel: &str) {
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let n = e.file_name();
        let name = n.to_string_lossy();
        if rel.is_empty() && (n == "target" || name.starts_with('.')) {
            continue;
        }
        let path = if rel.is_empty() {
            name.to_string()
        } else {
            format!("{rel}/{name}")
        };
        let on_the_way = WRITTEN
            .iter()
            .any(|w| *w == path || w.starts_with(&format!("{path}/")));
        if on_the_way && e.path().is_dir() {
            std::fs::create_dir(to.join(&n)).unwrap();
            link_entries(&e.path(), &to.join(&n), &path);
        } else if !(WRITTEN.contains(&rel) && e.path().is_dir()) {
            // (a folder inside a written one is an earlier run's output)
            std::os::unix::fs::symlink(e.path(), to.join(&n)).unwrap();
        }
    }
}

/// What running the examples of one file gave.
#[derive(Default)]
struct FileRun {
    failures: Vec<String>,
    /// Blocks run.
    ran: usize,
    /// What was skipped and why, and how long each block took.
    notes: Vec<String>,
}

/// Runs the examples of one file.
fn run_file(path: &Path) -> FileRun {
    let rel = path.strip_prefix(ROOT).unwrap().display().to_string();
    let text = std::fs::read_to_string(path).unwrap();
    let blocks = blocks(&text);
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_warden"))
        .parent()
        .unwrap()
        .to_owned();
    let env_path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let dir = scratch(&rel.replace('/', "_"));
    let (yosys, abc) = (have("yosys"), have("berkeley-abc"));
    let (mut failures, mut ran, mut notes) = (Vec::new(), 0, Vec::new());
    let mut i = 0;
    while i < blocks.len() {
        let b = &blocks[i];
        let output = blocks
            .get(i + 1)
            .filter(|o| o.tag == "output" && o.follows_previous);
        let next = i + 1 + usize::from(output.is_some());
        let at = format!("{rel}:{}", b.line);
        match b.tag.as_str() {
            "bash" | "shell" | "console" | "sh-session" | "zsh" => failures.push(format!(
                "{at}: a `{}` block: tag commands `sh` (they are run) or anything else `text`",
                b.tag
            )),
            "output" => failures.push(format!(
                "{at}: an `output` block that follows no `sh` block (it would never be checked)"
            )),
            "sh" => {
                if let Some(reason) = &b.not_run {
                    if reason.is_empty() {
                        failures.push(format!("{at}: `<!-- not run: -->` without a reason"));
                    }
                    notes.push(format!("{at}: not run: {reason}"));
                    i = next;
                    continue;
                }
                let script = script_of(&b.body);
                let verilog = script
                    .split_whitespace()
                    .any(|w| w.ends_with(".sv") || w.ends_with(".v"));
                let runs_abc = script.contains("warden compare") || script.contains("berkeley-abc");
                let missing = match () {
                    _ if verilog && !yosys => Some("yosys"),
                    _ if runs_abc && !abc => Some("berkeley-abc"),
                    _ => None,
                };
                if let Some(tool) = missing {
                    notes.push(format!(
                        "{at}: skipped: {tool} is not installed (apt-get install {tool})"
                    ));
                    i = next;
                    continue;
                }
                let started = Instant::now();
                let out = Command::new("timeout")
                    .args(["-k", "5", "120", "bash", "-c"])
                    .arg(format!("set -e -o pipefail\nexec 2>&1\n{script}"))
                    .current_dir(&dir)
                    .env("PATH", &env_path)
                    .stdin(Stdio::null())
                    .output()
                    .expect("run bash");
                ran += 1;
                let printed = String::from_utf8_lossy(&out.stdout).into_owned();
                if !out.status.success() {
                    failures.push(format!(
                        "{at}: the block failed ({}):\n{script}\n--- printed:\n{printed}",
                        out.status
                    ));
                } else if let Some(o) = output {
                    let (want, got) = (normalised_lines(&o.body), normalised_lines(&printed));
                    if !output_matches(&want, &got) {
                        failures.push(format!(
                            "{at}: the output differs from the block at line {}:\n{script}\n\
                             --- expected:\n{}\n--- printed:\n{printed}",
                            o.line, o.body
                        ));
                    }
                }
                notes.push(format!(
                    "{at}: ran in {:.1} s",
                    started.elapsed().as_secs_f64()
                ));
            }
            _ => {}
        }
        i = next;
    }
    let _ = std::fs::remove_dir_all(&dir);
    FileRun {
        failures,
        ran,
        notes,
    }
}

#[test]
fn every_command_of_the_readme_and_the_guide_runs_as_shown() {
    // docs/lab/ is a log of measurements, not the user's path: its blocks are not run.
    let files: Vec<PathBuf> = doc_files()
        .into_iter()
        .filter(|f| !f.starts_with(Path::new(ROOT).join("docs/lab")))
        .collect();
    assert!(files.len() > 1, "no docs/ pages found");
    // One thread per file: the examples are short, the scratch directories separate.
    let results: Vec<FileRun> = std::thread::scope(|s| {
        let handles: Vec<_> = files.iter().map(|f| s.spawn(move || run_file(f))).collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut failures = Vec::new();
    let mut ran = 0;
    for r in &results {
        for note in &r.notes {
            eprintln!("{note}");
        }
        failures.extend(r.failures.iter().cloned());
        ran += r.ran;
    }
    eprintln!("{ran} example blocks ran");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(ran >= 20, "only {ran} example blocks ran");
}

/// The anchor a forge gives a heading (GitHub's rule: lower case, punctuation dropped but
/// `-` and `_`, spaces as `-`).
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a markdown file's headings (outside fenced blocks).
fn anchors(text: &str) -> Vec<String> {
    let mut in_block = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
        }
        if !in_block && line.starts_with('#') {
            out.push(anchor(line.trim_start_matches('#')));
        }
    }
    out
}

#[test]
fn relative_links_point_to_files_and_headings_that_exist() {
    let mut broken = Vec::new();
    for path in doc_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        let dir = path.parent().unwrap();
        let mut in_block = false;
        for (n, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("```") {
                in_block = !in_block;
            }
            if in_block {
                continue;
            }
            for piece in line.split("](").skip(1) {
                let Some(end) = piece.find(')') else { continue };
                let link = &piece[..end];
                if link.contains("://") || link.starts_with("mailto:") {
                    continue;
                }
                let (file, fragment) = link.split_once('#').unwrap_or((link, ""));
                let target = if file.is_empty() {
                    path.clone()
                } else {
                    dir.join(file)
                };
                let at = format!("{}:{}: {link}", path.display(), n + 1);
                if !target.exists() {
                    broken.push(at);
                } else if !fragment.is_empty() && target.extension().is_some_and(|e| e == "md") {
                    let heads = anchors(&std::fs::read_to_string(&target).unwrap());
                    if !heads.iter().any(|h| h == fragment) {
                        broken.push(format!("{at} (no such heading)"));
                    }
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_readme_is_a_front_door_and_the_user_pages_name_no_source_files() {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines <= 220,
        "README.md has {lines} lines: move details into docs/guide/"
    );
    let mut named = BTreeMap::new();
    for path in doc_files() {
        let rel = path
            .strip_prefix(ROOT)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if rel.starts_with("docs/lab/") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for (n, line) in text.lines().enumerate() {
            if line.contains("src/") {
                named.insert(format!("{rel}:{}", n + 1), line.trim().to_owned());
            }
        }
    }
    assert!(
        named.is_empty(),
        "user pages name source files (move that to docs/lab/):\n{named:#?}"
    );
}

#[test]
fn the_output_matcher_normalises_numbers_and_reads_wildcards() {
    let n = |t: &str| normalised_lines(t);
    assert_eq!(
        n("warden: p   sat  5   0.016  fails"),
        ["warden: p sat 5 N.N fails"]
    );
    assert!(output_matches(&n("sat\n...\n."), &n("sat\n1\nb0\n0\n.")));
    assert!(output_matches(&n("sat\n...\n."), &n("sat\n.")));
    assert!(!output_matches(&n("sat\n..."), &n("unsat\n1")));
    assert!(output_matches(&n("a [..] c"), &n("a bb c")));
    assert!(!output_matches(&n("a [..] c"), &n("a bb d")));
    assert!(!output_matches(&n("unsat"), &n("unsat\nmore")));
    // Integers are kept: a depth or a verdict line must match exactly.
    assert!(!output_matches(&n("depth 5"), &n("depth 6")));
    let b = blocks("x\n<!-- not run: slow -->\n\n```sh\nwarden\n```\n\n```output\nsat\n```\n");
    assert_eq!(
        (b[0].not_run.as_deref(), b[1].follows_previous),
        (Some("slow"), true)
    );
    assert_eq!(
        anchor(" `warden sim` and SV-COMP (exit 1)"),
        "warden-sim-and-sv-comp-exit-1"
    );
    assert_eq!(
        script_of("scripts/setup && cargo run --release -- check m.aag"),
        "warden check m.aag"
    );
}
