use super::*;
use crate::rng::Rng;

/// A random function over `vars` variables as a BDD and as a truth table (bit `m` = the value
/// under the assignment whose bits are `m`).
fn random(m: &mut Manager, rng: &mut Rng, vars: u32, depth: u32) -> (Bdd, u64) {
    if depth == 0 || rng.below(4) == 0 {
        let v = rng.below(vars as usize) as u32;
        let table = (0..1u64 << vars).fold(0, |t, a| t | (((a >> v) & 1) << a));
        return (m.var(v).unwrap(), table);
    }
    let (a, ta) = random(m, rng, vars, depth - 1);
    let (b, tb) = random(m, rng, vars, depth - 1);
    let mask = if vars == 6 {
        u64::MAX
    } else {
        (1 << (1 << vars)) - 1
    };
    match rng.below(4) {
        0 => (m.and(a, b).unwrap(), ta & tb),
        1 => (m.or(a, b).unwrap(), ta | tb),
        2 => (m.xor(a, b).unwrap(), ta ^ tb),
        _ => (m.not(a).unwrap(), !ta & mask),
    }
}

fn table(m: &Manager, f: Bdd, vars: u32) -> u64 {
    (0..1u64 << vars).fold(0, |t, a| {
        t | ((m.eval(f, |v| (a >> v) & 1 == 1) as u64) << a)
    })
}

/// `∃ v` on a truth table: the value with `v` false or true.
fn exists_table(t: u64, v: u32, vars: u32) -> u64 {
    (0..1u64 << vars).fold(0, |r, a| {
        let both = ((t >> (a & !(1 << v))) | (t >> (a | (1 << v)))) & 1;
        r | (both << a)
    })
}

fn manager() -> Manager {
    Manager::new(1 << 20, Box::new(|| false))
}

#[test]
fn operations_agree_with_truth_tables() {
    let mut rng = Rng(7);
    let mut m = manager();
    for _ in 0..300 {
        let (f, t) = random(&mut m, &mut rng, 5, 6);
        assert_eq!(table(&m, f, 5), t);
        let (g, u) = random(&mut m, &mut rng, 5, 6);
        let q = [rng.below(5) as u32, rng.below(5) as u32];
        let mut vars = vec![false; 5];
        let mut want_e = t;
        let mut want_ae = t & u;
        for &v in &q {
            if !vars[v as usize] {
                vars[v as usize] = true;
                want_e = exists_table(want_e, v, 5);
                want_ae = exists_table(want_ae, v, 5);
            }
        }
        let set = m.quantifier(vars);
        let e = m.exists(f, &set).unwrap();
        assert_eq!(table(&m, e, 5), want_e, "exists");
        let ae = m.and_exists(f, g, &set).unwrap();
        assert_eq!(table(&m, ae, 5), want_ae, "and_exists");
        // Canonical: the same function is the same node.
        let and = m.and(f, g).unwrap();
        let ae2 = m.exists(and, &set).unwrap();
        assert_eq!(ae, ae2);
    }
}

#[test]
fn renaming_shifts_levels_and_collection_keeps_the_roots() {
    let mut rng = Rng(3);
    let mut m = manager();
    // Functions of the odd variables 1, 3, 5 renamed to 0, 2, 4.
    let map: Vec<u32> = (0..6).map(|v| v - (v % 2)).collect();
    for _ in 0..100 {
        let (f, _) = random(&mut m, &mut rng, 3, 5);
        // Spread variables 0, 1, 2 to 1, 3, 5 (order-preserving), then back down.
        let spread: Vec<u32> = vec![1, 3, 5];
        let g = m.rename(f, &spread).unwrap();
        let back = m.rename(g, &map).unwrap();
        let want: Vec<u32> = vec![0, 2, 4];
        let direct = m.rename(f, &want).unwrap();
        assert_eq!(back, direct);
        for a in 0..8u64 {
            let bit = |v: u32| (a >> v) & 1 == 1;
            assert_eq!(m.eval(f, bit), m.eval(g, |v| bit(v / 2)));
        }
    }
    let (mut f, t) = random(&mut m, &mut rng, 5, 8);
    let mut g = Bdd::TRUE;
    let before = m.len();
    m.collect(&mut [&mut f, &mut g]);
    assert!(m.len() <= before);
    assert_eq!(table(&m, f, 5), t);
    assert_eq!(g, Bdd::TRUE);
}

#[test]
fn a_blowup_and_an_interrupt_stop_the_operation() {
    let mut m = Manager::new(40, Box::new(|| false));
    // x0 ⊕ x1 ⊕ ... needs two nodes per variable: past 40 nodes before x30.
    let mut f = Bdd::FALSE;
    let mut stopped = None;
    for v in 0..30 {
        match m.var(v).and_then(|x| m.xor(f, x)) {
            Ok(g) => f = g,
            Err(e) => {
                stopped = Some(e);
                break;
            }
        }
    }
    assert_eq!(stopped, Some(Stop::Blowup));
    let mut m = Manager::new(1 << 20, Box::new(|| true));
    let mut f = Bdd::FALSE;
    let mut stopped = None;
    for v in 0..POLL {
        match m.var(v).and_then(|x| m.xor(f, x)) {
            Ok(g) => f = g,
            Err(e) => {
                stopped = Some(e);
                break;
            }
        }
    }
    assert_eq!(stopped, Some(Stop::Interrupted));
}
