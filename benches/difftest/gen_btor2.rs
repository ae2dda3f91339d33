//! Random BTOR2 models: bit-vector states and inputs of many widths (1 to 64 bits), the
//! operators of the format (arithmetic, division, shifts, rotations, comparisons, overflow
//! flags, reductions, slices, extensions, concatenation, `ite`), sometimes one array state
//! read and written at random indices, states initialised to constants or left
//! uninitialised, one or two bad properties and sometimes a constraint. Half of all shift
//! and rotation amounts have high bits set, where btorsim reads them otherwise than SMT-LIB.
//!
//! As for AIGER circuits, bad properties often compare a state with a constant or conjoin
//! two conditions, so that they are not all reached in frame 0.

use std::fmt::Write as _;

use super::rng::Rng;

/// Widths a model draws its sorts from (33, 48 and 63: past 32 bits, where btorsim's left
/// shifts drop bits of their amount, and not powers of two); multiplication and division
/// only at up to 16 bits, where bit-blasting them stays small.
const WIDTHS: [u32; 15] = [1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 32, 33, 48, 63, 64];
const ARITH_MAX: u32 = 16;

const UNARY: [&str; 7] = ["not", "inc", "dec", "neg", "redand", "redor", "redxor"];
const SAME: [&str; 14] = [
    "and", "nand", "nor", "or", "xnor", "xor", "add", "sub", "sll", "srl", "sra", "rol", "ror",
    "mul",
];
const SHIFTS: [&str; 5] = ["sll", "srl", "sra", "rol", "ror"];
const DIV: [&str; 5] = ["udiv", "urem", "sdiv", "srem", "smod"];
const PRED: [&str; 10] = [
    "eq", "neq", "sgt", "sgte", "slt", "slte", "ugt", "ugte", "ult", "ulte",
];
/// The overflow predicates; btorsim does not implement them ("unsupported"), so only some
/// models use them, and btorsim does not replay those models' witnesses.
const OVERFLOW: [&str; 7] = [
    "uaddo", "saddo", "usubo", "ssubo", "umulo", "smulo", "sdivo",
];

/// A random model.
pub struct Btor2 {
    pub text: String,
    /// Whether btorsim can replay its witnesses: not when it uses the overflow predicates
    /// (unsupported by btorsim).
    pub btorsim: bool,
}

/// A random BTOR2 model; `ops` bounds its number of operator nodes.
pub fn generate(rng: &mut Rng, ops: usize) -> Btor2 {
    let mut m = Model {
        overflow: rng.chance(15),
        ..Model::default()
    };
    let widths: Vec<u32> = (0..rng.range(1, 3)).map(|_| *rng.pick(&WIDTHS)).collect();
    for _ in 0..rng.range(0, 3) {
        let w = *rng.pick(&widths);
        let s = m.sort(w);
        let id = m.node(&format!("input {s}"));
        m.pool.push((id, w));
    }
    let mut states = Vec::new();
    for _ in 0..rng.range(1, 4) {
        let w = *rng.pick(&widths);
        // btorsim wants an init value's id below its state's.
        let init = rng.chance(75).then(|| m.constant(rng, w));
        let s = m.sort(w);
        let id = m.node(&format!("state {s}"));
        if let Some(c) = init {
            m.node(&format!("init {s} {id} {c}"));
        }
        m.pool.push((id, w));
        states.push((id, w));
    }
    let array = rng.chance(25).then(|| m.array_state(rng));
    for _ in 0..rng.range(1, ops.max(1)) {
        m.operation(rng);
    }
    for &(id, w) in &states {
        let next = m.term_of_width(rng, w, true);
        let s = m.sort(w);
        m.node(&format!("next {s} {id} {next}"));
    }
    if let Some((arr, sort, idx_w, elem_w)) = array {
        let (i, v) = (
            m.term_of_width(rng, idx_w, false),
            m.term_of_width(rng, elem_w, false),
        );
        let written = m.node(&format!("write {sort} {arr} {i} {v}"));
        let cond = m.term_of_width(rng, 1, false);
        let next = m.node(&format!("ite {sort} {cond} {written} {arr}"));
        m.node(&format!("next {sort} {arr} {next}"));
    }
    for _ in 0..rng.range(1, 2) {
        let b = m.bad_condition(rng, &states);
        m.node(&format!("bad {b}"));
    }
    if rng.chance(30) {
        let c = m.term_of_width(rng, 1, true);
        // Not `constraint -c`: btorsim indexes its values by the negative id and aborts.
        let lit = match rng.chance(50) {
            true => {
                let b = m.sort(1);
                m.node(&format!("not {b} {c}"))
            }
            false => c,
        };
        m.node(&format!("constraint {lit}"));
    }
    Btor2 {
        btorsim: !m.used_overflow,
        text: m.text,
    }
}

#[derive(Default)]
struct Model {
    text: String,
    last: usize,
    sorts: Vec<(u32, usize)>,
    /// Bit-vector terms: (node id, width).
    pool: Vec<(usize, u32)>,
    /// Whether overflow predicates may be used, and whether one was.
    overflow: bool,
    used_overflow: bool,
}

