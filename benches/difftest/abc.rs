//! The ABC side of the differential tester (and its test slice, `tests/difftest.rs`): the
//! library's ABC support ([`warden::abc`]: script, verdicts, binary AIGER), plus the
//! bit-blasting of BTOR2 models by the `warden blast` binary (so ABC checks the same system
//! the binary does). The corpus runner has ABC run by `warden batch --vs abc`.

use std::path::Path;

pub use warden::abc::{convert_to_binary, find_binary, parse_verdict, AbcCmd};
pub use warden::cli::batch::tool::blast_with;

/// Writes the bit-blasted system of the BTOR2 file `src` to `dst` as binary AIGER with
/// `warden blast` (the same system `warden check` runs its engines on).
pub fn blast(warden: &Path, src: &Path, dst: &Path) -> Result<(), String> {
    blast_with(warden, src, dst, &[])
}
