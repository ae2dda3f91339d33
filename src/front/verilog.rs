//! Verilog and SystemVerilog designs, read through Yosys.
//!
//! Yosys is the real front end: warden runs it as a subprocess (never reimplements it) with a
//! script a user can print (`--show-yosys-script`) and run alone. The script follows what
//! SymbiYosys does for its BTOR2 engines, so `assert`, `assume`, `initial` values and
//! `$anyconst`/`$anyseq` mean what they mean there: `read_verilog -formal -sv` (the `FORMAL`
//! macro is defined), `prep -top`, `flatten` (hierarchical names `u_sub.reg`), memories kept as
//! arrays (`memory -nomap`), asynchronous resets made synchronous (`async2sync`), enables and
//! synchronous resets unmapped (`dffunmap`), assumptions made to hold in the cycle they are
//! checked (`chformal -assume -early`), undriven wires free in every cycle (`setundef -undriven
//! -anyseq`). A register without an `initial` value is free in cycle 0 (BTOR2 `state` without
//! `init`), `$anyconst` is a state without `next`, `$anyseq` an input.
//!
//! Why `write_btor` and not `write_aiger -ywmap`: both keep names, but Yosys 0.23 (Debian's)
//! writes `-ywmap` only together with `-zinit`, which sets every uninitialised register to
//! zero and so changes the meaning of a design; `write_btor` keeps words (a trace prints
//! `count = 5`, not eight bits), the assertion labels as `bad` symbols and the flattened
//! hierarchical names as state and input symbols, and its `-i` info file names the clock
//! inputs, which a Yosys witness lists as clocks rather than data. `cover` statements are not
//! properties: they are counted and reported, never required.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::InputError;

/// What `warden check` needs to compile a design.
#[derive(Clone, Debug)]
pub struct Design {
    /// The source files, the top one first.
    pub files: Vec<PathBuf>,
    /// The top module (`--top`); Yosys picks it when absent (`-auto-top`).
    pub top: Option<String>,
    /// Macro definitions `NAME` or `NAME=VALUE` (`--define`).
    pub defines: Vec<String>,
    /// The Yosys executable (`--yosys`, default `yosys` on the `PATH`).
    pub yosys: PathBuf,
}

/// A compiled design: the BTOR2 text Yosys wrote (anonymous assertions named `file:line`) and
/// the names of the inputs that are clocks.
#[derive(Clone, Debug)]
pub struct Compiled {
    pub btor2: String,
    pub clocks: Vec<String>,
    /// The number of `cover` statements, which are not checked.
    pub covers: usize,
}

/// Whether `path` names a Verilog or SystemVerilog source (`.v`, `.sv`, `.vh`, `.svh`).
pub fn is_verilog(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e, "v" | "sv" | "vh" | "svh"))
}

/// `s` as one word of a Yosys script: quoted only when it holds a space or a `;` (some
/// commands, `tee -o` among them, would keep the quotes as part of a file name).
fn quoted(s: &str) -> String {
    match s.contains(|c: char| c.is_whitespace() || c == ';' || c == '"') {
        true => format!("\"{}\"", s.replace('"', "\\\"")),
        false => s.to_owned(),
    }
}

/// The Yosys script that turns `design` into `out` (BTOR2) and `info` (its clocks).
pub fn script(design: &Design, out: &Path, info: &Path) -> String {
    let mut s = String::from("# written by warden: Verilog to BTOR2 with the RTL names kept\n");
    let defines: String = design.defines.iter().map(|d| format!(" -D{d}")).collect();
    for file in &design.files {
        let name = quoted(&file.to_string_lossy());
        s.push_str(&format!("read_verilog -formal -sv{defines} {name}\n"));
    }
    match &design.top {
        Some(top) => s.push_str(&format!("prep -top {top}\n")),
        None => s.push_str("prep -auto-top\n"),
    }
    s.push_str(
        "flatten\n\
         memory -nomap\n\
         async2sync\n\
         dffunmap\n\
         chformal -assume -early\n\
         setundef -undriven -anyseq\n\
         opt_clean\n\
         tee -o ",
    );
    s.push_str(&quoted(&info.with_extension("covers").to_string_lossy()));
    s.push_str(" select -count t:$cover\n");
    s.push_str(&format!(
        "write_btor -i {} {}\n",
        quoted(&info.to_string_lossy()),
        quoted(&out.to_string_lossy())
    ));
    s
}

