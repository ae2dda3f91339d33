//! The ABC side of the corpus runner and the differential tester: the library's ABC
//! support ([`warden::abc`]: script, verdicts, binary AIGER), plus the bit-blasting of
//! BTOR2 models by the `warden blast` binary (so the runners check the same system the
//! binary does).

use std::path::Path;

pub use warden::abc::{convert_to_binary, find_binary, parse_verdict, AbcCmd};

/// Writes the bit-blasted system of the BTOR2 file `src` to `dst` as binary AIGER with
/// `warden blast` (the same system `warden check` runs its engines on).
pub fn blast(warden: &Path, src: &Path, dst: &Path) -> Result<(), String> {
    blast_with(warden, src, dst, &[])
}

/// [`blast`] with extra `warden blast` flags (e.g. `--wl-simplify false`).
pub fn blast_with(warden: &Path, src: &Path, dst: &Path, flags: &[&str]) -> Result<(), String> {
    let out = std::process::Command::new(warden)
        .arg("blast")
        .arg(src)
        .arg(dst)
        .args(flags)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", warden.display()))?;
    if out.status.success() {
        Ok(())
    } else {
        let err = String::from_utf8_lossy(&out.stderr);
        Err(err
            .lines()
            .next()
            .unwrap_or("warden blast failed")
            .to_owned())
    }
}
