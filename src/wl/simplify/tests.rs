//! Each rewrite rule fires on its pattern and keeps the value (random operands through the
//! simulator's semantics), and the state rules keep the model's behaviour on random traces.
//! The division rules, checked on every value of small words, are in [`divide`].

use super::*;
use crate::front::btor2;
use crate::testing::Rng;
use crate::wl::{waveform, Binary, Sort, Trace, Unary, Value};

mod divide;

fn random_bv(rng: &mut Rng, w: u32) -> BitVec {
    match rng.next_u64() % 6 {
        0 => BitVec::zero(w),
        1 => BitVec::ones(w),
        _ => BitVec::from_bits(&(0..w).map(|_| rng.next_u64() & 1 == 1).collect::<Vec<_>>()),
    }
}

/// The values of `terms` in a one-frame trace of `m` with random inputs.
fn values(m: &Model, terms: &[TermId], rng: &mut Rng) -> Vec<Value> {
    let inputs = (m.inputs().iter())
        .map(|i| Value::Bv(random_bv(rng, i.sort.bv_width().unwrap())))
        .collect();
    let trace = Trace {
        bad: 0,
        states: vec![vec![None; m.states().len()]],
        inputs: vec![inputs],
    };
    waveform(m, &trace, terms).unwrap().remove(0)
}

/// Builds `op(args)` over inputs of `widths` both plainly and through the rewriter; asserts
/// that `rule` fired and that the two agree on random inputs.
fn check_rule(
    widths: &[u32],
    rule: &str,
    build: impl Fn(&mut Model, &[TermId]) -> (Op, Vec<TermId>),
) {
    let mut stats = Stats::default();
    let (m, _, plain, rewritten) = plain_and_rewritten(widths, true, &mut stats, build);
    assert!(stats.get(rule) > 0, "{rule} did not fire: {stats:?}");
    let mut rng = Rng(0x5eed ^ rule.len() as u64);
    for _ in 0..200 {
        let v = values(&m, &[plain, rewritten], &mut rng);
        assert!(v[0].equals(&v[1]), "{rule}: {:?} != {:?}", v[0], v[1]);
    }
}

/// A model over inputs of `widths` with `op(args)` from `build` twice: as built, and through
/// the rewriter (`narrow` as for C programs or not), which adds the rules it used to `stats`.
fn plain_and_rewritten(
    widths: &[u32],
    narrow: bool,
    stats: &mut Stats,
    build: impl Fn(&mut Model, &[TermId]) -> (Op, Vec<TermId>),
) -> (Model, Op, TermId, TermId) {
    let mut m = Model::new();
    let leaves: Vec<TermId> = (widths.iter())
        .map(|&w| m.add_input(Sort::Bv(w), None))
        .collect();
    let (op, args) = build(&mut m, &leaves);
    let plain = m.apply(op.clone(), &args).unwrap();
    let rewritten = Rewriter { stats, narrow }.mk(&mut m, op.clone(), &args);
    let bit = m.constant_term(BitVec::zero(1));
    m.add_bad(bit, None).unwrap();
    (m, op, plain, rewritten)
}

fn app(m: &mut Model, op: Op, args: &[TermId]) -> TermId {
    m.apply(op, args).unwrap()
}

fn konst(m: &mut Model, w: u32, v: u64) -> TermId {
    m.constant_term(BitVec::from_u64(w, v))
}

fn uext(m: &mut Model, x: TermId, by: u32) -> TermId {
    app(m, Op::Extend { signed: false, by }, &[x])
}

const CONCAT: Op = Op::Binary(Binary::Concat);

#[test]
fn slices_move_through_slices_concatenations_extensions_and_ites() {
    check_rule(&[8], "slice-whole", |_, x| {
        (Op::Slice { upper: 7, lower: 0 }, vec![x[0]])
    });
    check_rule(&[8], "slice-slice", |m, x| {
        let s = app(m, Op::Slice { upper: 6, lower: 2 }, &[x[0]]);
        (Op::Slice { upper: 3, lower: 1 }, vec![s])
    });
    for (upper, lower) in [(9, 6), (3, 1), (7, 2)] {
        check_rule(&[5, 6], "slice-concat", |m, x| {
            let c = app(m, CONCAT, &[x[0], x[1]]);
            (Op::Slice { upper, lower }, vec![c])
        });
    }
    for signed in [false, true] {
        for (upper, lower) in [(3, 1), (9, 2)] {
            check_rule(&[6], "slice-extend", |m, x| {
                let e = app(m, Op::Extend { signed, by: 6 }, &[x[0]]);
                (Op::Slice { upper, lower }, vec![e])
            });
        }
    }
    check_rule(&[6], "slice-extend", |m, x| {
        let e = uext(m, x[0], 6);
        (
            Op::Slice {
                upper: 10,
                lower: 7,
            },
            vec![e],
        )
    });
    check_rule(&[1, 8], "slice-ite", |m, x| {
        let k = konst(m, 8, 0xa5);
        let i = app(m, Op::Ite, &[x[0], x[1], k]);
        (Op::Slice { upper: 5, lower: 2 }, vec![i])
    });
}

