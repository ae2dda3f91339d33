//! The solver against small formulas with known answers, and against CaDiCaL on random
//! incremental sequences (answers, models that satisfy every clause, cores that are
//! refutations on their own).

use super::*;
use crate::rng::Rng;
use crate::sat::Cadical;

fn lits(s: &mut Cdcl, n: usize) -> Vec<Lit> {
    (0..n).map(|_| s.new_var().pos_lit()).collect()
}

#[test]
fn assumptions_models_and_cores() {
    let mut s = Cdcl::new(&Budget::new(None));
    let [a, b, c] = lits(&mut s, 3)[..] else {
        unreachable!()
    };
    s.add_clause(&[!a, b]);
    s.add_clause(&[!b, c]);
    assert_eq!(s.solve(&[a]), SatResult::Sat);
    assert_eq!(
        (s.value(a), s.value(b), s.value(c)),
        (Some(true), Some(true), Some(true))
    );
    assert_eq!(s.solve(&[a, !c, b]), SatResult::Unsat);
    assert!(s.failed(!c));
    assert!(s.failed(a) || s.failed(b));
    assert_eq!(s.solve(&[]), SatResult::Sat);
    assert!(!s.failed(!c), "cores do not outlive their call");
}

#[test]
fn contradictory_and_repeated_assumptions() {
    let mut s = Cdcl::new(&Budget::new(None));
    let [a, b] = lits(&mut s, 2)[..] else {
        unreachable!()
    };
    assert_eq!(s.solve(&[a, b, a, !a]), SatResult::Unsat);
    assert!(s.failed(a) && s.failed(!a) && !s.failed(b));
    assert_eq!(s.solve(&[a, a]), SatResult::Sat);
}

#[test]
fn units_and_an_empty_clause() {
    let mut s = Cdcl::new(&Budget::new(None));
    let [a, b] = lits(&mut s, 2)[..] else {
        unreachable!()
    };
    s.add_clause(&[a]);
    s.add_clause(&[!a, b]);
    assert_eq!(s.solve(&[!b]), SatResult::Unsat);
    assert!(s.failed(!b));
    assert_eq!(s.solve(&[]), SatResult::Sat);
    assert_eq!(s.value(b), Some(true));
    s.add_clause(&[!b]);
    assert_eq!(s.solve(&[a]), SatResult::Unsat);
    assert!(!s.failed(a), "the clauses alone are unsatisfiable");
    assert_eq!(s.solve(&[]), SatResult::Unsat);
}

#[test]
fn model_survives_clauses_added_after_the_call() {
    let mut s = Cdcl::new(&Budget::new(None));
    let [a, b] = lits(&mut s, 2)[..] else {
        unreachable!()
    };
    s.add_clause(&[a, b]);
    assert_eq!(s.solve(&[!a]), SatResult::Sat);
    s.add_clause(&[!b]);
    assert_eq!((s.value(a), s.value(b)), (Some(false), Some(true)));
    assert_eq!(s.solve(&[!a]), SatResult::Unsat);
}

/// IC3's pattern: a temporary clause on an activation literal, switched off by a unit.
#[test]
fn activation_literals() {
    let mut s = Cdcl::new(&Budget::new(None));
    let [x, y] = lits(&mut s, 2)[..] else {
        unreachable!()
    };
    for _ in 0..100 {
        let act = s.new_var().pos_lit();
        s.add_clause(&[!act, !x]);
        s.add_clause(&[!act, !y]);
        assert_eq!(s.solve(&[act, x]), SatResult::Unsat);
        assert!(s.failed(act) && s.failed(x));
        assert_eq!(s.solve(&[act]), SatResult::Sat);
        s.add_clause(&[!act]);
        assert_eq!(s.solve(&[x, y]), SatResult::Sat);
    }
}

#[test]
fn a_domain_limits_the_decisions() {
    let mut s = Cdcl::new(&Budget::new(None));
    let [a, b, c, d] = lits(&mut s, 4)[..] else {
        unreachable!()
    };
    s.add_clause(&[!a, b]);
    s.add_clause(&[c, d]);
    assert_eq!(s.solve_in(&[a], &[a.var(), b.var()]), SatResult::Sat);
    assert_eq!(s.value(b), Some(true));
    assert_eq!((s.value(c), s.value(d)), (None, None), "outside the domain");
    assert_eq!(s.solve_in(&[a, !b], &[a.var()]), SatResult::Unsat);
    assert!(s.failed(a) && s.failed(!b));
    assert_eq!(s.solve(&[!c]), SatResult::Sat, "unrestricted again");
    assert_eq!((s.value(a).is_some(), s.value(d)), (true, Some(true)));
}