impl Model {
    fn node(&mut self, body: &str) -> usize {
        self.last += 1;
        let _ = writeln!(self.text, "{} {body}", self.last);
        self.last
    }

    fn sort(&mut self, w: u32) -> usize {
        if let Some(&(_, id)) = self.sorts.iter().find(|(sw, _)| *sw == w) {
            return id;
        }
        let id = self.node(&format!("sort bitvec {w}"));
        self.sorts.push((w, id));
        id
    }

    fn constant(&mut self, rng: &mut Rng, w: u32) -> usize {
        let s = self.sort(w);
        match rng.range(0, 4) {
            0 => self.node(&format!("zero {s}")),
            1 => self.node(&format!("one {s}")),
            2 => self.node(&format!("ones {s}")),
            _ => {
                let bits: String = (0..w).map(|_| *rng.pick(&['0', '1'])).collect();
                self.node(&format!("const {s} {bits}"))
            }
        }
    }

    /// The amount of a shift or rotation of width `w`, one of four kinds alike: a term as any
    /// other operand, a small constant ([`Self::small_amount`]), a small constant with high
    /// bits set ([`high_bits`]), or a term with high bits or-ed in. High bits (the top bit,
    /// bits 32 to 63) are where btorsim's `sll` and rotations read an amount otherwise than
    /// SMT-LIB does, so that half of the amounts have them.
    fn shift_amount(&mut self, rng: &mut Rng, w: u32) -> String {
        let s = self.sort(w);
        match rng.range(0, 3) {
            0 => {
                let b = self.term_of_width(rng, w, false);
                negated_sometimes(rng, b)
            }
            1 => self.small_amount(rng, w).to_string(),
            2 => {
                let k = rng.range(0, w as usize + 1) as u64 | high_bits(rng, w);
                self.node(&format!("const {s} {}", binary(k, w)))
                    .to_string()
            }
            _ => {
                let b = self.term_of_width(rng, w, false);
                let high = self.node(&format!("const {s} {}", binary(high_bits(rng, w), w)));
                self.node(&format!("or {s} {b} {high}")).to_string()
            }
        }
    }

    /// A constant amount from 0 to `w + 1` for the width `w` (modulo `2^w`): a rotation, and
    /// the edges where btorsim's rotations stop rotating (`w` gives the operand, larger
    /// amounts 0). Never negated: `-k` of a small constant is a large amount again.
    fn small_amount(&mut self, rng: &mut Rng, w: u32) -> usize {
        let s = self.sort(w);
        let k = rng.range(0, w as usize + 1) as u64;
        let k = if w < 64 { k & ((1 << w) - 1) } else { k };
        self.node(&format!("constd {s} {k}"))
    }

    /// An array state (index 1 to 3 bits, element 1 to 8 bits), sometimes initialised to a
    /// constant array, with a read of it in the pool: (id, array sort, index and element
    /// widths).
    fn array_state(&mut self, rng: &mut Rng) -> (usize, usize, u32, u32) {
        let (iw, ew) = (rng.range(1, 3) as u32, rng.range(1, 8) as u32);
        let (is, es) = (self.sort(iw), self.sort(ew));
        let sort = self.node(&format!("sort array {is} {es}"));
        let init = rng.chance(60).then(|| self.constant(rng, ew));
        let arr = self.node(&format!("state {sort}"));
        if let Some(c) = init {
            self.node(&format!("init {sort} {arr} {c}"));
        }
        for _ in 0..rng.range(1, 2) {
            let i = self.term_of_width(rng, iw, false);
            let r = self.node(&format!("read {es} {arr} {i}"));
            self.pool.push((r, ew));
        }
        (arr, sort, iw, ew)
    }

    /// A term of the pool, recent ones preferred.
    fn any(&self, rng: &mut Rng) -> (usize, u32) {
        let n = self.pool.len();
        if rng.chance(50) {
            self.pool[rng.range(n.saturating_sub(6), n - 1)]
        } else {
            *rng.pick(&self.pool)
        }
    }

    /// A term of width `w`: one of the pool, or one cut or extended to `w` (or a constant,
    /// unless `fresh_only` asks for a term of the pool's logic).
    fn term_of_width(&mut self, rng: &mut Rng, w: u32, fresh_only: bool) -> usize {
        let fits: Vec<usize> = (self.pool.iter())
            .filter(|(_, tw)| *tw == w)
            .map(|(id, _)| *id)
            .collect();
        if !fits.is_empty() && rng.chance(70) {
            let n = fits.len();
            let from = rng.range(0, n - 1).min(n.saturating_sub(4));
            return fits[rng.range(from, n - 1)];
        }
        if !fresh_only && rng.chance(20) {
            return self.constant(rng, w);
        }
        let (id, tw) = self.any(rng);
        self.resize(rng, id, tw, w)
    }

