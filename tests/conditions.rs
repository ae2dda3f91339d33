//! Conditional model checking (`--condition-out`, `--condition-in`): a run that ends
//! `unknown` writes what it verified, and a later run assumes it: it never asks again the
//! depths the first showed clean (counted by the engines' query statistics), it uses the
//! lemmas the first proved, and a pair of runs proves what neither proves alone.

mod common;

use std::path::Path;

use common::{circuit, root, warden};

fn temp(name: &str) -> String {
    common::scratch_file("conditions", name)
        .display()
        .to_string()
}

/// `warden check MODEL ARGS... --stats`: the verdict line and the statistic `stat`.
fn run(model: &str, args: &[&str], stat: &str) -> (String, Option<u64>) {
    let (verdict, values) = run_stats(model, args, &[stat]);
    (verdict, values[0])
}

/// [`run`] reading each of `stats`.
fn run_stats(model: &str, args: &[&str], stats: &[&str]) -> (String, Vec<Option<u64>>) {
    let mut all = vec!["check", model, "--stats"];
    all.extend(args);
    let out = warden(&all);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
    let verdict = String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .unwrap_or("")
        .to_owned();
    let values = (stats.iter())
        .map(|stat| {
            (stderr.lines())
                .find_map(|l| l.strip_prefix(&format!("c {stat} = ")))
                .map(|v| v.trim().parse().unwrap())
        })
        .collect();
    (verdict, values)
}

/// The `depth` line and the number of `lemma` lines of the condition file `path`.
fn condition(path: &str) -> (Option<usize>, usize) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.starts_with("warden-condition 1\nsystem "), "{text}");
    let depth = (text.lines()).find_map(|l| l.strip_prefix("depth ").map(|d| d.parse().unwrap()));
    (
        depth,
        text.lines().filter(|l| l.starts_with("lemma ")).count(),
    )
}

#[test]
fn a_run_given_a_condition_never_asks_the_depths_it_proved_clean() {
    // The counter's bad state is first reached at depth 60.
    let model = circuit("counter7_60_sat.aag");
    let (first, second) = (temp("bmc30.cond"), temp("bmc45.cond"));
    let (verdict, queries) = run(
        &model,
        &[
            "--engine",
            "bmc",
            "--max-depth",
            "30",
            "--condition-out",
            &first,
        ],
        "bmc_queries",
    );
    assert_eq!((verdict.as_str(), queries), ("unknown", Some(31)));
    assert_eq!(condition(&first), (Some(30), 0));
    let (verdict, queries) = run(
        &model,
        &[
            "--engine",
            "bmc",
            "--max-depth",
            "45",
            "--condition-in",
            &first,
            "--condition-out",
            &second,
        ],
        "bmc_queries",
    );
    assert_eq!(
        (verdict.as_str(), queries),
        ("unknown", Some(15)),
        "depths 31..=45 only"
    );
    assert_eq!(condition(&second), (Some(45), 0));
    // Both engines that unroll from the initial states go on from depth 46 to the bug, whose
    // witness replays: BMC frame by frame, k-induction's base case in windows that grow, so
    // its frames asked reach the bug's 15 and stop short of twice as many (from depth 0 they
    // would be 61 or more).
    for (engine, stat) in [("bmc", "bmc_queries"), ("kind", "kind_base_frames")] {
        let witness = temp(&format!("{engine}.wit"));
        let args = [
            "--engine",
            engine,
            "--condition-in",
            &second,
            "--witness",
            &witness,
        ];
        let (verdict, frames) = run(&model, &args, stat);
        assert_eq!(verdict, "sat", "{engine}");
        let frames = frames.unwrap_or_else(|| panic!("{engine}: no {stat}"));
        match engine {
            "bmc" => assert_eq!(frames, 15, "bmc: depths 46..=60"),
            _ => assert!((15..30).contains(&frames), "kind: {frames} frames from 46"),
        }
        let sim = warden(&["sim", &model, &witness]);
        assert_eq!(sim.status.code(), Some(0), "{engine}'s witness replays");
    }
}

/// The circuit of `circuits/conditions/` (written by `ic3_then_kind.py` there): a lemma IC3
/// with counterexamples to propagation finds at once makes the property 20-inductive, and
/// neither IC3 nor k-induction proves it alone.
#[test]
fn ic3_lemmas_let_k_induction_prove_what_neither_proves_alone() {
    let model = (root().join("circuits/conditions/ic3_then_kind_unsat.aag"))
        .display()
        .to_string();
    let cond = temp("ic3.cond");
    let ic3 = ["--engine", "ic3", "--ic3-ctp", "true"];
    let args = [&ic3[..], &["--timeout", "3", "--condition-out", &cond]].concat();
    let (verdict, _) = run(&model, &args, "ic3_lemmas");
    assert_eq!(verdict, "unknown");
    let (_, lemmas) = condition(&cond);
    assert!(lemmas > 0, "IC3 wrote its proved lemmas");
    let json = temp("kind.json");
    let args = [
        "--engine",
        "kind",
        "--condition-in",
        &cond,
        "--json",
        &json,
        "--timeout",
        "120",
    ];
    let (verdict, depth) = run(&model, &args, "kind_depth");
    assert_eq!((verdict.as_str(), depth), ("unsat", Some(20)));
    // Alone, each engine gets more time than the pair took and still does not decide.
    let (verdict, _) = run(
        &model,
        &["--engine", "kind", "--timeout", "8"],
        "kind_depth",
    );
    assert_eq!(verdict, "unknown", "k-induction alone");
    let args = [&ic3[..], &["--timeout", "8"]].concat();
    let (verdict, _) = run(&model, &args, "ic3_lemmas");
    assert_eq!(verdict, "unknown", "IC3 alone");
}

