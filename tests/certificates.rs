//! Certificates end to end: every `unsat` of our circuits is written with `--cert` and
//! accepted by `warden certify` (a separate process reading the file), and certificates with
//! one clause of the invariant dropped are rejected whenever what is left, conjoined with the
//! property (the witness circuit's own property), is no longer inductive: `certify` and the
//! in-process check must agree on each.

mod common;

use common::warden;

use warden::aig::{Lit, Node};
use warden::cert::{self, witness_circuit, Invariant};
use warden::check::{self, Answer, EngineKind, Options, Proof};
use warden::front;
use warden::Budget;

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("warden-cert-{}-{name}", std::process::id()))
}

#[test]
fn certify_accepts_every_written_certificate() {
    for engine in ["ic3", "kind", "portfolio"] {
        for c in common::circuits().iter().filter(|c| c.expected == "unsat") {
            let model = c.path.to_str().unwrap();
            let cert = temp(&format!("{engine}.aag"));
            let cert = cert.to_str().unwrap();
            let out = warden(&["check", model, "--engine", engine, "--cert", cert]);
            assert_eq!(
                String::from_utf8_lossy(&out.stdout).lines().next(),
                Some("unsat")
            );
            let out = warden(&["certify", model, cert]);
            assert_eq!(
                out.status.code(),
                Some(0),
                "{engine} {model}: {}",
                String::from_utf8_lossy(&out.stdout)
            );
        }
    }
}

/// The conjuncts of `l`: the leaves of its tree of positive AND gates (each clause of an
/// invariant built from clauses is a negated AND, so it is one leaf).
fn conjuncts(inv: &Invariant, l: Lit, out: &mut Vec<Lit>) {
    match inv.system.aig.node(l.var()) {
        Node::And(a, b) if !l.is_negated() => {
            conjuncts(inv, a, out);
            conjuncts(inv, b, out);
        }
        _ if l == Lit::TRUE => {}
        _ => out.push(l),
    }
}

#[test]
fn a_certificate_with_a_clause_dropped_is_rejected() {
    let mut rejected = 0;
    for name in [
        "counter3_mod6_unsat.aag",
        "counter4_wrap_unsat.aag",
        "lockstep_unsat.aag",
    ] {
        let path = common::root().join("circuits").join(name);
        let model = front::load(&path).unwrap();
        let opts = Options::new(EngineKind::Ic3);
        let budget = Budget::new(None);
        let Answer::Unsat(Proof::Invariant(inv)) =
            check::run(&model.ts, &opts, &budget).unwrap().answer
        else {
            panic!("{name}: IC3 did not prove it");
        };
        let mut clauses = Vec::new();
        conjuncts(&inv, inv.predicate, &mut clauses);
        for drop in 0..clauses.len() {
            let mut system = inv.system.clone();
            let rest = clauses.iter().enumerate().filter(|&(i, _)| i != drop);
            let predicate = system.aig.and_all(rest.map(|(_, &c)| c));
            let corrupt = Invariant { system, predicate };
            let file = temp(&format!("corrupt-{drop}.aag"));
            let mut bytes = Vec::new();
            front::aiger::write_ascii(&witness_circuit(&model.aiger(), &corrupt), &mut bytes)
                .unwrap();
            std::fs::write(&file, bytes).unwrap();
            let out = warden(&["certify", path.to_str().unwrap(), file.to_str().unwrap()]);
            // The witness circuit's property is the invariant and the model's property.
            let mut system = corrupt.system.clone();
            let any_bad = system.aig.or_all(system.bad.clone());
            let predicate = system.aig.and(corrupt.predicate, !any_bad);
            let in_process = cert::check(&model.ts, &Invariant { system, predicate }, &budget);
            // Both checkers must agree on every corrupted certificate.
            assert_eq!(
                out.status.code() == Some(0),
                in_process.is_ok(),
                "{name}, clause {drop} dropped: certify says {}",
                String::from_utf8_lossy(&out.stdout)
            );
            if out.status.code() == Some(1) {
                rejected += 1;
            }
        }
    }
    assert!(rejected > 0, "no corrupted certificate was rejected");
}

/// Two mod-3 counters in lockstep that differ only from the unreachable value 3 (the first
/// leaves it for 0, the second keeps it), every gate reading the input `en` too; bad when
/// both show 3. Their equivalence is 2-inductive, not 1-inductive.
const MOD3_TWINS: &str = "aag 35 1 4 0 30 1\n2\n4 21\n6 31\n8 53\n10 8\n71\n\
    12 2 5\n14 12 7\n16 3 5\n18 16 7\n20 15 19\n22 2 4\n24 22 7\n26 3 4\n28 26 7\n30 25 29\n\
    32 2 9\n34 32 11\n36 3 9\n38 36 11\n40 35 39\n42 2 8\n44 42 10\n46 3 8\n48 46 10\n\
    50 45 49\n52 40 50\n54 2 4\n56 54 6\n58 56 8\n60 58 10\n62 3 4\n64 62 6\n66 64 8\n\
    68 66 10\n70 61 69\n";

#[test]
fn a_two_step_signal_correspondence_certificate_is_accepted() {
    let model = temp("mod3_twins.aag");
    std::fs::write(&model, MOD3_TWINS).unwrap();
    let model = model.to_str().unwrap();
    let cert = temp("mod3_twins_cert.aag");
    let cert = cert.to_str().unwrap();
    for depth in ["1", "2"] {
        let out = warden(&[
            "check",
            model,
            "--engine",
            "ic3",
            "--scorr-depth",
            depth,
            "--cert",
            cert,
            "-v",
        ]);
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).lines().next(),
            Some("unsat")
        );
        // One step merges nothing; two steps merge the counters.
        let latches = if depth == "1" { 4 } else { 2 };
        let sizes = format!("after preprocessing: 1 inputs, {latches} latches");
        assert!(String::from_utf8_lossy(&out.stderr).contains(&sizes));
        let out = warden(&["certify", model, cert]);
        assert_eq!(out.status.code(), Some(0), "depth {depth}");
    }
}
