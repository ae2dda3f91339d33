//! The division, remainder and product rules ([`crate::wl::simplify`]'s `divide` rules) keep
//! every value: on every operand of small words, against the simulator's operators, and on
//! random 32-bit words.

use super::*;

/// Builds `op(args)` over inputs of `widths` plainly and through the rewriter (with `narrow`
/// off, as for BTOR2 models) and asserts that they agree on every value of the inputs;
/// adds the rules that fired to `stats`.
fn agree_exhaustively(
    widths: &[u32],
    stats: &mut Stats,
    build: impl Fn(&mut Model, &[TermId]) -> (Op, Vec<TermId>),
) {
    let (m, op, plain, rewritten) = plain_and_rewritten(widths, false, stats, build);
    let total: u32 = widths.iter().sum();
    for v in 0..1u64 << total {
        let mut rest = v;
        let inputs = (widths.iter())
            .map(|&w| {
                let value = BitVec::from_u64(w, rest & ((1 << w) - 1));
                rest >>= w;
                Value::Bv(value)
            })
            .collect();
        let trace = Trace {
            bad: 0,
            states: vec![vec![]],
            inputs: vec![inputs],
        };
        let got = waveform(&m, &trace, &[plain, rewritten]).unwrap().remove(0);
        assert!(got[0].equals(&got[1]), "{op:?} on {v:#x}: {got:?}");
    }
}

const DIVIDING: [Binary; 6] = [
    Binary::Udiv,
    Binary::Urem,
    Binary::Sdiv,
    Binary::Srem,
    Binary::Smod,
    Binary::Mul,
];

#[test]
fn division_and_products_by_constants_keep_every_value() {
    for w in 1..=6 {
        let mut stats = Stats::default();
        for op in DIVIDING {
            for c in 0..1u64 << w {
                agree_exhaustively(&[w], &mut stats, |m, x| {
                    (Op::Binary(op), vec![x[0], konst(m, w, c)])
                });
            }
        }
        for rule in ["udiv-pow2", "rem-pow2", "divide-zero"] {
            assert!(stats.get(rule) > 0, "{rule} at {w} bits: {stats:?}");
        }
        if w >= 2 {
            assert!(stats.get("mul-pow2") > 0, "{stats:?}");
        }
        if w >= 3 {
            // Signed: only by 2^k with k <= w - 2 (1 and 2 at 3 bits).
            assert!(
                stats.get("sdiv-pow2") > 0 && stats.get("srem-pow2") > 0,
                "{stats:?}"
            );
        }
    }
    // An extended dividend, divided at its own width.
    for (w, n) in [(5, 3), (6, 3), (7, 4)] {
        for signed in [false, true] {
            let mut stats = Stats::default();
            for op in DIVIDING {
                for c in 0..1u64 << w {
                    agree_exhaustively(&[n], &mut stats, |m, x| {
                        let wide = app(m, Op::Extend { signed, by: w - n }, &[x[0]]);
                        (Op::Binary(op), vec![wide, konst(m, w, c)])
                    });
                }
            }
            assert!(stats.get("divide-narrow") > 0, "{w} from {n}: {stats:?}");
        }
    }
}

#[test]
fn division_and_products_by_one_hot_words_keep_every_value() {
    use Binary::*;
    for w in 3..=5 {
        let mut stats = Stats::default();
        for op in DIVIDING {
            // x op (1 << k), every k (0 from k = w on), and the factor first.
            agree_exhaustively(&[w, w], &mut stats, |m, x| {
                let one = konst(m, w, 1);
                let hot = app(m, Op::Binary(Sll), &[one, x[1]]);
                (Op::Binary(op), vec![x[0], hot])
            });
            agree_exhaustively(&[w, w], &mut stats, |m, x| {
                let one = konst(m, w, 1);
                let hot = app(m, Op::Binary(Sll), &[one, x[1]]);
                (Op::Binary(op), vec![hot, x[0]])
            });
            // Under a choice with a constant: 0, a power of two.
            for (c, first) in [(0, false), (4, true)] {
                agree_exhaustively(&[w, w, 1], &mut stats, |m, x| {
                    let one = konst(m, w, 1);
                    let hot = app(m, Op::Binary(Sll), &[one, x[1]]);
                    let k = konst(m, w, c);
                    let arms = if first { [k, hot] } else { [hot, k] };
                    let d = app(m, Op::Ite, &[x[2], arms[0], arms[1]]);
                    (Op::Binary(op), vec![x[0], d])
                });
            }
        }
        for rule in [
            "mul-one-hot",
            "urem-one-hot",
            "udiv-one-hot",
            "srem-one-hot",
            "sdiv-one-hot",
            "divide-ite",
        ] {
            assert!(stats.get(rule) > 0, "{rule} at {w} bits: {stats:?}");
        }
    }
}

/// The same rules on the 32-bit words BEEM models divide, on random values; the one-hot
/// divisors' amounts drawn below 64, so that they fall on both sides of the width.
#[test]
fn division_rules_hold_on_wide_words() {
    use Binary::*;
    let by_16 = [
        (Udiv, "udiv-pow2"),
        (Urem, "rem-pow2"),
        (Sdiv, "sdiv-pow2"),
        (Srem, "srem-pow2"),
    ];
    for (op, rule) in by_16 {
        check_rule(&[32], rule, |m, x| {
            (Op::Binary(op), vec![x[0], konst(m, 32, 16)])
        });
    }
    for op in [Sdiv, Srem, Smod] {
        for c in [10, 100] {
            check_rule(&[16], "divide-narrow", |m, x| {
                let wide = app(
                    m,
                    Op::Extend {
                        signed: true,
                        by: 16,
                    },
                    &[x[0]],
                );
                (Op::Binary(op), vec![wide, konst(m, 32, c)])
            });
        }
    }
    let by_one_hot = [
        (Mul, "mul-one-hot"),
        (Udiv, "udiv-one-hot"),
        (Urem, "urem-one-hot"),
        (Sdiv, "sdiv-one-hot"),
        (Srem, "srem-one-hot"),
    ];
    for (op, rule) in by_one_hot {
        check_rule(&[32, 6], rule, |m, x| {
            let k = uext(m, x[1], 26);
            let one = konst(m, 32, 1);
            let hot = app(m, Op::Binary(Sll), &[one, k]);
            (Op::Binary(op), vec![x[0], hot])
        });
    }
}
