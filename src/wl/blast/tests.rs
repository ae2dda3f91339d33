//! Property tests: the circuits of the blaster against the word-level semantics of
//! [`crate::wl::eval`], on random and corner-case operands, for every operator and every width
//! from 1 to 65 (one limb, the limb boundary, and past it).

use super::*;
use crate::aig::simulate_frame;
use crate::wl::{eval, ArrayValue, Binary, BitVec, Unary, Value};

use crate::testing::Rng;

/// Random operands for the property tests.
trait RandomBitVec {
    fn bitvec(&mut self, w: u32) -> BitVec;
}

impl RandomBitVec for Rng {
    /// A value of width `w`: a quarter of the time a corner case (0, 1, all ones, the
    /// smallest and the largest signed number), else uniformly random bits.
    fn bitvec(&mut self, w: u32) -> BitVec {
        let min_signed = {
            let mut v = BitVec::zero(w);
            v.set_bit(w - 1, true);
            v
        };
        match self.next_u64() % 20 {
            0 => BitVec::zero(w),
            1 => BitVec::from_u64(w, 1),
            2 => BitVec::ones(w),
            3 => min_signed.clone(),
            4 => min_signed.not(),
            _ => {
                let bits: Vec<bool> = (0..w).map(|_| self.next_u64() & 1 == 1).collect();
                BitVec::from_bits(&bits)
            }
        }
    }
}

fn leaves(aig: &mut Aig, w: u32) -> Word {
    (0..w).map(|_| aig.new_leaf().lit()).collect()
}

/// The value of `word` given the values of all AIG variables.
fn read(values: &[bool], word: &[Lit]) -> BitVec {
    let bits: Vec<bool> = word
        .iter()
        .map(|l| values[l.var().index()] ^ l.is_negated())
        .collect();
    BitVec::from_bits(&bits)
}

type Reference = Box<dyn Fn(&BitVec, &BitVec) -> BitVec>;

#[test]
fn every_operator_matches_the_semantics_at_widths_1_to_65() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for w in 1..=65u32 {
        let mut aig = Aig::new();
        let a = leaves(&mut aig, w);
        let b = leaves(&mut aig, w);
        let mut circuits: Vec<(String, Word, Reference)> = Vec::new();
        for u in Unary::ALL {
            let out = ops::unary(&mut aig, u, &a);
            circuits.push((
                u.name().into(),
                out,
                Box::new(move |x, _| eval::unary(u, x)),
            ));
        }
        for op in Binary::ALL {
            if matches!(op, Binary::Iff | Binary::Implies) && w != 1 {
                continue;
            }
            let out = ops::binary(&mut aig, op, &a, &b);
            circuits.push((
                op.name().into(),
                out,
                Box::new(move |x, y| eval::binary(op, x, y)),
            ));
        }
        for _ in 0..8 {
            let (x, y) = (rng.bitvec(w), rng.bitvec(w));
            let leaf_values: Vec<bool> = x.bits().chain(y.bits()).collect();
            let values = simulate_frame(&aig, |v| leaf_values[v.index() - 1]);
            for (name, out, reference) in &circuits {
                assert_eq!(
                    read(&values, out),
                    reference(&x, &y),
                    "{name} at width {w} on {x:?}, {y:?}"
                );
            }
        }
    }
}

/// The overflow flags of products, on every pair of operands at widths 1 to 6 (their
/// encodings have edge cases at the extremes that random values rarely hit).
#[test]
fn product_overflow_flags_match_the_semantics_on_every_pair() {
    for w in 1..=6u32 {
        let mut aig = Aig::new();
        let a = leaves(&mut aig, w);
        let b = leaves(&mut aig, w);
        let ops = [Binary::Smulo, Binary::Umulo];
        let outs: Vec<Word> = ops
            .iter()
            .map(|&op| ops::binary(&mut aig, op, &a, &b))
            .collect();
        for x in 0..1u64 << w {
            for y in 0..1u64 << w {
                let (x, y) = (BitVec::from_u64(w, x), BitVec::from_u64(w, y));
                let leaf_values: Vec<bool> = x.bits().chain(y.bits()).collect();
                let values = simulate_frame(&aig, |v| leaf_values[v.index() - 1]);
                for (&op, out) in ops.iter().zip(&outs) {
                    let want = eval::binary(op, &x, &y);
                    assert_eq!(
                        read(&values, out),
                        want,
                        "{op:?} at width {w} on {x:?}, {y:?}"
                    );
                }
            }
        }
    }
    // At C's widths, the products around the range's ends.
    for w in [32u32, 64] {
        let mut aig = Aig::new();
        let a = leaves(&mut aig, w);
        let b = leaves(&mut aig, w);
        let out = ops::binary(&mut aig, Binary::Smulo, &a, &b);
        let h = 1i128 << (w / 2 - 1);
        let edges = [0, 1, -1, 2, -2, h, 2 * h, -h, -2 * h, h + 1, -h - 1, h - 1];
        let ends = [
            1i128 << (w - 1),
            (1i128 << (w - 1)) - 1,
            -(1i128 << (w - 1)),
        ];
        for &x in edges.iter().chain(&ends) {
            for &y in edges.iter().chain(&ends) {
                let bv = |v: i128| BitVec::from_u64(w, v as u64);
                let (x, y) = (bv(x), bv(y));
                let leaf_values: Vec<bool> = x.bits().chain(y.bits()).collect();
                let values = simulate_frame(&aig, |v| leaf_values[v.index() - 1]);
                let want = eval::binary(Binary::Smulo, &x, &y);
                assert_eq!(
                    read(&values, &out),
                    want,
                    "smulo at width {w} on {x:?}, {y:?}"
                );
            }
        }
    }
}