/// A scratch folder of this process, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> std::io::Result<Scratch> {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::SeqCst);
        let dir = std::env::temp_dir().join(format!("warden-yosys-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        Ok(Scratch(dir))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs Yosys on `design`. A Yosys error becomes an [`InputError`] at the user's file and
/// line when Yosys names them; a missing Yosys says how to install it; a design without
/// any assertion is an error too (there would be nothing to check).
pub fn compile(design: &Design) -> Result<Compiled, InputError> {
    let top_file = design.files[0].clone();
    let error = |position: Option<String>, message: String| InputError {
        path: top_file.clone(),
        position,
        message,
        unsupported: false,
    };
    let scratch = Scratch::new().map_err(|e| {
        error(
            None,
            format!("cannot create a scratch folder for Yosys: {e}"),
        )
    })?;
    let (out, info) = (
        scratch.0.join("design.btor2"),
        scratch.0.join("design.info"),
    );
    let script_path = scratch.0.join("design.ys");
    std::fs::write(&script_path, script(design, &out, &info))
        .map_err(|e| error(None, format!("cannot write the Yosys script: {e}")))?;
    let run = Command::new(&design.yosys)
        .arg("-q")
        .arg("-s")
        .arg(&script_path)
        .output();
    let run = match run {
        Ok(r) => r,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(error(
                None,
                format!(
                    "Verilog needs Yosys, and `{}` was not found: install it with \
                     `apt-get install yosys` (scripts/setup does) or give its path with --yosys",
                    design.yosys.display()
                ),
            ))
        }
        Err(e) => {
            return Err(error(
                None,
                format!("cannot run {}: {e}", design.yosys.display()),
            ))
        }
    };
    let log =
        String::from_utf8_lossy(&run.stderr).into_owned() + &String::from_utf8_lossy(&run.stdout);
    if !run.status.success() {
        return Err(yosys_error(&top_file, &log));
    }
    for line in log.lines().filter(|l| l.starts_with("Warning:")) {
        eprintln!("warden: yosys: {line}");
    }
    let read = |p: &Path| {
        std::fs::read_to_string(p)
            .map_err(|e| error(None, format!("Yosys wrote no {}: {e}", p.display())))
    };
    let btor2 = name_anonymous_properties(&read(&out)?);
    if !btor2
        .lines()
        .any(|l| l.split_whitespace().nth(1) == Some("bad"))
    {
        return Err(error(
            None,
            "the design has no assertion (`assert`): there is nothing to check".into(),
        ));
    }
    let covers = read(&info.with_extension("covers"))?
        .split_whitespace()
        .find_map(|w| w.parse::<usize>().ok())
        .unwrap_or(0);
    Ok(Compiled {
        clocks: clock_inputs(&btor2, &read(&info)?),
        btor2,
        covers,
    })
}

/// The error of a failed Yosys run: its first `ERROR:` line, at the file and line it names
/// (`file.sv:3: ERROR: syntax error ...`), else at the top file.
fn yosys_error(top_file: &Path, log: &str) -> InputError {
    let line = log
        .lines()
        .find(|l| l.contains("ERROR:"))
        .unwrap_or("Yosys failed without an error message");
    let (place, message) = match line.split_once("ERROR:") {
        Some((place, message)) => (place.trim().trim_end_matches(':'), message.trim()),
        None => ("", line),
    };
    let located = place.rsplit_once(':').and_then(|(file, n)| {
        let n: usize = n.parse().ok()?;
        Some((PathBuf::from(file), n))
    });
    let message = match message.strip_prefix("Module `") {
        Some(rest) if rest.ends_with("' not found!") => format!(
            "top module `{}` not found (--top names the module to check)",
            rest.trim_end_matches("' not found!")
        ),
        _ => format!("yosys: {message}"),
    };
    match located {
        Some((path, n)) => InputError {
            path,
            position: Some(format!("line {n}")),
            message,
            unsupported: false,
        },
        None => InputError {
            path: top_file.to_owned(),
            position: None,
            message,
            unsupported: false,
        },
    }
}

/// Names every `bad` line by its assertion's label, else by the `file:line` of its source:
/// Yosys 0.23 gives an unlabelled assertion its source place `t.sv:36.9-36.50` as symbol (or
/// only as comment), which becomes `t.sv:36`.
fn name_anonymous_properties(btor2: &str) -> String {
    let mut out = String::with_capacity(btor2.len());
    for line in btor2.lines() {
        let (body, comment) = match line.split_once(';') {
            Some((b, c)) => (b.trim_end(), Some(c.trim())),
            None => (line, None),
        };
        let words: Vec<&str> = body.split_whitespace().collect();
        let name = match (words.as_slice(), comment) {
            ([_, "bad", _, symbol], _) => Some(*symbol),
            ([_, "bad", _], Some(src)) if !src.is_empty() => Some(src),
            _ => None,
        };
        match name {
            Some(name) => {
                let (id, node) = (words[0], words[2]);
                let name = source_line(name).replace(char::is_whitespace, "_");
                out.push_str(&format!("{id} bad {node} {name}\n"));
            }
            None => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

/// `file:line` of a Yosys source place `file:L.C-L.C` (the first of `|`-joined ones); any
/// other name as it is.
fn source_line(name: &str) -> &str {
    let first = name.split('|').next().unwrap_or(name);
    match first.rsplit_once(':') {
        Some((file, place)) if place.starts_with(|c: char| c.is_ascii_digit()) => {
            let line_end = place
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(place.len());
            &first[..file.len() + 1 + line_end]
        }
        _ => name,
    }
}

/// The names of the inputs that the info file of `write_btor -i` lists as clocks
/// (`posedge N`/`negedge N` with `N` an `input` node).
fn clock_inputs(btor2: &str, info: &str) -> Vec<String> {
    let ids: Vec<&str> = info
        .lines()
        .filter_map(|l| l.strip_prefix("posedge ").or(l.strip_prefix("negedge ")))
        .map(str::trim)
        .collect();
    let mut clocks = Vec::new();
    for line in btor2.lines() {
        let words: Vec<&str> = line
            .split(';')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        if let [id, "input", _, name] = words.as_slice() {
            if ids.contains(id) && !clocks.iter().any(|c: &String| c.as_str() == *name) {
                clocks.push(name.to_string());
            }
        }
    }
    clocks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anonymous_assertions_are_named_by_their_source_line() {
        let text = "18 bad 17 p_fails ; t.sv:34.9-34.40\n19 bad 17 ; t.sv:36.9-36.50\n\
                    20 bad 17 t.sv:6.11-6.24\n21 state 3 u.q ; t.sv:2\n";
        let named = name_anonymous_properties(text);
        assert_eq!(
            named,
            "18 bad 17 p_fails\n19 bad 17 t.sv:36\n20 bad 17 t.sv:6\n21 state 3 u.q ; t.sv:2\n"
        );
    }

    #[test]
    fn clocks_are_the_inputs_the_info_file_names() {
        let btor2 = "2 input 1 clk ; t.sv:1\n3 input 1 inc\n34 uext 1 2 0 u.clk\n";
        let info = "name top\nposedge 34\nposedge 2\n";
        assert_eq!(clock_inputs(btor2, info), vec!["clk".to_string()]);
    }

    #[test]
    fn errors_point_at_the_users_file_and_line() {
        let e = yosys_error(
            Path::new("top.sv"),
            "bad.sv:3: ERROR: syntax error, unexpected TOK_ASSIGN\n",
        );
        assert_eq!(e.path, Path::new("bad.sv"));
        assert_eq!(e.position.as_deref(), Some("line 3"));
        assert!(e.message.contains("syntax error"));
        let e = yosys_error(Path::new("top.sv"), "ERROR: Module `nosuch' not found!\n");
        assert_eq!(e.path, Path::new("top.sv"));
        assert!(
            e.message.contains("top module `nosuch` not found"),
            "{}",
            e.message
        );
    }
}
