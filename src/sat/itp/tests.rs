use super::*;

use crate::testing::Rng;

/// A random `width`-clause over variables `lo..hi`.
fn random_clause(rng: &mut Rng, lo: usize, hi: usize, width: usize) -> Vec<Lit> {
    (0..width)
        .map(|_| Lit::new((lo + rng.below(hi - lo)) as u32, rng.next_u64() & 1 == 1))
        .collect()
}

/// Loads `parts` (one clause list per partition) into a fresh solver and solves.
fn solve_parts(parts: &[Vec<Vec<Lit>>], vars: usize) -> (ItpSolver, SatResult) {
    let mut s = ItpSolver::new(&Budget::new(None));
    for _ in 0..vars {
        s.new_var();
    }
    for (p, clauses) in parts.iter().enumerate() {
        s.set_partition(p as u32);
        for c in clauses {
            s.add_clause(c);
        }
    }
    let r = s.solve(&[]);
    (s, r)
}

fn satisfies(clauses: &[Vec<Lit>], bits: u64) -> bool {
    clauses.iter().all(|c| {
        c.iter()
            .any(|l| ((bits >> l.vidx()) & 1 == 1) != l.is_neg())
    })
}

/// Exhaustive check of interpolant `itp` between `a` and `b` over `vars` variables.
fn brute_force(a: &[Vec<Lit>], b: &[Vec<Lit>], itp: &Interpolant, vars: usize) {
    for bits in 0..1u64 << vars {
        let i = itp.eval(|v| (bits >> v.idx()) & 1 == 1);
        if satisfies(a, bits) {
            assert!(i, "A holds but the interpolant does not ({bits:b})");
        }
        if satisfies(b, bits) {
            assert!(!i, "B holds and so does the interpolant ({bits:b})");
        }
    }
}

#[test]
fn chain_of_implications() {
    // A: x0, x0 -> x1, x1 -> x2;  B: x2 -> x3, !x3.  Shared: x2; the interpolant is x2.
    let l = |v: u32, neg: bool| Lit::new(v, neg);
    let a = vec![
        vec![l(0, false)],
        vec![l(0, true), l(1, false)],
        vec![l(1, true), l(2, false)],
    ];
    let b = vec![vec![l(2, true), l(3, false)], vec![l(3, true)]];
    let (mut s, r) = solve_parts(&[a.clone(), b.clone()], 4);
    assert_eq!(r, SatResult::Unsat);
    for system in [System::McMillan, System::Pudlak] {
        let itp = s.interpolant(0, system).unwrap();
        assert_eq!(s.verify(0, &itp), Ok(()));
        assert_eq!(itp.vars().collect::<Vec<_>>(), vec![Var::new(2)]);
        brute_force(&a, &b, &itp, 4);
    }
}

#[test]
fn contradictions_inside_one_side() {
    // A alone is inconsistent: the interpolant must be false; B alone: true.
    let x = Lit::new(0, false);
    let y = Lit::new(1, false);
    let (mut s, r) = solve_parts(&[vec![vec![x], vec![!x]], vec![vec![y]]], 2);
    assert_eq!(r, SatResult::Unsat);
    let itp = s.interpolant(0, System::McMillan).unwrap();
    assert!(!itp.eval(|_| true) && !itp.eval(|_| false));
    let (mut s, r) = solve_parts(&[vec![vec![y]], vec![vec![x], vec![!x]]], 2);
    assert_eq!(r, SatResult::Unsat);
    let itp = s.interpolant(0, System::Pudlak).unwrap();
    assert!(itp.eval(|_| true) && itp.eval(|_| false));
}

#[test]
fn satisfiable_formula_has_no_interpolant() {
    let x = Lit::new(0, false);
    let (mut s, r) = solve_parts(&[vec![vec![x]], vec![vec![x]]], 1);
    assert_eq!(r, SatResult::Sat);
    assert_eq!(
        s.interpolant(0, System::McMillan).unwrap_err(),
        ItpError::NoRefutation
    );
}

