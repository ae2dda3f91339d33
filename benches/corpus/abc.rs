//! The ABC side of the corpus runner and the differential tester: the library's ABC
//! support ([`warden::abc`]: script, verdicts, binary AIGER), plus the bit-blasting of
//! BTOR2 models by the `warden blast` binary (so the runners check the same system the
//! binary does).

use std::path::Path;

pub use warden::abc::{convert_to_binary, find_binary, parse_verdict, AbcCmd};
pub use warden::cli::batch::tool::blast_with;

/// Writes the bit-blasted system of the BTOR2 file `src` to `dst` as binary AIGER with
/// `warden blast` (the same system `warden check` runs its engines on).
pub fn blast(warden: &Path, src: &Path, dst: &Path) -> Result<(), String> {
    blast_with(warden, src, dst, &[])
}
