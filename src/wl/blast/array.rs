//! Arrays with small index sorts, expanded into one word per element: `read` is a mux tree
//! over the index bits, `write` updates every element under a decoded index.

use super::gates::{self, Word};
use crate::aig::{Aig, Lit};

/// The largest index width whose arrays are expanded (2^12 elements).
pub const MAX_INDEX_WIDTH: u32 = 12;
/// The largest number of bits an expanded array may hold.
pub const MAX_ARRAY_BITS: u64 = 1 << 16;

/// Why an array of this shape is too large to expand, if it is (it is then encoded lazily:
/// [`super::lazy`]).
pub fn too_large(index: u32, element: u32) -> Option<String> {
    if index > MAX_INDEX_WIDTH {
        return Some(format!("array with {index}-bit index"));
    }
    let bits = (1u64 << index) * element as u64;
    (bits > MAX_ARRAY_BITS).then(|| {
        format!(
            "array of 2^{index} elements of {element} bits ({bits} bits, more than \
             {MAX_ARRAY_BITS})"
        )
    })
}

/// The element at `index`: a binary tree of muxes, one level per index bit.
pub fn read(aig: &mut Aig, elements: &[Word], index: &[Lit]) -> Word {
    let mut level: Vec<Word> = elements.to_vec();
    for &bit in index {
        level = level
            .chunks(2)
            .map(|pair| gates::mux(aig, bit, &pair[1], &pair[0]))
            .collect();
    }
    level.swap_remove(0)
}

/// One literal per element, true exactly for the element `index` selects.
fn decode(aig: &mut Aig, index: &[Lit]) -> Vec<Lit> {
    let mut select = vec![Lit::TRUE];
    for &bit in index {
        let low: Vec<Lit> = select.iter().map(|&s| aig.and(s, !bit)).collect();
        let high: Vec<Lit> = select.iter().map(|&s| aig.and(s, bit)).collect();
        select = low.into_iter().chain(high).collect();
    }
    select
}

/// The array with `value` at `index`.
pub fn write(aig: &mut Aig, elements: &[Word], index: &[Lit], value: &[Lit]) -> Vec<Word> {
    let select = decode(aig, index);
    elements
        .iter()
        .zip(select)
        .map(|(e, s)| gates::mux(aig, s, value, e))
        .collect()
}

/// Extensional equality: every element equal.
pub fn eq(aig: &mut Aig, a: &[Word], b: &[Word]) -> Lit {
    let same: Vec<Lit> = a.iter().zip(b).map(|(x, y)| gates::eq(aig, x, y)).collect();
    aig.and_all(same)
}
