use super::*;
use crate::aig::Lit;
use crate::cert;
use crate::ts::replay;
use crate::ts::tests::{counter, irrelevant_counter};

fn configs() -> Vec<CegarOptions> {
    let mut out = Vec::new();
    for init_prec in [InitPrec::Empty, InitPrec::Prop] {
        let base = CegarOptions {
            init_prec,
            ..CegarOptions::default()
        };
        // Localization checked by another engine builds no graph, so no multi-seq.
        let engines = [AbstractEngine::Ic3, AbstractEngine::Bmc];
        for opts in base.varied(all_but(Refinement::MultiSeq), |o, r| o.refinement = r) {
            out.extend(opts.varied(engines, |o, e| o.abstract_engine = e));
        }
        for (max_enum, refinement) in [
            (0, Refinement::SeqItp),
            (1, Refinement::MultiSeq),
            (2, Refinement::UnsatCore),
            (10, Refinement::BwBinItp),
            (10, Refinement::FwBinItp),
        ] {
            out.push(CegarOptions {
                abstract_engine: AbstractEngine::Arg,
                max_enum,
                refinement,
                ..base
            });
        }
        let interpolating = CegarOptions {
            refinement: Refinement::SeqItp,
            ..base
        };
        for base in interpolating.varied(all_but(Domain::Expl), |o, d| o.domain = d) {
            let splits = [PredSplit::Whole, PredSplit::Conjuncts, PredSplit::Atoms];
            let orders = [(Search::Bfs, Prune::Lazy), (Search::Dfs, Prune::Full)];
            for opts in base.varied(splits, |o, s| o.pred_split = s) {
                out.extend(opts.varied(orders, |o, (s, p)| (o.search, o.prune) = (s, p)));
            }
            out.extend(base.varied(INTERPOLATING, |o, r| o.refinement = r));
        }
    }
    out
}

/// Runs `opts` on `ts`; checks a trace by replay and an invariant by `cert::check`.
fn check(ts: &TransitionSystem, opts: CegarOptions) -> (Verdict, Cegar) {
    check_with(ts, opts, Ic3Options::default())
}

/// [`check`] with localization's IC3 configured by `ic3`.
fn check_with(ts: &TransitionSystem, opts: CegarOptions, ic3: Ic3Options) -> (Verdict, Cegar) {
    let budget = Budget::new(Some(std::time::Duration::from_secs(20)));
    let mut e = Cegar::new(opts, Some(40)).with_ic3(ic3);
    let v = e.check(ts, &budget);
    match &v {
        Verdict::Unsafe(t) => assert!(replay(ts, t).is_ok(), "{opts:?}: trace does not replay"),
        Verdict::Safe(inv) => {
            assert_eq!(cert::check(ts, inv, &budget), Ok(()), "{opts:?}: invariant")
        }
        Verdict::Unknown { .. } => {}
    }
    (v, e)
}

/// Asserts the answer for a safe system: a (checked) invariant, or for localized BMC, which
/// proves nothing, the full bound.
fn assert_safe(opts: CegarOptions, v: &Verdict) {
    match v {
        Verdict::Unknown { .. } if weak(opts) => {}
        Verdict::Unknown { depth }
            if opts.abstract_engine == AbstractEngine::Bmc && opts.domain == Domain::Expl =>
        {
            assert_eq!(*depth, Some(40), "{opts:?}")
        }
        Verdict::Safe(_) => {}
        v => panic!("{opts:?}: {v:?}"),
    }
}

/// Forward binary interpolation refines only the end of the longest feasible prefix, and may
/// find nothing new there (seed 000: it fails on most models); it must never be wrong.
fn weak(opts: CegarOptions) -> bool {
    opts.refinement == Refinement::FwBinItp
}

fn stat(e: &Cegar, name: &str) -> u64 {
    e.stats().iter().find(|(k, _)| *k == name).unwrap().1
}

#[test]
fn localization_keeps_few_latches() {
    let ts = irrelevant_counter(12);
    for opts in configs() {
        let (v, e) = check(&ts, opts);
        assert_safe(opts, &v);
        if opts.domain == Domain::Expl {
            assert!(
                stat(&e, "cegar_precision") <= 2,
                "{opts:?}: too many latches"
            );
        }
    }
}

/// A counter with enable reaching 5 (at depth 5 at the earliest), plus the irrelevant
/// latches of the safe circuit.
fn counter_reaching_five() -> TransitionSystem {
    let mut ts = irrelevant_counter(3);
    let bits: Vec<Lit> = (0..3).map(|i| ts.latches[i].var.lit()).collect();
    let five = ts.aig.and_all([bits[0], !bits[1], bits[2]]);
    ts.bad = vec![five];
    ts
}

#[test]
fn finds_real_bugs_with_every_configuration() {
    let ts = counter_reaching_five();
    for opts in configs() {
        match check(&ts, opts).0 {
            Verdict::Unsafe(t) => assert!(t.depth() >= 5, "{opts:?}: too short"),
            Verdict::Unknown { .. } if weak(opts) => {}
            v => panic!("{opts:?}: {v:?}"),
        }
    }
}