#[test]
fn array_reads_and_writes_match_the_semantics() {
    let mut rng = Rng(42);
    for (index, element) in [(1u32, 1u32), (2, 5), (3, 8), (4, 3)] {
        let mut aig = Aig::new();
        let elements: Vec<Word> = (0..1 << index).map(|_| leaves(&mut aig, element)).collect();
        let i = leaves(&mut aig, index);
        let v = leaves(&mut aig, element);
        let read_out = array::read(&mut aig, &elements, &i);
        let written = array::write(&mut aig, &elements, &i, &v);
        for _ in 0..20 {
            let contents: Vec<BitVec> = (0..1 << index).map(|_| rng.bitvec(element)).collect();
            let (iv, vv) = (rng.bitvec(index), rng.bitvec(element));
            let leaf_values: Vec<bool> = contents
                .iter()
                .flat_map(|c| c.bits().collect::<Vec<_>>())
                .chain(iv.bits())
                .chain(vv.bits())
                .collect();
            let values = simulate_frame(&aig, |var| leaf_values[var.index() - 1]);
            let mut reference = ArrayValue::constant(index, BitVec::zero(element));
            for (j, c) in contents.iter().enumerate() {
                reference.set(&BitVec::from_u64(index, j as u64), c);
            }
            assert_eq!(read(&values, &read_out), reference.read(&iv));
            let after = reference.write(&iv, &vv);
            for (j, w) in written.iter().enumerate() {
                assert_eq!(
                    read(&values, w),
                    after.read(&BitVec::from_u64(index, j as u64))
                );
            }
        }
    }
}

/// btorsim's shifts and rotations (`btorsim_bv_sll` ... `btorsim_bv_ror` in btor2tools) on
/// words of at most 127 bits, transcribed from its C code independently of [`BitVec`]: `srl`
/// by at least `w` gives 0; `sll` gives 0 when a bit of the amount from 64 up is set, else
/// shifts by the low 64 bits cast to `uint32_t` (0 from `w` on); `sra` of a negative word is
/// the complement of `srl` of its complement; `rol` is `sll(a, b) | srl(a, w - b)` and `ror`
/// `srl(a, b) | sll(a, w - b)`, `w - b` modulo `2^w`.
fn btorsim(op: Binary, w: u32, a: u128, b: u128) -> u128 {
    let mask = u128::MAX >> (128 - w);
    let srl = |x: u128, n: u128| if n >= u128::from(w) { 0 } else { x >> n };
    let sll = |x: u128, n: u128| match (n >> 64, n as u64 as u32) {
        (0, n) if n < w => (x << n) & mask,
        _ => 0,
    };
    let rest = u128::from(w).wrapping_sub(b) & mask;
    match op {
        Binary::Sll => sll(a, b),
        Binary::Srl => srl(a, b),
        Binary::Sra if a >> (w - 1) == 1 => !srl(!a & mask, b) & mask,
        Binary::Sra => srl(a, b),
        Binary::Rol => sll(a, b) | srl(a, rest),
        Binary::Ror => srl(a, b) | sll(a, rest),
        _ => unreachable!("not a shift: {op:?}"),
    }
}