#[test]
fn adjacent_slices_fuse_and_zero_concatenations_extend() {
    check_rule(&[8], "concat-slices", |m, x| {
        let h = app(m, Op::Slice { upper: 6, lower: 4 }, &[x[0]]);
        let l = app(m, Op::Slice { upper: 3, lower: 1 }, &[x[0]]);
        (CONCAT, vec![h, l])
    });
    check_rule(&[8, 2], "concat-slices", |m, x| {
        let h = app(m, Op::Slice { upper: 6, lower: 4 }, &[x[0]]);
        let l = app(m, Op::Slice { upper: 3, lower: 1 }, &[x[0]]);
        let hl = app(m, CONCAT, &[x[1], h]);
        (CONCAT, vec![hl, l])
    });
    check_rule(&[8, 2], "concat-slices", |m, x| {
        let h = app(m, Op::Slice { upper: 6, lower: 4 }, &[x[0]]);
        let l = app(m, Op::Slice { upper: 3, lower: 1 }, &[x[0]]);
        let lr = app(m, CONCAT, &[l, x[1]]);
        (CONCAT, vec![h, lr])
    });
    check_rule(&[5], "concat-zero", |m, x| {
        (CONCAT, vec![konst(m, 3, 0), x[0]])
    });
    // uext then sext (the sign bit is a zero), and sext twice.
    for inner_signed in [false, true] {
        check_rule(&[5], "ext-ext", |m, x| {
            let inner = Op::Extend {
                signed: inner_signed,
                by: 2,
            };
            let e = app(m, inner, &[x[0]]);
            (
                Op::Extend {
                    signed: true,
                    by: 3,
                },
                vec![e],
            )
        });
    }
}

#[test]
fn ites_lose_negated_conditions_repeated_conditions_and_bit_constants() {
    check_rule(&[1, 4, 4], "ite-not-cond", |m, x| {
        let n = app(m, Op::Unary(Unary::Not), &[x[0]]);
        (Op::Ite, vec![n, x[1], x[2]])
    });
    check_rule(&[1, 4, 4], "ite-same-cond", |m, x| {
        let inner = app(m, Op::Ite, &[x[0], x[1], x[2]]);
        (Op::Ite, vec![x[0], inner, x[2]])
    });
    check_rule(&[1, 4, 4], "ite-same-cond", |m, x| {
        let inner = app(m, Op::Ite, &[x[0], x[1], x[2]]);
        (Op::Ite, vec![x[0], x[1], inner])
    });
    for (a, b) in [
        (Some(1), Some(0)),
        (Some(0), Some(1)),
        (Some(1), None),
        (Some(0), None),
        (None, Some(0)),
        (None, Some(1)),
    ] {
        check_rule(&[1, 1], "ite-bit", |m, x| {
            let a = a.map_or(x[1], |v| konst(m, 1, v));
            let b = b.map_or(x[1], |v| konst(m, 1, v));
            (Op::Ite, vec![x[0], a, b])
        });
    }
}

/// Operations on extensions of 3-bit words (and on small constants) at 6 or 8 bits are done
/// at the narrowest width that holds their result, and agree with the plain ones; the
/// overflows that cannot happen at that width are `false`, down to the boundary case of two
/// zero-extended 3-bit words multiplied at 8 bits (`7 * 7 = 49` fits).
#[test]
fn operations_on_extensions_are_narrowed() {
    use Binary::*;
    let ext = |m: &mut Model, x: TermId, signed: bool, to: u32| {
        app(m, Op::Extend { signed, by: to - 3 }, &[x])
    };
    for (op, rule, to) in [
        (Add, "narrow-arith", 8),
        (Sub, "narrow-arith", 8),
        (Mul, "narrow-arith", 10),
        (Slt, "narrow-compare", 8),
        (Sgte, "narrow-compare", 8),
        (Eq, "narrow-compare", 8),
        (Saddo, "narrow-overflow", 6),
        (Ssubo, "narrow-overflow", 6),
        (Smulo, "narrow-overflow", 8),
    ] {
        for (sx, sy) in [(true, true), (true, false), (false, true), (false, false)] {
            check_rule(&[3, 3], rule, move |m, x| {
                let (a, b) = (ext(m, x[0], sx, to), ext(m, x[1], sy, to));
                (Op::Binary(op), vec![a, b])
            });
        }
        check_rule(&[3], rule, move |m, x| {
            let a = ext(m, x[0], true, to);
            (Op::Binary(op), vec![a, konst(m, to, (1 << to) - 3)])
        });
    }
    for (op, rule, to) in [
        (Ult, "narrow-compare", 8),
        (Ugte, "narrow-compare", 8),
        (Uaddo, "narrow-overflow", 4),
        (Umulo, "narrow-overflow", 6),
    ] {
        check_rule(&[3, 3], rule, move |m, x| {
            let (a, b) = (ext(m, x[0], false, to), ext(m, x[1], false, to));
            (Op::Binary(op), vec![a, b])
        });
    }
}