    fn resize(&mut self, rng: &mut Rng, id: usize, from: u32, to: u32) -> usize {
        let s = self.sort(to);
        if from > to {
            let lower = rng.range(0, (from - to) as usize) as u32;
            self.node(&format!("slice {s} {id} {} {lower}", lower + to - 1))
        } else if from < to {
            let ext = if rng.chance(50) { "uext" } else { "sext" };
            self.node(&format!("{ext} {s} {id} {}", to - from))
        } else {
            id
        }
    }

    /// One random operator node over the pool, added to the pool.
    fn operation(&mut self, rng: &mut Rng) {
        let (a, w) = self.any(rng);
        let neg = negated_sometimes;
        let (body, width) = match rng.range(0, 9) {
            0 => {
                let op = *rng.pick(&UNARY);
                let rw = if op.starts_with("red") { 1 } else { w };
                (format!("{op} {} {}", self.sort(rw), neg(rng, a)), rw)
            }
            1..=3 => {
                let op = if w <= ARITH_MAX && rng.chance(30) {
                    *rng.pick(&DIV)
                } else {
                    *rng.pick(&SAME[..SAME.len() - usize::from(w > ARITH_MAX)])
                };
                let (sa, sb) = if SHIFTS.contains(&op) {
                    (neg(rng, a), self.shift_amount(rng, w))
                } else {
                    let b = self.term_of_width(rng, w, false);
                    (neg(rng, a), neg(rng, b))
                };
                (format!("{op} {} {sa} {sb}", self.sort(w)), w)
            }
            4 | 5 => {
                let op = if self.overflow && rng.chance(40) {
                    self.used_overflow = true;
                    *rng.pick(&OVERFLOW[..OVERFLOW.len() - 3 * usize::from(w > ARITH_MAX)])
                } else {
                    *rng.pick(&PRED)
                };
                let b = self.term_of_width(rng, w, false);
                (format!("{op} {} {a} {b}", self.sort(1)), 1)
            }
            6 => {
                let c = self.term_of_width(rng, 1, false);
                let b = self.term_of_width(rng, w, false);
                (format!("ite {} {c} {a} {b}", self.sort(w)), w)
            }
            7 => {
                let (b, bw) = self.any(rng);
                if w + bw > 64 {
                    return;
                }
                (format!("concat {} {a} {b}", self.sort(w + bw)), w + bw)
            }
            8 => {
                let to = rng.range(1, 64) as u32;
                (String::new(), to)
            }
            _ => {
                let (b, bw) = self.any(rng);
                let s = self.sort(1);
                let op = *rng.pick(&["and", "or", "xor", "implies", "iff"]);
                let (x, y) = (self.resize(rng, a, w, 1), self.resize(rng, b, bw, 1));
                (format!("{op} {s} {x} {y}"), 1)
            }
        };
        let id = if body.is_empty() {
            self.resize(rng, a, w, width)
        } else {
            self.node(&body)
        };
        self.pool.push((id, width));
    }

    /// A bad-state condition: a state equal to a constant, a pool condition, or the
    /// conjunction of two.
    fn bad_condition(&mut self, rng: &mut Rng, states: &[(usize, u32)]) -> usize {
        let one = |m: &mut Model, rng: &mut Rng| {
            if rng.chance(50) {
                let (s, w) = *rng.pick(states);
                let c = m.constant(rng, w);
                let op = *rng.pick(&["eq", "ugte", "sgt", "ulte"]);
                let b = m.sort(1);
                m.node(&format!("{op} {b} {s} {c}"))
            } else {
                m.term_of_width(rng, 1, true)
            }
        };
        let first = one(self, rng);
        if rng.chance(40) {
            let second = one(self, rng);
            let b = self.sort(1);
            self.node(&format!("and {b} {first} {second}"))
        } else {
            first
        }
    }
}

/// The operand `id`, negated one time in ten.
fn negated_sometimes(rng: &mut Rng, id: usize) -> String {
    if rng.chance(10) {
        format!("-{id}")
    } else {
        id.to_string()
    }
}

/// One to three high bits of a `w`-bit amount, each the top bit, a bit from 32 to 63 (past
/// 32 bits) or any bit above those that small amounts (up to `w + 1`) use.
fn high_bits(rng: &mut Rng, w: u32) -> u64 {
    let above_small = (u64::BITS - (u64::from(w) + 1).leading_zeros()).min(w - 1);
    (0..rng.range(1, 3)).fold(0, |bits, _| {
        let bit = match rng.range(0, 2) {
            0 => w - 1,
            1 if w > 32 => rng.range(32, w as usize - 1) as u32,
            _ => rng.range(above_small as usize, w as usize - 1) as u32,
        };
        bits | 1 << bit
    })
}

/// `value` (cut to `w` bits) as the `w` binary digits of a `const`.
fn binary(value: u64, w: u32) -> String {
    (0..w)
        .rev()
        .map(|i| if value >> i & 1 == 1 { '1' } else { '0' })
        .collect()
}
