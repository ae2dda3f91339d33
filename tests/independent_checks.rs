//! Our own circuits with the independent checkers of `../shared/tools`: warden's portfolio
//! answers each AIGER and BTOR2 circuit of `circuits/manifest.tsv` with its expected verdict,
//! every witness is accepted by aigsim (AIGER) or btorsim (BTOR2), and every certificate by
//! Certifaiger's `certcheck` (for BTOR2, against `warden blast` of the model). Skips with a
//! message where the checkers cannot be built (no gcc).

mod common;

use common::warden;

use std::path::Path;

use common::checkers::{Check, Checkers};

#[test]
fn every_answer_on_our_circuits_passes_the_independent_checkers() {
    every_answer_passes(&[], "portfolio");
}

/// IC3 one step ahead of the bad states (`--ic3-pred-prop`): its counterexamples gain a frame
/// and its invariants the property when they are mapped back to the model, and the checkers
/// accept both.
#[test]
fn predicate_propagation_answers_pass_the_independent_checkers() {
    every_answer_passes(&["--engine", "ic3", "--ic3-pred-prop"], "pred-prop");
}

/// Checks every AIGER and BTOR2 circuit with `warden check ARGS` and its answer with the
/// independent checkers (see the module doc); `tag` names the scratch folder.
fn every_answer_passes(args: &[&str], tag: &str) {
    let Some(checkers) = Checkers::get() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("warden-indep-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (witness, cert, blasted) = (
        dir.join("witness"),
        dir.join("cert.aig"),
        dir.join("blasted.aig"),
    );
    let mut checked = [0usize; 3]; // aigsim, btorsim, certcheck
    for c in common::circuits() {
        let ext = c.path.extension().and_then(|e| e.to_str()).unwrap_or("");
        let btor2 = ext == "btor2" || ext == "btor";
        if ext != "aag" && ext != "aig" && !btor2 {
            continue; // C programs: no independent checker
        }
        let mut command: Vec<&std::ffi::OsStr> = vec![
            "check".as_ref(),
            c.path.as_os_str(),
            "--witness".as_ref(),
            witness.as_os_str(),
            "--cert".as_ref(),
            cert.as_os_str(),
        ];
        command.extend(args.iter().map(std::ffi::OsStr::new));
        let out = warden(&command);
        let verdict = String::from_utf8_lossy(&out.stdout);
        let verdict = verdict.lines().next().unwrap_or("");
        assert_eq!(verdict, c.expected, "{}", c.path.display());
        let check = match (verdict, btor2) {
            ("sat", false) => (0, checkers.aigsim(&c.path, &witness)),
            ("sat", true) => (1, checkers.btorsim(&c.path, &witness)),
            (_, false) => (2, checkers.certcheck(&c.path, &cert, &dir)),
            (_, true) => {
                let out = warden(&["blast".as_ref(), c.path.as_os_str(), blasted.as_os_str()]);
                assert!(out.status.success(), "blast {}", c.path.display());
                (2, checkers.certcheck(Path::new(&blasted), &cert, &dir))
            }
        };
        assert_eq!(check.1, Check::Accepted, "{}", c.path.display());
        checked[check.0] += 1;
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(checked.iter().all(|&n| n > 0), "checked: {checked:?}");
}

/// An array initialised to a non-zero constant is left out of the witness's `#0` (btorsim computes it
/// and aborts on an index line for it): btorsim and `warden sim` both accept the witness.
#[test]
fn btorsim_replays_a_witness_with_a_constant_initialised_array() {
    let Some(checkers) = Checkers::get() else {
        return;
    };
    let model = "\
1 sort bitvec 1
2 sort bitvec 2
3 sort bitvec 4
4 sort array 2 3
5 constd 3 5
6 state 4 mem
7 init 4 6 5
8 input 2 addr
9 input 3 val
10 write 4 6 8 9
11 next 4 6 10
12 zero 2
13 read 3 6 12
14 constd 3 9
15 eq 1 13 14
16 bad 15
";
    let dir = scratch("arr");
    let path = dir.join("mem.btor2");
    std::fs::write(&path, model).unwrap();
    let (verdict, witness) = check_with_witness(&path, &dir);
    assert_eq!(verdict, "sat");
    let text = std::fs::read_to_string(&witness).unwrap();
    assert!(
        !text.contains('['),
        "no array lines in the witness:\n{text}"
    );
    assert_eq!(checkers.btorsim(&path, &witness), Check::Accepted);
    let sim = warden(&["sim".as_ref(), path.as_os_str(), witness.as_os_str()]);
    assert!(sim.status.success(), "warden sim rejects:\n{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A fresh scratch directory of this test process.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("warden-indep-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `warden check MODEL --witness` and returns the verdict line and the witness path.
fn check_with_witness(model: &Path, dir: &Path) -> (String, std::path::PathBuf) {
    let witness = dir.join("witness");
    let out = warden(&[
        "check".as_ref(),
        model.as_os_str(),
        "--witness".as_ref(),
        witness.as_os_str(),
    ]);
    assert!(out.status.success(), "{}", model.display());
    let stdout = String::from_utf8_lossy(&out.stdout);
    (stdout.lines().next().unwrap_or("").to_owned(), witness)
}

/// Rotations mean what btorsim computes (`(a << b) | (a >> (w - b))`, not modulo the width):
/// a rotation of a non-zero word is 0 only for an amount past the width, so this property is
/// reachable under btorsim's meaning and unreachable under a modulo-width one.
const ROTATIONS_TO_ZERO: &str = "\
1 sort bitvec 3
2 sort bitvec 1
3 input 1 a
4 input 1 b
5 zero 1
6 rol 1 3 4
7 ror 1 3 4
8 eq 2 6 5
9 eq 2 7 5
10 neq 2 3 5
11 and 2 8 9
12 and 2 11 10
13 bad 12
";

/// warden answers `sat` on [`ROTATIONS_TO_ZERO`] and btorsim replays the witness.
#[test]
fn btorsim_replays_rotations_past_the_width() {
    let Some(checkers) = Checkers::get() else {
        return;
    };
    let dir = scratch("rot");
    let path = dir.join("rot.btor2");
    std::fs::write(&path, ROTATIONS_TO_ZERO).unwrap();
    let (verdict, witness) = check_with_witness(&path, &dir);
    assert_eq!(verdict, "sat");
    assert_eq!(checkers.btorsim(&path, &witness), Check::Accepted);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Left shifts read their amount as btorsim does (bits 32 to 63 dropped below `2^64`): a
/// 64-bit `ror` of 1 by an amount with its top bit set is `2^32`, and an `sll` of 1 by an
/// amount of at least `2^32` is 2, only under btorsim's reading (under SMT-LIB's both are 0),
/// so this property is reachable under btorsim's meaning alone.
const SHIFTS_PAST_2_32: &str = "\
1 sort bitvec 64
2 sort bitvec 1
3 input 1 r
4 input 1 s
5 one 1
6 ror 1 5 4
7 sll 1 5 3
8 consth 1 100000000
9 consth 1 8000000000000000
10 constd 1 2
11 eq 2 6 8
12 ugte 2 4 9
13 eq 2 7 10
14 ugte 2 3 8
15 and 2 11 12
16 and 2 13 14
17 and 2 15 16
18 bad 17
";

/// warden answers `sat` on [`SHIFTS_PAST_2_32`] with every engine that finds it, and btorsim
/// replays each witness.
#[test]
fn btorsim_replays_shifts_by_amounts_past_2_32() {
    let Some(checkers) = Checkers::get() else {
        return;
    };
    let dir = scratch("shifts");
    let path = dir.join("shifts.btor2");
    std::fs::write(&path, SHIFTS_PAST_2_32).unwrap();
    for engine in ["bmc", "ic3", "smt", "kind"] {
        let witness = dir.join("witness");
        let out = warden(&[
            "check".as_ref(),
            path.as_os_str(),
            "--engine".as_ref(),
            engine.as_ref(),
            "--witness".as_ref(),
            witness.as_os_str(),
        ]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(stdout.lines().next(), Some("sat"), "{engine}");
        assert_eq!(
            checkers.btorsim(&path, &witness),
            Check::Accepted,
            "{engine}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The difftest model whose witnesses btorsim rejected (a 64-bit `ror` by a free amount with
/// its top bit set; a regression file of `tests/data`, not a circuit of the manifest: BDD
/// reachability cannot decide its 64-bit rotation): the portfolio, IC3 and the run without
/// word-level simplification, the three that answered with such witnesses, now give
/// witnesses btorsim replays.
#[test]
fn btorsim_replays_the_witnesses_of_a_rotation_by_a_top_bit_amount() {
    let Some(checkers) = Checkers::get() else {
        return;
    };
    let path = common::root().join("tests/data/difftest_btor2_ror_amount_top_bit.btor2");
    let dir = scratch("ror601");
    let witness = dir.join("witness");
    for options in [&[][..], &["--engine", "ic3"], &["--wl-simplify", "false"]] {
        let mut args = vec!["check", path.to_str().unwrap(), "--witness"];
        args.push(witness.to_str().unwrap());
        args.extend(options);
        let out = warden(&args);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(stdout.lines().next(), Some("sat"), "{options:?}");
        assert_eq!(
            checkers.btorsim(&path, &witness),
            Check::Accepted,
            "{options:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every shift and rotation computed as btorsim computes it, at widths around 32 and 64 bits
/// and not powers of two, on amounts with high bits set: a model of constants whose one bad
/// property is the conjunction of `op(a, b) == warden's value` over all cases. warden answers
/// `sat` in frame 0 and btorsim, replaying the witness, must reach the property too.
#[test]
fn btorsim_computes_every_shift_as_warden_does() {
    use warden::wl::{eval, Binary, BitVec};
    let Some(checkers) = Checkers::get() else {
        return;
    };
    let mut text = String::from("1 sort bitvec 1\n");
    let mut id = 1;
    let mut line = |text: &mut String, body: String| {
        id += 1;
        text.push_str(&format!("{id} {body}\n"));
        id
    };
    let mut conjunction = line(&mut text, "one 1".into());
    let mut seed = 0x0bad_5eed_u64;
    let mut random = |w: u32| {
        let bits: Vec<bool> = (0..w)
            .map(|_| {
                seed = warden::rng::mix(seed.wrapping_add(1));
                seed & 1 == 1
            })
            .collect();
        BitVec::from_bits(&bits)
    };
    let mut cases = 0;
    for w in [3u32, 8, 31, 32, 33, 48, 63, 64, 65, 100] {
        let sort = line(&mut text, format!("sort bitvec {w}"));
        let small = |k: u64| BitVec::from_u64(w, k);
        let top = small(1).shl(w - 1);
        let bit = |i: u32| small(1).shl(i.min(w));
        let highs = [top.clone(), bit(32), bit(63), bit(64), bit(32).or(&top)];
        let mut amounts = vec![small(u64::from(w) - 1), small(u64::from(w) + 1), random(w)];
        for high in highs {
            let b = high.or(&small(u64::from(w / 2)));
            amounts.push(small(u64::from(w)).sub(&b));
            amounts.push(b);
        }
        let a = random(w);
        let a_id = line(&mut text, format!("const {sort} {}", a.to_binary()));
        for b in amounts {
            let b_id = line(&mut text, format!("const {sort} {}", b.to_binary()));
            for op in [
                Binary::Sll,
                Binary::Srl,
                Binary::Sra,
                Binary::Rol,
                Binary::Ror,
            ] {
                let value = eval::binary(op, &a, &b).to_binary();
                let got = line(&mut text, format!("{} {sort} {a_id} {b_id}", op.name()));
                let want = line(&mut text, format!("const {sort} {value}"));
                let same = line(&mut text, format!("eq 1 {got} {want}"));
                conjunction = line(&mut text, format!("and 1 {conjunction} {same}"));
                cases += 1;
            }
        }
    }
    line(&mut text, format!("bad {conjunction}"));
    assert!(cases > 500, "{cases} cases");
    let dir = scratch("shift-values");
    let path = dir.join("shifts.btor2");
    std::fs::write(&path, &text).unwrap();
    let (verdict, witness) = check_with_witness(&path, &dir);
    assert_eq!(verdict, "sat");
    assert_eq!(checkers.btorsim(&path, &witness), Check::Accepted);
    let _ = std::fs::remove_dir_all(&dir);
}

/// avr's issue-10 models rotate by amounts at and past the width; btorsim once rejected
/// warden's witnesses of them ("incompatible initialized state") when warden rotated modulo the
/// width. Both models have a counterexample; btorsim must replay warden's.
#[test]
fn btorsim_replays_the_witnesses_of_avr_issue10() {
    let Some(checkers) = Checkers::get() else {
        return;
    };
    let bench = common::root().join("../shared/bench/btor2");
    if !bench.is_dir() {
        eprintln!("skipped: ../shared/bench/btor2 is not present");
        return;
    }
    let dir = scratch("avr");
    for case in ["avr_issue10_case1.btor2", "avr_issue10_case2.btor2"] {
        let path = bench.join(case);
        let (verdict, witness) = check_with_witness(&path, &dir);
        assert_eq!(verdict, "sat", "{case}");
        assert_eq!(checkers.btorsim(&path, &witness), Check::Accepted, "{case}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A C program proved at a deeper recursion bound than the default: its certificate records
/// the bound, `warden blast --as-in CERT` writes the system read that way, and Certifaiger
/// accepts the certificate against it (against the default reading, the system differs).
#[test]
fn certcheck_accepts_a_recursive_programs_certificate_against_blast_as_in() {
    let Some(checkers) = Checkers::get() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("warden-rec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let program = dir.join("rec.c");
    std::fs::write(
        &program,
        "extern void reach_error(void);
         int id(int x) { if (x == 0) return 0; return id(x - 1) + 1; }
         int main() { if (id(6) != 6) reach_error(); return 0; }",
    )
    .unwrap();
    let (cert, model, plain) = (
        dir.join("cert.aag"),
        dir.join("model.aag"),
        dir.join("plain.aag"),
    );
    let out = warden(&[
        "check".as_ref(),
        program.as_os_str(),
        "--engine".as_ref(),
        "ufo".as_ref(),
        "--cert".as_ref(),
        cert.as_os_str(),
    ]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "unsat\n", "{out:?}");
    let text = std::fs::read_to_string(&cert).unwrap();
    assert!(text.contains("--recursion-bound"), "{text}");
    let args = |out: &Path, as_in: bool| {
        let mut a = vec!["blast".as_ref(), program.as_os_str(), out.as_os_str()];
        if as_in {
            a.extend(["--as-in".as_ref(), cert.as_os_str()]);
        }
        warden(&a)
    };
    assert!(args(&model, true).status.success());
    assert!(args(&plain, false).status.success());
    assert_ne!(
        std::fs::read(&model).unwrap(),
        std::fs::read(&plain).unwrap()
    );
    assert_eq!(checkers.certcheck(&model, &cert, &dir), Check::Accepted);
    let _ = std::fs::remove_dir_all(&dir);
}
