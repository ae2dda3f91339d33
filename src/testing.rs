//! Helpers shared by the unit tests.

pub(crate) use crate::rng::Rng;
use crate::wl::{Binary, BitVec};

use std::sync::atomic::{AtomicUsize, Ordering};

/// The model of the C program `text`, read through a file of its own (the front end reads
/// files), as `warden check` reads it.
pub(crate) fn load_c_program(text: &str) -> crate::front::Model {
    load_c_program_with(text, &crate::front::LoadOptions::default())
}

/// [`load_c_program`] with load options (e.g. the single-statement CFA).
pub(crate) fn load_c_program_with(
    text: &str,
    options: &crate::front::LoadOptions,
) -> crate::front::Model {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "warden-c-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("p.c");
    std::fs::write(&file, text).unwrap();
    let model = crate::front::load_with(&file, options, &crate::Budget::new(None)).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    model
}

/// The shift and rotation operators, whose amounts [`shift_amounts`] draws.
pub(crate) const SHIFTS: [Binary; 5] = [
    Binary::Sll,
    Binary::Srl,
    Binary::Sra,
    Binary::Rol,
    Binary::Ror,
];

/// Amounts of `w`-bit shifts and rotations where btorsim's readings part from SMT-LIB's or
/// from a rotation modulo the width: around the width, all ones, the top bit and bits 32, 63
/// and 64 each with small low bits, `w` minus each of those (the amount of a rotation's other
/// shift), and two random ones.
pub(crate) fn shift_amounts(w: u32, rng: &mut Rng) -> Vec<BitVec> {
    let small = |k: u64| BitVec::from_u64(w, k);
    let bit = |i: u32| small(1).shl(i.min(w));
    let width = small(u64::from(w));
    let mut out = vec![
        small(0),
        small(1),
        small(u64::from(w) - 1),
        small(u64::from(w) + 1),
    ];
    out.push(BitVec::ones(w));
    for high in [bit(w - 1), bit(32), bit(63), bit(64)] {
        for low in [small(0), small(1), small(u64::from(w / 2))] {
            let b = high.or(&low);
            out.push(width.sub(&b));
            out.push(b);
        }
    }
    for _ in 0..2 {
        let bits: Vec<bool> = (0..w).map(|_| rng.next_u64() & 1 == 1).collect();
        out.push(BitVec::from_bits(&bits));
    }
    out.sort();
    out.dedup();
    out
}

/// A saturating 8-bit counter `c` (0 up to 100, then it stays) and the bad state `c > 200`:
/// safe, and the word-level atoms `c < 100` and `c > 200` prove it.
pub(crate) const SATURATING_COUNTER: &str = "\
1 sort bitvec 8
2 sort bitvec 1
3 zero 1
4 state 1 c
5 init 1 4 3
6 constd 1 100
7 ult 2 4 6
8 one 1
9 add 1 4 8
10 ite 1 7 9 4
11 next 1 4 10
12 constd 1 200
13 ugt 2 4 12
14 bad 13
";
