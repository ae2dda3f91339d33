//! A hand-built CFA through large blocks, slicing, the encoding, an engine and the interpreter.

use super::interp::{self, Queues};
use super::*;
use crate::check::{self, Answer, EngineKind, Options};
use crate::wl::{Binary, BitVec, Op, Value};
use crate::Budget;

/// `x = nondet(); y = x + 1; z = x; if (y == 6) error;` over 8-bit values.
fn small() -> Cfa {
    let mut cfa = Cfa::new();
    let x = cfa.add_var("x".into(), Sort::Bv(8), false);
    let y = cfa.add_var("y".into(), Sort::Bv(8), false);
    let z = cfa.add_var("z".into(), Sort::Bv(8), false);
    let n = cfa.add_nondet(Sort::Bv(8), "nondet()".into(), 1, false);
    let (l1, l2) = (cfa.add_location(Some(2)), cfa.add_location(Some(3)));
    let t = cfa.bool_const(true);
    let nt = cfa.nondets[n].term;
    cfa.edges.push(Edge {
        from: cfa.entry,
        to: l1,
        guard: t,
        assigns: vec![(x, nt)],
        nondets: vec![n],
        lines: vec![1],
    });
    let one = cfa.terms.constant_term(BitVec::from_u64(8, 1));
    let (xt, yt) = (cfa.vars[0].term, cfa.vars[1].term);
    let sum = cfa
        .terms
        .apply(Op::Binary(Binary::Add), &[xt, one])
        .unwrap();
    cfa.edges.push(Edge {
        from: l1,
        to: l2,
        guard: t,
        assigns: vec![(y, sum), (z, xt)],
        nondets: vec![],
        lines: vec![2],
    });
    let six = cfa.terms.constant_term(BitVec::from_u64(8, 6));
    let hit = cfa.terms.apply(Op::Binary(Binary::Eq), &[yt, six]).unwrap();
    let miss = cfa
        .terms
        .apply(Op::Unary(crate::wl::Unary::Not), &[hit])
        .unwrap();
    let (error, exit) = (cfa.error, cfa.exit);
    for (guard, to) in [(hit, error), (miss, exit)] {
        cfa.edges.push(Edge {
            from: l2,
            to,
            guard,
            assigns: vec![],
            nondets: vec![],
            lines: vec![3],
        });
    }
    cfa
}

fn reaches(cfa: &Cfa, value: u64) -> bool {
    let mut q = Queues::new(cfa, &[(0, Value::Bv(BitVec::from_u64(8, value)))]);
    interp::run(cfa, &mut q, 100).unwrap().reached(cfa)
}

#[test]
fn interpreter_follows_the_nondet_values() {
    let cfa = small();
    assert!(reaches(&cfa, 5));
    assert!(!reaches(&cfa, 4));
}

#[test]
fn blocks_and_slicing_keep_reachability() {
    let mut cfa = small();
    assert_eq!(slice::slice(&mut cfa), 1, "z is sliced away");
    lbe::large_blocks(&mut cfa);
    assert_eq!(cfa.edges.len(), 2, "one edge from the entry per outcome");
    assert!(cfa
        .edges
        .iter()
        .all(|e| e.assigns.iter().all(|(v, _)| v.0 != 2)));
    assert!(reaches(&cfa, 5));
    assert!(!reaches(&cfa, 6));
}

#[test]
fn encoded_counterexample_replays_in_the_interpreter() {
    let cfa = small();
    let mut blocks = cfa.clone();
    lbe::large_blocks(&mut blocks);
    let model = encode::encode(&blocks).unwrap();
    let (ts, bits) = crate::wl::blast(&model, &crate::Budget::new(None)).unwrap();
    let budget = Budget::new(None);
    let report = check::run(&ts, &Options::new(EngineKind::Bmc), &budget).unwrap();
    let Answer::Sat(trace) = report.answer else {
        panic!("the error is reachable")
    };
    let words = crate::wl::lift_trace(&model, &bits, &ts, &trace);
    assert_eq!(words.inputs.len(), 2, "one block, then the error");
    let path = path::from_trace(&cfa, &blocks, &words).unwrap();
    assert_eq!(path.steps.len(), 3, "three edges of the original CFA");
    assert_eq!(
        path.steps[0].drawn,
        vec![(0, Value::Bv(BitVec::from_u64(8, 5)))]
    );
}