#[test]
fn a_domain_limits_propagation_above_level_0_only() {
    let mut s = Cdcl::new(&Budget::new(None));
    let [a, b, c, d] = lits(&mut s, 4)[..] else {
        unreachable!()
    };
    s.add_clause(&[!a, c]);
    s.add_clause(&[!c, d]);
    s.add_clause(&[!a, b]);
    assert_eq!(s.solve_in(&[a], &[a.var(), b.var()]), SatResult::Sat);
    assert_eq!(s.value(b), Some(true), "propagated inside the domain");
    assert_eq!(s.value(c), None, "not propagated outside it");
    // The skipped clauses are whole again for the next calls.
    assert_eq!(s.solve(&[a, !d]), SatResult::Unsat);
    // A unit at level 0 is propagated in full, domain or not.
    s.add_clause(&[a]);
    assert_eq!(s.solve_in(&[], &[b.var()]), SatResult::Sat);
    assert_eq!((s.value(c), s.value(d)), (Some(true), Some(true)));
}

#[test]
fn small_pigeonhole_is_unsat() {
    let mut s = Cdcl::new(&Budget::new(None));
    crate::sat::pigeonhole(&mut s, 6, 5);
    assert_eq!(s.solve(&[]), SatResult::Unsat);
}

#[test]
fn a_stopped_budget_interrupts_a_hard_query() {
    let budget = Budget::new(None);
    let mut s = Cdcl::new(&budget);
    crate::sat::pigeonhole(&mut s, 11, 10);
    let stopper = budget.clone();
    let t = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(50));
        stopper.stop();
    });
    assert_eq!(s.solve(&[]), SatResult::Interrupted);
    t.join().unwrap();
}

fn random_clause(rng: &mut Rng, vars: &[Lit], len: usize) -> Vec<Lit> {
    (0..len)
        .map(|_| {
            let l = vars[rng.below(vars.len())];
            if rng.below(2) == 0 {
                l
            } else {
                !l
            }
        })
        .collect()
}

/// A fresh CDCL solver and a fresh CaDiCaL with the same `n` variables.
fn pair(budget: &Budget, n: usize) -> (Cdcl, Cadical, Vec<Lit>) {
    let mut s = Cdcl::new(budget);
    let mut reference = Cadical::new(budget);
    let vars = (0..n)
        .map(|_| {
            reference.new_var();
            s.new_var().pos_lit()
        })
        .collect();
    (s, reference, vars)
}

/// Whether the assumptions `s` reports failed are unsatisfiable with `clauses` (CaDiCaL's
/// word).
fn core_refutes(s: &Cdcl, assumptions: &[Lit], clauses: &[Vec<Lit>]) -> bool {
    let core: Vec<Lit> = (assumptions.iter().copied())
        .filter(|&a| s.failed(a))
        .collect();
    let mut check = Cadical::new(&Budget::new(None));
    for c in clauses {
        check.add_clause(c);
    }
    check.solve(&core) == SatResult::Unsat
}

/// Whether the clauses are satisfied by `s`'s model.
fn satisfies(s: &Cdcl, clauses: &[Vec<Lit>]) -> bool {
    clauses
        .iter()
        .all(|c| c.iter().any(|&l| s.value(l) == Some(true)))
}

/// Thousands of random 3-CNF formulas near the threshold, grown incrementally, solved under
/// random assumptions by both solvers: the answers agree, every model satisfies the
/// clauses and the assumptions, and every core is unsatisfiable with the clauses.
#[test]
fn agrees_with_cadical_on_random_incremental_3cnf() {
    let budget = Budget::new(None);
    let mut rng = Rng(13);
    let mut unsat = 0;
    for round in 0..400 {
        let n = 8 + rng.below(40);
        let (mut s, mut reference, vars) = pair(&budget, n);
        let mut clauses: Vec<Vec<Lit>> = Vec::new();
        for _step in 0..10 {
            for _ in 0..(n * 43 / 100) {
                let len = 1 + usize::from(rng.below(20) != 0) + usize::from(rng.below(8) != 0);
                let c = random_clause(&mut rng, &vars, len);
                s.add_clause(&c);
                reference.add_clause(&c);
                clauses.push(c);
            }
            let len = rng.below(6);
            let assumptions = random_clause(&mut rng, &vars, len);
            let answer = s.solve(&assumptions);
            assert_eq!(answer, reference.solve(&assumptions), "round {round}");
            match answer {
                SatResult::Sat => {
                    assert!(satisfies(&s, &clauses), "round {round}: model");
                    assert!(assumptions.iter().all(|&a| s.value(a) == Some(true)));
                }
                SatResult::Unsat => {
                    unsat += 1;
                    assert!(core_refutes(&s, &assumptions, &clauses), "round {round}");
                }
                SatResult::Interrupted => unreachable!("no budget"),
            }
        }
    }
    assert!(unsat > 400, "the sample has both answers ({unsat} unsat)");
}