/// Shifts and rotations against [`btorsim`] on the amounts where its readings part from
/// SMT-LIB's or from a rotation modulo the width ([`crate::testing::shift_amounts`]), at
/// widths around 32 and 64 bits and not powers of two.
#[test]
fn shifts_and_rotations_follow_btorsim_in_the_simulator_and_the_blaster() {
    let mut rng = Rng(7);
    for w in [1u32, 3, 8, 31, 32, 33, 40, 63, 64, 65, 100, 127] {
        let mut aig = Aig::new();
        let a = leaves(&mut aig, w);
        let b = leaves(&mut aig, w);
        let outs = crate::testing::SHIFTS.map(|op| ops::binary(&mut aig, op, &a, &b));
        let number = |v: &BitVec| v.to_i128(false).expect("at most 127 bits") as u128;
        for y in crate::testing::shift_amounts(w, &mut rng) {
            for x in [BitVec::ones(w), BitVec::from_u64(w, 0b1011), rng.bitvec(w)] {
                let leaf_values: Vec<bool> = x.bits().chain(y.bits()).collect();
                let values = simulate_frame(&aig, |v| leaf_values[v.index() - 1]);
                for (op, out) in crate::testing::SHIFTS.into_iter().zip(&outs) {
                    let want = btorsim(op, w, number(&x), number(&y));
                    let bits: Vec<bool> = (0..w).map(|i| want >> i & 1 == 1).collect();
                    let expected = BitVec::from_bits(&bits);
                    let context = format!("{} {x:?} by {y:?} at width {w}", op.name());
                    assert_eq!(eval::binary(op, &x, &y), expected, "simulator: {context}");
                    assert_eq!(read(&values, out), expected, "blaster: {context}");
                }
            }
        }
    }
}

/// A model exercising every term kind the blaster handles outside `ops` (extension, slices,
/// `ite` on words and arrays, reads, writes, array equality, constant arrays) and every state
/// kind (constant, non-constant and no `init`; no `next`).
fn sample_model(w: u32) -> Model {
    let mut m = Model::new();
    let word = Sort::Bv(w);
    let arr = Sort::Array {
        index: 2,
        element: w,
    };
    let i = m.add_input(word, Some("i".into()));
    let idx = m.add_input(Sort::Bv(2), Some("idx".into()));
    let x = m.add_state(word, Some("x".into()));
    let y = m.add_state(word, Some("y".into()));
    let free = m.add_state(word, Some("free".into()));
    let mem = m.add_state(arr, Some("mem".into()));
    let other = m.add_state(arr, None);
    let t = |m: &Model, s: usize| m.states()[s].term;
    let (xt, yt, ft, mt, ot) = (t(&m, x), t(&m, y), t(&m, free), t(&m, mem), t(&m, other));
    let one = m.constant_term(BitVec::from_u64(w, 1));
    let zero = m.constant_term(BitVec::zero(w));
    m.set_init(x, zero).unwrap();
    m.set_init(y, i).unwrap(); // non-constant init
    m.set_init(mem, zero).unwrap(); // constant array
    let sum = m.apply(Op::Binary(Binary::Add), &[xt, i]).unwrap();
    let c = m.apply(Op::Unary(Unary::RedXor), &[i]).unwrap();
    let nx = m.apply(Op::Ite, &[c, sum, yt]).unwrap();
    m.set_next(x, nx).unwrap();
    let wide = m
        .apply(
            Op::Extend {
                signed: true,
                by: 3,
            },
            &[yt],
        )
        .unwrap();
    let low = m
        .apply(
            Op::Slice {
                upper: w - 1,
                lower: 0,
            },
            &[wide],
        )
        .unwrap();
    let high = m
        .apply(
            Op::Slice {
                upper: w + 2,
                lower: w,
            },
            &[wide],
        )
        .unwrap();
    let cat = m.apply(Op::Binary(Binary::Concat), &[high, low]).unwrap();
    let back = m
        .apply(
            Op::Slice {
                upper: w - 1,
                lower: 0,
            },
            &[cat],
        )
        .unwrap();
    let ny = m.apply(Op::Binary(Binary::Xor), &[back, ft]).unwrap();
    m.set_next(y, ny).unwrap();
    let written = m.apply(Op::Write, &[mt, idx, xt]).unwrap();
    let same = m.apply(Op::Binary(Binary::Eq), &[mt, ot]).unwrap();
    let nm = m.apply(Op::Ite, &[same, ot, written]).unwrap();
    m.set_next(mem, nm).unwrap();
    let no = m.apply(Op::Write, &[ot, idx, ft]).unwrap();
    m.set_next(other, no).unwrap();
    let r = m.apply(Op::Read, &[mt, idx]).unwrap();
    let hit = m.apply(Op::Binary(Binary::Ugt), &[r, one]).unwrap();
    m.add_bad(hit, Some("hit".into())).unwrap();
    m
}