#[test]
fn random_partitions_pass_all_three_checks() {
    // A over x0..x9, B over x6..x13: four shared variables.
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut refuted = 0;
    for round in 0..300 {
        let n_a = 20 + round % 25;
        let a: Vec<Vec<Lit>> = (0..n_a)
            .map(|_| random_clause(&mut rng, 0, 10, 3))
            .collect();
        let b: Vec<Vec<Lit>> = (0..n_a)
            .map(|_| random_clause(&mut rng, 6, 14, 3))
            .collect();
        let (mut s, r) = solve_parts(&[a.clone(), b.clone()], 14);
        if r != SatResult::Unsat {
            continue;
        }
        refuted += 1;
        for system in [System::McMillan, System::Pudlak] {
            let itp = s.interpolant(0, system).unwrap();
            assert_eq!(s.verify(0, &itp), Ok(()), "round {round} {system:?}");
            assert!(itp.vars().all(|v| (6..10).contains(&v.idx())));
            brute_force(&a, &b, &itp, 14);
        }
    }
    assert!(refuted > 50, "only {refuted} unsat instances");
}

#[test]
fn larger_random_partitions_verify() {
    // Big enough for CaDiCaL's inprocessing (elimination, vivification, ...) to take part.
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut refuted = 0;
    for round in 0..12 {
        let a: Vec<Vec<Lit>> = (0..330)
            .map(|_| random_clause(&mut rng, 0, 80, 3))
            .collect();
        let b: Vec<Vec<Lit>> = (0..330)
            .map(|_| random_clause(&mut rng, 50, 130, 3))
            .collect();
        let (mut s, r) = solve_parts(&[a, b], 130);
        if r != SatResult::Unsat {
            continue;
        }
        refuted += 1;
        assert!(s.resolutions() > 0);
        for system in [System::McMillan, System::Pudlak] {
            let itp = s.interpolant(0, system).unwrap();
            assert_eq!(s.verify(0, &itp), Ok(()), "round {round} {system:?}");
        }
    }
    assert!(refuted >= 6, "only {refuted} unsat instances");
}

#[test]
fn sequence_interpolants_chain_along_a_path() {
    // Frames of 2 variables; partition i relates frame i to frame i + 1 by random clauses.
    let mut rng = Rng(0xdead_beef_cafe_f00d);
    let frames = 4;
    let vars = 2 * (frames + 1);
    let mut refuted = 0;
    for _ in 0..200 {
        let parts: Vec<Vec<Vec<Lit>>> = (0..frames)
            .map(|i| {
                (0..6)
                    .map(|_| {
                        let width = 2 + rng.below(2);
                        random_clause(&mut rng, 2 * i, 2 * i + 4, width)
                    })
                    .collect()
            })
            .collect();
        let (mut s, r) = solve_parts(&parts, vars);
        if r != SatResult::Unsat {
            continue;
        }
        refuted += 1;
        let seq = s.sequence(frames as u32 - 1, System::McMillan).unwrap();
        for (j, itp) in seq.iter().enumerate() {
            assert_eq!(s.verify(j as u32, itp), Ok(()));
            let a: Vec<Vec<Lit>> = parts[..=j].concat();
            let b: Vec<Vec<Lit>> = parts[j + 1..].concat();
            brute_force(&a, &b, itp, vars);
        }
        // I_j and the clauses of partition j + 1 imply I_{j+1}.
        for j in 0..seq.len() - 1 {
            for bits in 0..1u64 << vars {
                let at = |itp: &Interpolant| itp.eval(|v| (bits >> v.idx()) & 1 == 1);
                if at(&seq[j]) && satisfies(&parts[j + 1], bits) {
                    assert!(at(&seq[j + 1]), "sequence broken at {j}");
                }
            }
        }
    }
    assert!(refuted > 30, "only {refuted} unsat instances");
}
