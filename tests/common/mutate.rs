//! Deterministic input mutation, shared by the mutation fuzzer (`benches/fuzz/`) and the
//! mutated-corpus test (`tests/malformed.rs`). A stable-toolchain stand-in for `cargo fuzz`
//! (libFuzzer needs nightly): byte, line and token mutations plus splicing, with no coverage
//! feedback, so the mutations are biased toward what breaks line-oriented readers: numbers
//! at the edges of their range, lines removed, repeated or swapped, tokens moved between
//! lines, truncation.

/// xorshift64: small, deterministic, no dependency (the same run for the same seed).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // xorshift never leaves 0; mix the seed so that small seeds differ at once.
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Numbers at the edges of the ranges readers check: zero, widths, `u32`/`u64`/`i64`
/// limits and beyond, negative ones.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "-1",
    "3",
    "7",
    "8",
    "31",
    "32",
    "33",
    "63",
    "64",
    "65",
    "255",
    "256",
    "4096",
    "65536",
    "2147483647",
    "2147483648",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "99999999999999999999999999",
];

/// Tokens of the formats under test, so that mutations reach past the first syntax check.
const WORDS: &[&str] = &[
    "sort",
    "bitvec",
    "array",
    "state",
    "input",
    "init",
    "next",
    "bad",
    "constraint",
    "output",
    "const",
    "constd",
    "consth",
    "zero",
    "one",
    "ones",
    "ite",
    "read",
    "write",
    "uext",
    "sext",
    "slice",
    "concat",
    "add",
    "mul",
    "udiv",
    "sll",
    "eq",
    "and",
    "not",
    "redor",
    "fair",
    "justice",
    "aag",
    "aig",
    "i0",
    "l0",
    "o0",
    "b0",
    "c",
    "x",
    "#0",
    "@0",
    ".",
    "sat",
    "int",
    "unsigned",
    "char",
    "long",
    "if",
    "while",
    "for",
    "return",
    "{",
    "}",
    "(",
    ")",
    ";",
    "[",
    "]",
    "=",
    "*",
    "&",
    "/",
    "%",
    "<<",
    ">>",
    "?",
    ":",
    ",",
    "-",
    "!",
    "~",
    "'",
    "\"",
    "\\",
    "\t",
    "\r",
    "\0",
];

/// Splits `data` into lines that keep their `\n`.
fn lines(data: &[u8]) -> Vec<&[u8]> {
    data.split_inclusive(|&b| b == b'\n').collect()
}

/// The byte ranges of the whitespace-separated tokens of `data`.
fn tokens(data: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, &b) in data.iter().enumerate() {
        match (b.is_ascii_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, data.len()));
    }
    out
}

/// `data` with `range` replaced by `with`.
fn splice(data: &[u8], range: (usize, usize), with: &[u8]) -> Vec<u8> {
    let mut out = data[..range.0].to_vec();
    out.extend_from_slice(with);
    out.extend_from_slice(&data[range.1..]);
    out
}

/// A random sub-range of `0..len` (empty when `len` is 0).
fn range(rng: &mut Rng, len: usize) -> (usize, usize) {
    let a = rng.below(len + 1);
    let b = rng.below(len + 1);
    (a.min(b), a.max(b))
}

/// One mutation of `data`; `other` is a second input for splicing.
fn mutate_once(rng: &mut Rng, data: &[u8], other: &[u8]) -> Vec<u8> {
    let toks = tokens(data);
    let ls = lines(data);
    match rng.below(14) {
        // A number token becomes an edge value.
        0 | 1 if !toks.is_empty() => {
            let t = *rng.pick(&toks);
            splice(data, t, rng.pick(NUMBERS).as_bytes())
        }
        // A token becomes a keyword, another token of the file, or disappears.
        2 | 3 if !toks.is_empty() => {
            let t = *rng.pick(&toks);
            let with = match rng.below(3) {
                0 => rng.pick(WORDS).as_bytes().to_vec(),
                1 => {
                    let u = *rng.pick(&toks);
                    data[u.0..u.1].to_vec()
                }
                _ => Vec::new(),
            };
            splice(data, t, &with)
        }
        // A number is nudged by one (off-by-one ids, literals, widths).
        4 if !toks.is_empty() => {
            let t = *rng.pick(&toks);
            match std::str::from_utf8(&data[t.0..t.1])
                .ok()
                .and_then(|s| s.parse::<i128>().ok())
            {
                Some(n) => {
                    let m = if rng.below(2) == 0 { n + 1 } else { n - 1 };
                    splice(data, t, m.to_string().as_bytes())
                }
                None => data.to_vec(),
            }
        }
        // Line edits: delete, duplicate, swap two, insert one from `other`.
        5 if !ls.is_empty() => {
            let i = rng.below(ls.len());
            let mut out = ls.clone();
            match rng.below(4) {
                0 => {
                    out.remove(i);
                }
                1 => out.insert(i, ls[i]),
                2 => out.swap(i, rng.below(ls.len())),
                _ => {
                    let ol = lines(other);
                    if !ol.is_empty() {
                        out.insert(i, ol[rng.below(ol.len())]);
                    }
                }
            }
            out.concat()
        }
        // Truncation anywhere.
        6 => data[..rng.below(data.len() + 1)].to_vec(),
        // Splice: a prefix of `data` and a suffix of `other`.
        7 => {
            let mut out = data[..rng.below(data.len() + 1)].to_vec();
            out.extend_from_slice(&other[rng.below(other.len() + 1)..]);
            out
        }
        // Byte edits: flip a bit, set a byte, insert a byte.
        8 | 9 if !data.is_empty() => {
            let mut out = data.to_vec();
            let i = rng.below(out.len());
            match rng.below(3) {
                0 => out[i] ^= 1 << rng.below(8),
                1 => out[i] = rng.next() as u8,
                _ => out.insert(i, rng.next() as u8),
            }
            out
        }
        // A byte range is deleted or repeated.
        10 => {
            let r = range(rng, data.len());
            match rng.below(2) {
                0 => splice(data, r, &[]),
                _ => splice(data, (r.1, r.1), &data[r.0..r.1]),
            }
        }
        // A keyword is inserted at a token boundary (or the start).
        11 => {
            let at = match toks.is_empty() {
                true => 0,
                false => rng.pick(&toks).0,
            };
            let with = format!("{} ", rng.pick(WORDS));
            splice(data, (at, at), with.as_bytes())
        }
        // Two tokens swap places.
        12 if toks.len() > 1 => {
            let a = *rng.pick(&toks);
            let b = *rng.pick(&toks);
            let (a, b) = if a.0 <= b.0 { (a, b) } else { (b, a) };
            if a == b {
                return data.to_vec();
            }
            let mut out = data[..a.0].to_vec();
            out.extend_from_slice(&data[b.0..b.1]);
            out.extend_from_slice(&data[a.1..b.0]);
            out.extend_from_slice(&data[a.0..a.1]);
            out.extend_from_slice(&data[b.1..]);
            out
        }
        // A number grows by many digits.
        _ if !toks.is_empty() => {
            let t = *rng.pick(&toks);
            let mut with = data[t.0..t.1].to_vec();
            with.extend(std::iter::repeat_n(b'9', 1 + rng.below(30)));
            splice(data, t, &with)
        }
        _ => data.to_vec(),
    }
}

/// Between one and four stacked mutations of `data` (splicing with `other`).
pub fn mutate(rng: &mut Rng, data: &[u8], other: &[u8]) -> Vec<u8> {
    let mut out = data.to_vec();
    for _ in 0..1 + rng.below(4) {
        out = mutate_once(rng, &out, other);
    }
    out
}