#[test]
fn blasted_systems_step_like_the_word_level_simulator() {
    let mut rng = Rng(7);
    for w in [1u32, 3, 8, 64, 65] {
        let model = sample_model(w);
        let (ts, map) = blast(&model, &Budget::new(None)).unwrap();
        let kinds = ts.leaf_kinds();
        let latch = |l: Lit| match kinds[l.var().index()] {
            Some(crate::ts::Leaf::Latch(n)) => n,
            k => panic!("{k:?} is not a latch"),
        };
        let input = |l: Lit| match kinds[l.var().index()] {
            Some(crate::ts::Leaf::Input(n)) => n,
            k => panic!("{k:?} is not an input"),
        };
        for _ in 0..10 {
            let frames = 1 + (rng.next_u64() % 6) as usize;
            let mut bit_trace = crate::ts::Trace {
                init: ts
                    .latches
                    .iter()
                    .map(|l| l.init.unwrap_or(rng.next_u64() & 1 == 1))
                    .collect(),
                inputs: (0..frames)
                    .map(|_| {
                        (0..ts.inputs.len())
                            .map(|_| rng.next_u64() & 1 == 1)
                            .collect()
                    })
                    .collect(),
                bad: 0,
            };
            // `y` starts at the frame-0 value of `i` (its non-constant init).
            for (yb, ib) in map.states[1].flat().iter().zip(map.inputs[0].flat()) {
                bit_trace.init[latch(*yb)] = bit_trace.inputs[0][input(ib)];
            }
            let words = lift_trace(&model, &map, &ts, &bit_trace);
            let terms: Vec<TermId> = model
                .states()
                .iter()
                .map(|s| s.term)
                .chain([model.bad()[0].term])
                .collect();
            let first = crate::ts::simulate(&ts, &bit_trace).next().unwrap();
            assert!(
                ts.constraints.iter().all(|&c| first.lit(c)),
                "first-frame init"
            );
            let expected = crate::wl::waveform(&model, &words, &terms).unwrap();
            for (k, values) in crate::ts::simulate(&ts, &bit_trace).enumerate() {
                for (s, state) in model.states().iter().enumerate() {
                    assert!(
                        map.states[s]
                            .value(state.sort, &values)
                            .equals(&expected[k][s]),
                        "width {w}, frame {k}: state {s}"
                    );
                }
                let bad = Value::Bv(BitVec::from_u64(1, values.lit(ts.bad[0]) as u64));
                assert_eq!(
                    bad,
                    expected[k][terms.len() - 1],
                    "width {w}, frame {k}: bad"
                );
            }
        }
    }
}

/// A 2^32-element memory read at an input address: no per-element latches (two free slots of
/// 32 + 8 bits and a cache of its one read, 1 + 32 + 8), and the read is a fresh input unless
/// a slot holds its address.
#[test]
fn large_arrays_are_encoded_lazily() {
    let mut m = Model::new();
    let arr = m.add_state(
        Sort::Array {
            index: 32,
            element: 8,
        },
        None,
    );
    let idx = m.add_input(Sort::Bv(32), None);
    let t = m.states()[arr].term;
    m.set_next(arr, t).unwrap();
    let r = m.apply(Op::Read, &[t, idx]).unwrap();
    let bit = m.apply(Op::Unary(Unary::RedOr), &[r]).unwrap();
    m.add_bad(bit, None).unwrap();
    let (ts, bits) = blast(&m, &Budget::new(None)).unwrap();
    assert_eq!(ts.latches.len(), 2 * (32 + 8) + (1 + 32 + 8));
    assert_eq!(
        bits.misses.len(),
        3,
        "the read, and one per free slot's next value (the cache's is the read's)"
    );
    assert!(bits.is_lazy());
}

/// `c < 100` and `c > 200` compare a state word and are atoms; `c == i` reads an input and
/// the one-bit state `b` is a latch of its own: neither is.
#[test]
fn comparisons_of_state_words_become_atoms() {
    let text = format!(
        "{}15 input 1 i\n16 eq 2 4 15\n17 state 2 b\n18 next 2 17 16\n19 bad 17\n",
        crate::testing::SATURATING_COUNTER
    );
    let model = crate::front::btor2::parse(&text).unwrap();
    let (ts, bits) = blast(&model, &Budget::new(None)).unwrap();
    assert_eq!(ts.atoms.len(), 2, "{:?}", ts.atoms);
    let c = bits.states[0].flat();
    for value in [0u64, 99, 100, 150, 200, 201, 255] {
        let values = simulate_frame(&ts.aig, |v| {
            c.iter()
                .position(|l| l.var() == v)
                .is_some_and(|i| (value >> i) & 1 == 1)
        });
        let mut got: Vec<bool> = ts
            .atoms
            .iter()
            .map(|a| values[a.var().index()] ^ a.is_negated())
            .collect();
        got.sort();
        let mut want = vec![value < 100, value > 200];
        want.sort();
        assert_eq!(got, want, "c = {value}");
    }
}