/// `(a - b) * (b - a) < 0` over extended 4-bit words is `a != b` (either way round, signed
/// or unsigned words); where a difference can wrap (a zero-extended word minus a
/// sign-extended one at 5 bits: `15 - (-8)`), it is not rewritten.
#[test]
fn a_negated_square_below_zero_is_a_disequality() {
    use Binary::*;
    let square = |m: &mut Model, x: &[TermId], sa: bool, sb: bool| {
        let (a, b) = (
            app(m, Op::Extend { signed: sa, by: 1 }, &[x[0]]),
            app(m, Op::Extend { signed: sb, by: 1 }, &[x[1]]),
        );
        let (d, e) = (
            app(m, Op::Binary(Sub), &[a, b]),
            app(m, Op::Binary(Sub), &[b, a]),
        );
        let wide = Op::Extend {
            signed: true,
            by: 5,
        };
        let (d, e) = (app(m, wide.clone(), &[d]), app(m, wide, &[e]));
        app(m, Op::Binary(Mul), &[d, e])
    };
    for signed in [false, true] {
        check_rule(&[4, 4], "negated-square", |m, x| {
            let p = square(m, x, signed, signed);
            (Op::Binary(Slt), vec![p, konst(m, 10, 0)])
        });
        check_rule(&[4, 4], "negated-square", |m, x| {
            let p = square(m, x, signed, signed);
            (Op::Binary(Sgt), vec![konst(m, 10, 0), p])
        });
    }
    let mut m = Model::new();
    let x = [
        m.add_input(Sort::Bv(4), None),
        m.add_input(Sort::Bv(4), None),
    ];
    let p = square(&mut m, &x, false, true);
    let zero = konst(&mut m, 10, 0);
    let mut stats = Stats::default();
    Rewriter {
        stats: &mut stats,
        narrow: true,
    }
    .mk(&mut m, Op::Binary(Slt), &[p, zero]);
    assert_eq!(stats.get("negated-square"), 0);
}

/// Where the result needs the whole width, nothing is narrowed: a 4-bit by 4-bit signed
/// product at 6 bits may overflow.
#[test]
fn a_product_that_needs_every_bit_keeps_its_overflow() {
    let mut m = Model::new();
    let (x, y) = (
        m.add_input(Sort::Bv(4), None),
        m.add_input(Sort::Bv(4), None),
    );
    let a = app(
        &mut m,
        Op::Extend {
            signed: true,
            by: 2,
        },
        &[x],
    );
    let b = app(
        &mut m,
        Op::Extend {
            signed: true,
            by: 2,
        },
        &[y],
    );
    let mut stats = Stats::default();
    let t = Rewriter {
        stats: &mut stats,
        narrow: true,
    }
    .mk(&mut m, Op::Binary(Binary::Smulo), &[a, b]);
    assert_eq!(stats.get("narrow-overflow"), 0);
    assert!(
        m.constant(t).is_none(),
        "the overflow is still a function of x and y"
    );
}

