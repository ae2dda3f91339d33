//! One run of ABC on a transition system, as `warden compare` makes it: the system written as
//! the binary AIGER ABC reads ([`super::input`]), [`super::PREPARE`], ABC's network saved
//! (for its invariant), the engine command under a time limit, and the counterexample
//! (`write_cex -a`) or the invariant (`pdr -d -I`) saved beside it.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::{asserted, input, parse_verdict, write_binary, PREPARE};
use crate::ts::TransitionSystem;
use crate::verdict::Verdict;

/// How long ABC may go on after the time limit before it is killed. Its own `-T` does not
/// hold it there: on a loaded machine `pdr -T 20` was still running 30 s after its start
/// (measured on 4 of 20 eval-aiger circuits), so without this kill ABC would get more time
/// than warden.
const GRACE: Duration = Duration::from_secs(1);

/// The files of a run, in its working directory (ABC splits its script at spaces, so it
/// runs there and names them without a directory).
const MODEL: &str = "model.aig";
const NETWORK: &str = "abc-network.aig";
const CEX: &str = "abc.cex";
const INVARIANT: &str = "abc-invariant.pla";

/// What ABC answered.
#[derive(Clone, Debug)]
pub struct AbcRun {
    pub verdict: Verdict,
    /// For `sat`: the output and the frame ABC reports.
    pub asserted: Option<(usize, usize)>,
    /// Wall-clock time of the ABC process (writing its input not included).
    pub time: Duration,
    /// The counterexample file (`write_cex -a`), when ABC wrote one.
    pub cex: Option<String>,
    /// ABC's network (`write_aiger -s`) and invariant (PLA), when it wrote both.
    pub invariant: Option<(PathBuf, String)>,
    /// Why there is no verdict, when ABC failed or was killed.
    pub note: Option<String>,
}

/// The ABC commands `--abc-cmd` may name: engines that answer in the words
/// [`super::parse_verdict`] reads.
pub const ENGINES: [&str; 5] = ["pdr", "bmc3", "bmc2", "int", "dprove"];

/// Checks an engine command of the user's: one of [`ENGINES`] followed by options (`-T`) and
/// numbers only. Anything else (a `;`, a file name, another command such as
/// `write_verilog F` or `source F`) is refused: the command is pasted into ABC's script.
pub fn check_command(cmd: &str) -> Result<(), String> {
    let mut words = cmd.split_whitespace();
    let engine = words.next().unwrap_or("");
    let option = |w: &str| {
        w.strip_prefix('-')
            .is_some_and(|o| !o.is_empty() && o.chars().all(|c| c.is_ascii_alphabetic()))
    };
    let number = |w: &str| {
        !w.is_empty()
            && w.chars().all(|c| c.is_ascii_digit() || c == '.')
            && w.parse::<f64>().is_ok()
    };
    if !ENGINES.contains(&engine) {
        return Err(format!(
            "the ABC command {cmd:?} must start with one of {}",
            ENGINES.join(", ")
        ));
    }
    match words.find(|w| !option(w) && !number(w)) {
        Some(w) => Err(format!(
            "the ABC command {cmd:?} may have options (-T) and numbers only, not {w:?}"
        )),
        None => Ok(()),
    }
}

/// The engine command with the time limit and, for `pdr`, the invariant dump added unless
/// the user's command already has them.
pub fn engine_command(cmd: &str, timeout: Option<Duration>) -> String {
    let mut engine = cmd.trim().to_owned();
    let words: Vec<&str> = cmd.split_whitespace().collect();
    if let (Some(t), false) = (timeout, words.contains(&"-T")) {
        engine += &format!(" -T {}", t.as_secs_f64().ceil().max(1.0) as u64);
    }
    if words.first() == Some(&"pdr") && !words.contains(&"-d") && !words.contains(&"-I") {
        engine += &format!(" -d -I {INVARIANT}");
    }
    engine
}

/// Runs ABC (`bin`) with the engine command `cmd` on `ts` in the directory `dir`, killed
/// `GRACE` after `timeout`.
pub fn run(
    bin: &Path,
    ts: &TransitionSystem,
    cmd: &str,
    timeout: Option<Duration>,
    dir: &Path,
) -> Result<AbcRun, String> {
    check_command(cmd)?;
    write_binary(&input(ts), &dir.join(MODEL))?;
    let script = format!(
        "read {MODEL}; {PREPARE}; write_aiger -s {NETWORK}; {}; write_cex -a {CEX}",
        engine_command(cmd, timeout)
    );
    let out = std::fs::File::create(dir.join("abc.out")).map_err(|e| e.to_string())?;
    let start = Instant::now();
    let mut child = Command::new(bin)
        .arg("-c")
        .arg(&script)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
    let limit = timeout.map(|t| t + GRACE);
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break Some(status);
        }
        if limit.is_some_and(|l| start.elapsed() >= l) {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let time = start.elapsed();
    let stdout = std::fs::read_to_string(dir.join("abc.out")).unwrap_or_default();
    let verdict = parse_verdict(&stdout);
    let note = match status {
        None => Some(format!("killed {} s after the time limit", GRACE.as_secs())),
        Some(s) if !s.success() => Some(format!("ABC exited with {s}")),
        Some(_) if verdict == Verdict::Unknown => {
            let last = stdout.lines().rev().find(|l| !l.trim().is_empty());
            last.map(|l| l.trim().to_owned())
        }
        Some(_) => None,
    };
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).ok();
    let invariant = match (verdict, read(INVARIANT)) {
        (Verdict::Unsat, Some(pla)) => Some((dir.join(NETWORK), pla)),
        _ => None,
    };
    Ok(AbcRun {
        verdict,
        asserted: asserted(&stdout),
        time,
        cex: (verdict == Verdict::Sat).then(|| read(CEX)).flatten(),
        invariant,
        note,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_engine_command_gets_the_limit_and_the_invariant_dump() {
        let t = Some(Duration::from_secs(20));
        assert_eq!(
            engine_command("pdr", t),
            format!("pdr -T 20 -d -I {INVARIANT}")
        );
        assert_eq!(
            engine_command("pdr -T 5", t),
            format!("pdr -T 5 -d -I {INVARIANT}")
        );
        assert_eq!(engine_command("bmc3 -F 9", t), "bmc3 -F 9 -T 20");
        assert_eq!(engine_command("bmc3", None), "bmc3");
    }

    #[test]
    fn only_an_engine_with_options_and_numbers_reaches_abc() {
        for ok in ["pdr", "pdr -T 5", "bmc3 -F 9 -T 2.5", "int", "dprove -v"] {
            assert!(check_command(ok).is_ok(), "{ok}");
        }
        for bad in [
            "pdr; write_aiger F",
            "write_verilog F",
            "source F",
            "pdr -I /tmp/inv.pla",
            "bmc3 -L log",
            "",
            "pdr -T 5;",
        ] {
            assert!(check_command(bad).is_err(), "{bad}");
        }
    }
}