#[test]
fn the_json_record_of_an_unknown_reports_its_condition() {
    let json = temp("unknown.json");
    let model = circuit("counter7_60_sat.aag");
    let args = ["--engine", "bmc", "--max-depth", "12", "--json", &json];
    assert_eq!(run(&model, &args, "bmc_queries").0, "unknown");
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(record["condition"]["depth"], 12);
    assert_eq!(record["condition"]["lemmas"], 0);
}

#[test]
fn a_condition_of_another_model_or_for_an_engine_that_ignores_it_is_refused() {
    let cond = temp("other.cond");
    let args = [
        "--engine",
        "bmc",
        "--max-depth",
        "3",
        "--condition-out",
        &cond,
    ];
    assert_eq!(
        run(&circuit("counter7_60_sat.aag"), &args, "bmc_queries").0,
        "unknown"
    );
    let out = warden(&[
        "check",
        &circuit("counter4_sat.aag"),
        "--condition-in",
        &cond,
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "warden: {cond}:2: the condition speaks of another system"
        )),
        "{stderr}"
    );
    let out = warden(&[
        "check",
        &circuit("counter7_60_sat.aag"),
        "--engine",
        "imc",
        "--condition-in",
        &cond,
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("--condition-in"), "{stderr}");
    assert!(Path::new(&cond).exists());
}

/// The conditional sequence (`--engine sequence`) in one run: BMC to the bound (31 queries),
/// then k-induction from past BMC's depth (no base-case query of its own below the bound),
/// then IC3, which finds the bug at depth 60; its witness replays.
#[test]
fn the_sequence_hands_bmc_depth_to_k_induction() {
    let model = circuit("counter7_60_sat.aag");
    let witness = temp("sequence.wit");
    let args = [
        "--engine",
        "sequence",
        "--max-depth",
        "30",
        "--witness",
        &witness,
    ];
    for (stat, expected) in [
        ("bmc_queries", 31),
        ("kind_base_queries", 0),
        ("sequence_stage", 2),
    ] {
        assert_eq!(
            run(&model, &args, stat),
            ("sat".into(), Some(expected)),
            "{stat}"
        );
    }
    let sim = warden(&["sim", &model, &witness]);
    assert_eq!(sim.status.code(), Some(0), "the sequence's witness replays");
}

/// The C program of `circuits/conditions/`: the conditional sequence on C (`--engine
/// sequence`: BMC, explicit values cut at repeating locations, predicates given the explicit
/// run's condition) proves it, the predicate stage skipping the edges the explicit run
/// verified, where neither CFA analysis alone proves it in the same time.
#[test]
fn explicit_values_then_predicates_prove_a_program_neither_proves_alone() {
    let program = (root().join("circuits/conditions/expl_then_pred_unsat.c"))
        .display()
        .to_string();
    let sequence = ["--engine", "sequence", "--timeout", "8"];
    let stats = [
        "expl_cut",
        "sequence_condition_verified",
        "cegar_condition_safe",
        "sequence_stage",
    ];
    let (verdict, values) = run_stats(&program, &sequence, &stats);
    assert_eq!(verdict, "unsat");
    for ((stat, value), at_least) in stats.iter().zip(values).zip([1, 1, 1, 2]) {
        assert!(value.is_some_and(|v| v >= at_least), "{stat}: {value:?}");
    }
    for domain in ["expl", "pred-cart"] {
        let args = [
            "--engine",
            "cegar",
            "--domain",
            domain,
            "--refinement",
            "seq-itp",
            "--timeout",
            "8",
        ];
        assert_eq!(
            run(&program, &args, "cegar_refinements").0,
            "unknown",
            "{domain}"
        );
    }
}

/// The `--json` record of a CFA CEGAR run on a C program that ends `unknown` reports the
/// size of its assumption automaton.
#[test]
fn the_json_record_of_an_unknown_cfa_run_reports_its_automaton() {
    let program = (root().join("circuits/conditions/expl_then_pred_unsat.c"))
        .display()
        .to_string();
    let json = temp("cfa-unknown.json");
    let args = ["--engine", "cegar", "--timeout", "6", "--json", &json];
    assert_eq!(run(&program, &args, "cegar_refinements").0, "unknown");
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let condition = &record["condition"];
    assert!(condition["automaton_states"].as_u64() > Some(0), "{record}");
    assert!(condition["verified_nodes"].as_u64() > Some(0), "{record}");
}