/// Harder formulas (hundreds of conflicts per call, so restarts, reduction and
/// simplification run) with activation-literal clauses retired by units, as IC3 does.
#[test]
fn agrees_with_cadical_on_hard_random_sequences() {
    let budget = Budget::new(None);
    let mut rng = Rng(7);
    let mut reduced = 0;
    for round in 0..20 {
        let n = 120 + rng.below(60);
        let (mut s, mut reference, vars) = pair(&budget, n);
        let mut clauses: Vec<Vec<Lit>> = Vec::new();
        for _ in 0..(n * 40 / 10) {
            let c = random_clause(&mut rng, &vars, 3);
            s.add_clause(&c);
            reference.add_clause(&c);
            clauses.push(c);
        }
        for step in 0..30 {
            let temp = random_clause(&mut rng, &vars, 4);
            let len = rng.below(8);
            let assumptions = random_clause(&mut rng, &vars, len);
            let context = format!("round {round} step {step}");
            guarded_query(
                &mut s,
                &mut reference,
                &clauses,
                &temp,
                &assumptions,
                &context,
            );
        }
        reduced += usize::from(s.learnt_limit > search::LEARNTS_FIRST);
    }
    assert!(
        reduced >= 10,
        "learnt clauses were reduced in {reduced} rounds only"
    );
}

/// Tseitin encodings of random AND circuits (two thirds of their clauses binary, as in
/// IC3's frames), with binary temporary clauses retired by units and random assumptions on
/// gate outputs: both solvers agree, models satisfy the clauses, cores refute them. Binary
/// clauses propagate without being read, so their implied literal is not always the first.
#[test]
fn agrees_with_cadical_on_random_and_circuits() {
    let budget = Budget::new(None);
    let mut rng = Rng(29);
    let mut unsat = 0;
    for round in 0..60 {
        let inputs = 10 + rng.below(20);
        let (mut s, mut reference, mut nodes) = pair(&budget, inputs);
        let mut clauses: Vec<Vec<Lit>> = Vec::new();
        let mut add = |s: &mut Cdcl, r: &mut Cadical, c: Vec<Lit>| {
            s.add_clause(&c);
            r.add_clause(&c);
            clauses.push(c);
        };
        for _ in 0..(4 * inputs) {
            let pick = |rng: &mut Rng, nodes: &[Lit]| {
                let l = nodes[rng.below(nodes.len())];
                if rng.below(2) == 0 {
                    !l
                } else {
                    l
                }
            };
            let (a, b) = (pick(&mut rng, &nodes), pick(&mut rng, &nodes));
            let g = s.new_var().pos_lit();
            assert_eq!(g, reference.new_var().pos_lit());
            add(&mut s, &mut reference, vec![!g, a]);
            add(&mut s, &mut reference, vec![!g, b]);
            add(&mut s, &mut reference, vec![g, !a, !b]);
            nodes.push(g);
        }
        for step in 0..40 {
            let width = 1 + rng.below(2);
            let temp = random_clause(&mut rng, &nodes, width);
            let len = 1 + rng.below(6);
            let assumptions = random_clause(&mut rng, &nodes[inputs..], len);
            let context = format!("round {round} step {step}");
            let answer = guarded_query(
                &mut s,
                &mut reference,
                &clauses,
                &temp,
                &assumptions,
                &context,
            );
            unsat += usize::from(answer == SatResult::Unsat);
        }
    }
    assert!(unsat > 200, "the sample has both answers ({unsat} unsat)");
}

/// One IC3-shaped query on both solvers: `temp` guarded by a fresh activation literal,
/// solved under it and `assumptions`, then retired by a unit. The answers agree, a model
/// satisfies `clauses`, `temp` and the assumptions, a core refutes the clauses.
fn guarded_query(
    s: &mut Cdcl,
    reference: &mut Cadical,
    clauses: &[Vec<Lit>],
    temp: &[Lit],
    assumptions: &[Lit],
    context: &str,
) -> SatResult {
    let act = s.new_var().pos_lit();
    assert_eq!(act, reference.new_var().pos_lit());
    let mut guarded = vec![!act];
    guarded.extend(temp);
    s.add_clause(&guarded);
    reference.add_clause(&guarded);
    let assumptions: Vec<Lit> = [act]
        .into_iter()
        .chain(assumptions.iter().copied())
        .collect();
    let answer = s.solve(&assumptions);
    assert_eq!(answer, reference.solve(&assumptions), "{context}");
    if answer == SatResult::Sat {
        assert!(
            satisfies(s, clauses) && satisfies(s, &[temp.to_vec()]),
            "{context}"
        );
        assert!(
            assumptions.iter().all(|&a| s.value(a) == Some(true)),
            "{context}"
        );
    } else {
        let all: Vec<Vec<Lit>> = clauses.iter().chain([&guarded]).cloned().collect();
        assert!(core_refutes(s, &assumptions, &all), "{context}");
    }
    s.add_clause(&[!act]);
    reference.add_clause(&[!act]);
    answer
}
