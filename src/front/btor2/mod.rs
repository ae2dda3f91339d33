//! The BTOR2 front end: the word-level format of the HWMCC bit-vector tracks and of Yosys's
//! `write_btor`, parsed into a [`crate::wl::Model`], plus btorsim-format witnesses.
//!
//! The whole format is read: bit-vector and array sorts, `input`/`state`/`init`/`next`, the
//! constants (`const`, `constd`, `consth`, `zero`, `one`, `ones`), every indexed, unary,
//! binary and ternary operator, `bad`/`constraint`/`fair`/`justice`/`output`, negated operand
//! ids, symbols and `;` comments. Every node's declared sort is checked against its operands;
//! an error names the line, the node id and the expected and found sorts.
//!
//! Why our own parser and not the `btor2tools` crate (which wraps the C reference parser):
//! evaluated on this project's machine (2 cores), `btor2tools 1.1.0` does not build from a
//! fresh checkout: its `btor2tools-sys` build script runs the C project's `configure.sh`, which
//! needs `cmake` (not installed: "cmake: command not found", build fails after 21 s), plus
//! bindgen 0.55 with libclang. Beyond the build, its API only opens files by path (`fopen`),
//! its errors are the C parser's strings without the node id or a structured sort mismatch,
//! and it reports a zeroed array sort for lines without a sort. The format is small (one line
//! per node, ~70 tags), so a Rust parser costs a few hundred lines and gives exact error
//! positions, no C toolchain, and direct construction of the sort-checked model.

mod parse;
mod witness;

pub use parse::{parse, parse_with, ParseError, Shifts};
pub use witness::{parse_witness, write_witness, write_witness_as, Witness};

/// Whether `data` looks like BTOR2 rather than AIGER: AIGER files start with `aag `/`aig `;
/// BTOR2 lines start with a node id, a `;` comment, or are blank.
pub fn looks_like_btor2(data: &[u8]) -> bool {
    let first = data
        .split(|&b| b == b'\n')
        .map(|l| l.trim_ascii())
        .find(|l| !l.is_empty());
    match first {
        Some(l) => l[0] == b';' || l[0].is_ascii_digit(),
        None => false,
    }
}

#[cfg(test)]
mod tests;