/// Localization hands its abstractions to the IC3 it is given (the portfolio's
/// `cegar-loc-cdcl` runs `ic3-cdcl-deepest`, on warden's CDCL solver, deepest obligation
/// first): the same proofs, as few latches, the same bugs.
#[test]
fn localization_runs_the_ic3_it_is_given() {
    use crate::engine::ic3::{Ic3Sat, PoOrder};
    let ic3 = Ic3Options {
        sat: Ic3Sat::Cdcl,
        po_order: PoOrder::Deepest,
        ..Ic3Options::default()
    };
    for init_prec in [InitPrec::Empty, InitPrec::Prop] {
        let opts = CegarOptions {
            init_prec,
            ..CegarOptions::default()
        };
        let (v, e) = check_with(&irrelevant_counter(12), opts, ic3);
        assert!(matches!(v, Verdict::Safe(_)), "{init_prec:?}: {v:?}");
        assert!(stat(&e, "cegar_precision") <= 2, "{init_prec:?}");
        let (v, _) = check_with(&cert::tests::mod6(), opts, ic3);
        assert!(matches!(v, Verdict::Safe(_)), "{init_prec:?}: {v:?}");
        match check_with(&counter_reaching_five(), opts, ic3).0 {
            Verdict::Unsafe(t) => assert!(t.depth() >= 5, "{init_prec:?}: too short"),
            v => panic!("{init_prec:?}: {v:?}"),
        }
    }
}

#[test]
fn proves_a_counter_that_needs_its_latches() {
    let ts = cert::tests::mod6();
    for opts in configs() {
        assert_safe(opts, &check(&ts, opts).0);
    }
}

#[test]
fn uninitialised_and_constrained_latches() {
    // bit 2 uninitialised: 4 -> 7 in three steps; the constraint forbids enable in state 6.
    let mut ts = counter(3, 7, true);
    ts.latches[2].init = None;
    let (b0, b1, b2) = (
        ts.latches[0].var.lit(),
        ts.latches[1].var.lit(),
        ts.latches[2].var.lit(),
    );
    let six = ts.aig.and_all([!b0, b1, b2]);
    let en = ts.inputs[0].lit();
    let c = ts.aig.or(!six, !en);
    ts.constraints.push(c);
    for opts in configs() {
        assert_safe(opts, &check(&ts, opts).0);
    }
}

#[test]
fn refinements_need_their_domains() {
    let bad = CegarOptions {
        domain: Domain::PredCart,
        refinement: Refinement::UnsatCore,
        ..CegarOptions::default()
    };
    assert!(bad.validate().is_err());
    assert!(CegarOptions::default().validate().is_ok());
    let multi = CegarOptions {
        refinement: Refinement::MultiSeq,
        ..CegarOptions::default()
    };
    assert!(multi.validate().is_err(), "multi-seq without a graph");
    let graph = CegarOptions {
        abstract_engine: AbstractEngine::Arg,
        ..multi
    };
    assert!(graph.validate().is_ok());
}

/// Conjunct splitting visits a shared conjunction once: interpolant circuits are DAGs whose
/// conjunctions share subtrees, and a walk as a tree takes exponentially long (here 2^40).
#[test]
fn conjuncts_of_a_shared_dag() {
    let mut ts = counter(2, 3, false);
    let xs: Vec<Lit> = (0..40)
        .map(|i| ts.add_latch(Some(false), Some(format!("x{i}"))).lit())
        .collect();
    let (mut a, mut b) = (ts.latches[0].var.lit(), ts.latches[1].var.lit());
    for &x in &xs {
        let bx = ts.aig.and(b, x);
        (a, b) = (ts.aig.and(a, b), ts.aig.and(a, bx));
    }
    let f = ts.aig.and(a, b);
    let mut got = predicate::split_formula(
        &ts,
        &predicate::WordAtoms::new(&ts),
        f,
        PredSplit::Conjuncts,
    );
    got.sort();
    let mut want = vec![ts.latches[0].var.lit(), ts.latches[1].var.lit()];
    want.extend(&xs);
    want.sort();
    assert_eq!(got, want);
}

/// On a word-level model, `--pred-split atoms` takes the comparisons the model is written in
/// (here `c < 100` and `c > 200`, which prove it) instead of the counter's eight latches.
#[test]
fn an_atoms_split_refines_with_the_word_level_comparisons() {
    let model = crate::front::btor2::parse(crate::testing::SATURATING_COUNTER).unwrap();
    // Not preprocessed: preprocessing alone proves it (`c[7] == 0` is inductive).
    let (ts, _) = crate::wl::blast(&model, &crate::Budget::new(None)).unwrap();
    assert_eq!(ts.atoms.len(), 2);
    for domain in [Domain::PredCart, Domain::PredBool] {
        let opts = CegarOptions {
            domain,
            refinement: Refinement::SeqItp,
            pred_split: PredSplit::Atoms,
            init_prec: InitPrec::Empty,
            ..CegarOptions::default()
        };
        let (v, e) = check(&ts, opts);
        assert!(matches!(v, Verdict::Safe(_)), "{domain:?}: {v:?}");
        assert!(
            stat(&e, "cegar_precision") <= 2,
            "{domain:?}: {:?}",
            e.stats()
        );
        // Without them the atoms are the counter's latches: still a proof (how many
        // predicates it takes depends on the spurious paths the abstract engine returns:
        // `c[7] == 0` alone suffices, and the interpolants sometimes find it).
        let bits = TransitionSystem {
            atoms: Vec::new(),
            ..ts.clone()
        };
        let (v, _) = check(&bits, opts);
        assert!(matches!(v, Verdict::Safe(_)), "{domain:?} on bits: {v:?}");
    }
}