/// At one bit the constant 1 is -1, whose square overflows: `smulo x 1` is not `false`.
#[test]
fn a_one_bit_signed_product_by_one_keeps_its_overflow() {
    let mut m = Model::new();
    let x = m.add_input(Sort::Bv(1), None);
    let one = konst(&mut m, 1, 1);
    let plain = m.apply(Op::Binary(Binary::Smulo), &[x, one]).unwrap();
    let mut stats = Stats::default();
    let rewritten = Rewriter {
        stats: &mut stats,
        narrow: true,
    }
    .mk(&mut m, Op::Binary(Binary::Smulo), &[x, one]);
    let bit = m.constant_term(BitVec::zero(1));
    m.add_bad(bit, None).unwrap();
    let mut rng = Rng(0x5eed);
    let mut seen = [false; 2];
    for _ in 0..64 {
        let v = values(&m, &[plain, rewritten], &mut rng);
        assert!(v[0].equals(&v[1]), "{:?} != {:?}", v[0], v[1]);
        seen[usize::from(v[0].equals(&crate::wl::Value::Bv(BitVec::from_u64(1, 1))))] = true;
    }
    assert_eq!(seen, [true, true], "both values of x were tried");
}

#[test]
fn boolean_and_arithmetic_identities_hold() {
    use Binary::*;
    let with_const = |op: Binary, k: u64, rule: &'static str| {
        check_rule(&[6], rule, move |m, x| {
            (Op::Binary(op), vec![x[0], konst(m, 6, k)])
        });
        check_rule(&[6], rule, move |m, x| {
            (Op::Binary(op), vec![konst(m, 6, k), x[0]])
        });
    };
    with_const(And, 0, "and-zero");
    with_const(And, 63, "and-ones");
    with_const(Or, 63, "or-ones");
    with_const(Or, 0, "or-zero");
    with_const(Xor, 0, "or-zero");
    with_const(Xor, 63, "xor-ones");
    with_const(Add, 0, "arith-identity");
    with_const(Mul, 0, "arith-identity");
    with_const(Mul, 1, "arith-identity");
    with_const(Mul, 63, "mul-minus-one");
    for op in [Smulo, Umulo] {
        with_const(op, 0, "mulo-trivial");
        with_const(op, 1, "mulo-trivial");
    }
    with_const(Smulo, 63, "smulo-minus-one");
    check_rule(&[6], "arith-identity", |m, x| {
        (Op::Binary(Sub), vec![x[0], konst(m, 6, 0)])
    });
    for (op, rule) in [
        (Sub, "arith-identity"),
        (Xor, "xor-self"),
        (And, "idempotent"),
        (Or, "idempotent"),
        (Eq, "eq-self"),
        (Neq, "eq-self"),
    ] {
        check_rule(&[6], rule, |_, x| (Op::Binary(op), vec![x[0], x[0]]));
    }
    for (op, rule) in [(And, "and-zero"), (Or, "or-ones")] {
        check_rule(&[6], rule, |m, x| {
            let n = app(m, Op::Unary(Unary::Not), &[x[0]]);
            (Op::Binary(op), vec![n, x[0]])
        });
    }
    check_rule(&[1], "reduce-bit", |_, x| {
        (Op::Unary(Unary::RedAnd), vec![x[0]])
    });
}

#[test]
fn equalities_split_into_parts_and_bits() {
    use Binary::*;
    for k in [0, 1] {
        check_rule(&[1], "eq-bit", |m, x| {
            (Op::Binary(Eq), vec![x[0], konst(m, 1, k)])
        });
    }
    check_rule(&[3, 4], "neq-not-eq", |m, x| {
        (Op::Binary(Neq), vec![x[0], konst(m, 3, 5)])
    });
    check_rule(&[3, 4, 3, 4], "eq-concat", |m, x| {
        let a = app(m, CONCAT, &[x[0], x[1]]);
        let b = app(m, CONCAT, &[x[2], x[3]]);
        (Op::Binary(Eq), vec![a, b])
    });
    for k in [0x35, 0x7f] {
        check_rule(&[3, 4], "eq-concat", |m, x| {
            let a = app(m, CONCAT, &[x[0], x[1]]);
            (Op::Binary(Eq), vec![konst(m, 7, k), a])
        });
    }
    for k in [5, 0x25] {
        check_rule(&[4], "eq-extend", |m, x| {
            let e = uext(m, x[0], 3);
            (Op::Binary(Eq), vec![e, konst(m, 7, k)])
        });
    }
}

#[test]
fn shifts_by_constants_and_range_comparisons_are_wiring() {
    use Binary::*;
    for op in [Sll, Srl, Sra] {
        for k in [0, 1, 5, 7, 8, 200] {
            check_rule(&[8], "shift-const", |m, x| {
                (Op::Binary(op), vec![x[0], konst(m, 8, k)])
            });
        }
        // Amounts whose bits 32 to 63 btorsim's `sll` does not read: wired as it shifts.
        for k in [(1 << 32) + 3, (1 << 63) | 40, 1 << 40] {
            check_rule(&[64], "shift-const", |m, x| {
                (Op::Binary(op), vec![x[0], konst(m, 64, k)])
            });
        }
    }
    for (op, zero_first) in [(Ult, false), (Ugt, true), (Ulte, true), (Ugte, false)] {
        for k in [0, 255] {
            let first = (k == 0) == zero_first;
            check_rule(&[8], "compare-range", |m, x| {
                let c = konst(m, 8, k);
                let args = if first { vec![c, x[0]] } else { vec![x[0], c] };
                (Op::Binary(op), args)
            });
        }
    }
}

