//! Criterion benchmarks of the hot paths: parsing AIGER, unrolling, one BMC query, one IC3
//! relative-induction query, one IC3 generalisation step, one interpolation query and a BDD
//! reachability fixpoint.
//!
//! The inputs are generated here (a wide counter circuit) or are our own `circuits/`, plus, when `../shared/bench` is
//! present, the largest AIGER file of the corpus for the parser and a semaphore circuit for
//! reachability.

use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, Criterion};
use warden::aig::Lit;
use warden::engine::ic3::{Ic3Options, Ic3Sat, Ic3Solver};
use warden::engine::{bmc::Bmc, reach::Reach, Engine, Verdict};
use warden::sat::itp::{ItpSolver, System};
use warden::sat::{Cadical, SatResult, Solver};
use warden::ts::TransitionSystem;
use warden::unroll::{Start, Unroller};
use warden::Budget;

/// `n` independent 16-bit counters whose sum of top bits is the property: a circuit with
/// real arithmetic cones and no early counterexample.
fn counters(n: usize) -> TransitionSystem {
    let mut ts = TransitionSystem::default();
    let mut tops = Vec::new();
    for c in 0..n {
        let en = ts.add_input(None).lit();
        let base = ts.latches.len();
        let bits: Vec<Lit> = (0..16)
            .map(|_| ts.add_latch(Some(false), None).lit())
            .collect();
        let mut carry = en;
        for (i, &b) in bits.iter().enumerate() {
            let next = ts.aig.xor(b, carry);
            carry = ts.aig.and(b, carry);
            ts.set_next(base + i, next);
        }
        tops.push(bits[15 - c % 4]);
    }
    let bad = ts.aig.and_all(tops);
    ts.bad.push(bad);
    ts
}

fn largest_corpus_aiger() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/bench/aiger");
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok())
        .max_by_key(|e| e.metadata().map(|m| m.len()).unwrap_or(0))
        .map(|e| e.path())
}

fn parse(c: &mut Criterion) {
    if let Some(path) = largest_corpus_aiger() {
        let data = std::fs::read(&path).unwrap();
        let name = format!("parse {}", path.file_name().unwrap().to_string_lossy());
        c.bench_function(&name, |b| {
            b.iter(|| warden::front::aiger::parse(&data).unwrap())
        });
    } else {
        eprintln!("../shared/bench/aiger not found: skipping the corpus parse benchmark");
    }
}

fn unroll(c: &mut Criterion) {
    let ts = counters(64);
    c.bench_function("unroll 64x16-bit counters, 20 frames", |b| {
        b.iter(|| {
            let budget = Budget::new(None);
            let mut s = Cadical::new(&budget);
            let mut un = Unroller::new(&ts, Start::Init);
            for k in 0..20 {
                un.lit(&mut s, ts.bad[0], k);
            }
        })
    });
}

fn bmc_query(c: &mut Criterion) {
    let ts = counters(16);
    c.bench_function("bmc 16x16-bit counters to depth 30", |b| {
        b.iter(|| Bmc::new(Some(30)).check(&ts, &Budget::new(None)))
    });
    c.bench_function("one SAT query: counters at frame 40", |b| {
        b.iter(|| {
            let budget = Budget::new(None);
            let mut s = Cadical::new(&budget);
            let mut un = Unroller::new(&ts, Start::Init);
            let l = un.lit(&mut s, ts.bad[0], 40);
            s.solve(&[l])
        })
    });
}

/// IC3 on the 8-bit mod-200 counter of `circuits/`: the cube of the state 250 (bit `i` of
/// the value on the `i`-th latch) is blocked relative to F_0, since no initial state leads to
/// it; the query returns its core, which MIC then generalises.
fn ic3_steps(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("circuits/counter8_mod200_unsat.aag");
    let ts = warden::front::load(&path).unwrap().ts;
    let cube: Vec<Lit> = (ts.latches.iter().enumerate())
        .map(|(i, l)| l.var.lit().xor_sign((250 >> i) & 1 == 0))
        .collect();
    let budget = Budget::new(None);
    for (sat, suffix) in [(Ic3Sat::Cadical, ""), (Ic3Sat::Cdcl, ", cdcl")] {
        let options = Ic3Options {
            sat,
            ..Ic3Options::default()
        };
        let mut ic3 = Ic3Solver::configured(&ts, &budget, options);
        ic3.extend();
        let name = format!("ic3 relative induction: mod-200 counter, F_0{suffix}");
        c.bench_function(&name, |b| {
            b.iter(|| ic3.relative_induction(0, &cube).unwrap().expect("blocked"))
        });
        let core = ic3.relative_induction(0, &cube).unwrap().expect("blocked");
        let name = format!("ic3 generalisation (MIC): mod-200 counter, F_0{suffix}");
        c.bench_function(&name, |b| {
            b.iter(|| ic3.generalize(0, core.clone()).unwrap())
        });
    }
}

/// One IMC-shaped query: A is the initial state and the first transition, B the next 19
/// transitions and the bad state in their last frame. Solving with the proof recorded and
/// building McMillan's interpolant is the work of one IMC step. On
/// `counter8_mod200_unsat.aag` (a counter that wraps at 200, bad at 255, no inputs) unit
/// propagation refutes the query; `traffic_light_unsat.aag` (two FSMs with inputs and a turn
/// token) needs search, so its proof is the larger one to label.
fn interpolation_query(c: &mut Criterion) {
    for name in ["counter8_mod200_unsat", "traffic_light_unsat"] {
        let file = format!("circuits/{name}.aag");
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(&file);
        let ts = warden::front::load(&path).unwrap().ts;
        c.bench_function(&format!("interpolant: {name}, 20 frames"), |b| {
            b.iter(|| {
                let budget = Budget::new(None);
                let mut s = ItpSolver::new(&budget);
                let mut un = Unroller::new(&ts, Start::Init);
                for l in &ts.latches {
                    un.lit(&mut s, l.var.lit(), 1);
                }
                s.set_partition(1);
                let bad = un.lit(&mut s, ts.bad[0], 20);
                s.add_clause(&[bad]);
                assert_eq!(s.solve(&[]), SatResult::Unsat);
                s.interpolant(0, System::McMillan).unwrap().num_ands()
            })
        });
    }
}

/// BDD-based reachability to its fixpoint (68 images, about 0.9 M nodes at the peak) on a
/// corpus circuit: the unique table, the operation cache and the relational product.
fn reach(c: &mut Criterion) {
    let file = "tn_semaphore-single-processor-6-threads-limit-3.aag";
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/bench/aiger")
        .join(file);
    let Ok(model) = warden::front::load(&path) else {
        eprintln!("{file} not found in ../shared/bench: skipping the reachability benchmark");
        return;
    };
    let mut group = c.benchmark_group("reach");
    group.sample_size(10);
    group.bench_function(format!("fixpoint of {file}"), |b| {
        b.iter(|| {
            let verdict = Reach::new().check(&model.ts, &Budget::new(None));
            assert!(matches!(verdict, Verdict::Safe(_)));
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    parse,
    unroll,
    bmc_query,
    ic3_steps,
    interpolation_query,
    reach
);
criterion_main!(benches);