/// Asserts that `a` and `b` (same declarations) agree on every bad property in every frame
/// of random traces from random initial states.
fn same_behaviour(a: &Model, b: &Model, seed: u64) {
    let mut rng = Rng(seed);
    for _ in 0..50 {
        let frames = 8;
        let bv = |rng: &mut Rng, s: Sort| Value::Bv(random_bv(rng, s.bv_width().unwrap()));
        let trace = Trace {
            bad: 0,
            states: (0..frames)
                .map(|_| {
                    a.states()
                        .iter()
                        .map(|s| Some(bv(&mut rng, s.sort)))
                        .collect()
                })
                .map(|row: Vec<Option<Value>>| {
                    row.into_iter()
                        .zip(a.states())
                        .map(|(v, s)| v.filter(|_| s.init.is_none() && s.next.is_none()))
                        .collect()
                })
                .collect(),
            inputs: (0..frames)
                .map(|_| a.inputs().iter().map(|i| bv(&mut rng, i.sort)).collect())
                .collect(),
        };
        let bads = |m: &Model| {
            waveform(
                m,
                &trace,
                &m.bad().iter().map(|p| p.term).collect::<Vec<_>>(),
            )
            .unwrap()
        };
        let (va, vb) = (bads(a), bads(b));
        for (k, (x, y)) in va.iter().zip(&vb).enumerate() {
            assert!(
                x.iter().zip(y).all(|(x, y)| x.equals(y)),
                "frame {k}: {x:?} vs {y:?}"
            );
        }
    }
}

/// Two counters that always agree, a register stuck at its reset value, one that is not
/// (it counts by two), a state outside every property's cone, and the properties over them.
const STATES: &str = "\
1 sort bitvec 4
2 sort bitvec 1
3 zero 1
4 one 1
5 input 2 en
10 state 1 a
11 state 1 b
12 state 1 stuck
13 state 1 twice
14 state 1 dead
20 init 1 10 3
21 init 1 11 3
22 init 1 12 3
23 init 1 13 3
30 add 1 10 4
31 ite 1 5 30 10
32 add 1 11 4
33 ite 1 5 32 11
34 next 1 10 31
35 next 1 11 33
36 next 1 12 12
37 add 1 13 4
38 add 1 37 4
39 ite 1 5 38 13
40 next 1 13 39
41 add 1 14 10
42 next 1 14 41
50 neq 2 10 11
51 bad 50
52 add 1 12 10
53 eq 2 52 13
54 bad 53
";

#[test]
fn equal_and_constant_states_are_merged_and_dead_ones_cut() {
    let model = btor2::parse(STATES).unwrap();
    let (simple, stats) = simplify(&model);
    assert_eq!(stats.get("constant_states"), 1, "{stats:?}");
    assert_eq!(stats.get("merged_states"), 1, "{stats:?}");
    let why = "b (read as a), stuck (read as 0) and dead";
    assert_eq!(stats.get("dead_states"), 3, "{why}: {stats:?}");
    // `a != b` is false once b reads as a.
    assert_eq!(
        simple.constant(simple.bad()[0].term),
        Some(&BitVec::zero(1))
    );
    assert_eq!(simple.states().len(), model.states().len());
    same_behaviour(&model, &simple, 7);
}

#[test]
fn states_that_differ_after_some_frames_stay_apart() {
    // c counts by one, d by one until it reaches 3, then stays: equal for 3 frames only.
    let text = "\
1 sort bitvec 4
2 sort bitvec 1
3 zero 1
4 one 1
5 constd 1 3
10 state 1 c
11 state 1 d
12 init 1 10 3
13 init 1 11 3
14 add 1 10 4
15 next 1 10 14
16 eq 2 11 5
17 add 1 11 4
18 ite 1 16 11 17
19 next 1 11 18
20 neq 2 10 11
21 bad 20
";
    let model = btor2::parse(text).unwrap();
    let (simple, stats) = simplify(&model);
    assert_eq!(
        stats.get("merged_states") + stats.get("constant_states"),
        0,
        "{stats:?}"
    );
    same_behaviour(&model, &simple, 11);
}
