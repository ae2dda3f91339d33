//! Liveness certificates: witness circuits for justice properties in the form Certifaiger
//! checks, written from a k-liveness proof, and their re-check.
//!
//! Certifaiger reads the justice and fairness literals of a witness circuit as a relation
//! between two states `x` and `y`: each literal is evaluated in `x`, except that the
//! next-state function of every latch named `<N>` (an *intervention*, `N` the literal of that
//! function) is replaced by the latch's value in `y`. Calling `q` the negation of a literal
//! and `Q(x, y)` "some literal of the (single) justice property or some fairness literal is
//! false", the witness must, besides simulating the model and having an inductive property
//! `P` as a safety certificate does, satisfy for states in `P`:
//! - liveness: along a step `s -> t`, each witness literal holds wherever the model's literal
//!   in the same position holds in `s`;
//! - decrease: along a step `s -> t`, `Q(t, s)`;
//! - closure: along a step `s -> t`, `Q(s, u)` implies `Q(t, u)` for every `u`;
//! - consistency: along steps `s -> t -> u` with `Q(s, t)` and `Q(t, u)`, every literal false
//!   for `(s, t)` is false for `(t, u)`.
//!
//! Read `Q(x, y)` as "`y` is not ranked above `x`": the rank never drops along a path
//! (decrease, closure), and while it stays level the set of false literals only grows
//! (consistency), so on an infinite path some literal is false from some step on, and by the
//! liveness condition so is the model's literal in its position: no path is fair.
//!
//! From k-liveness. The `k`-th counter system ([`crate::live::klive::counter_system`]) has a
//! `seen` latch per literal and a counter `c` of acceptances; its checked invariant `I`
//! excludes "`c = k` and accepting". The witness is that system with the property
//! `I ∧ ¬bad ∧ c ≤ k ∧ ¬(every literal seen)`, which is inductive: the counter cannot pass
//! `k`, and a step that would leave every literal seen accepts instead, which clears them.
//! The rank of a state is the pair (`c`, set of seen literals): `y` is *ahead* of `x` when
//! `c(y) > c(x)`, or the counts are equal and `y` has seen strictly more. Every step keeps the
//! rank or moves it ahead (an acceptance increments `c`, which cannot overflow below `k`;
//! otherwise `seen` only grows). The witness literal in the position of model literal `j` is
//! "`y` ahead of `x`, or `j` seen in `y`", so `Q(x, y)` is "`y` not ahead of `x` and some
//! literal unseen in `y`". A step where model literal `j` holds either accepts (ahead) or
//! records `j` as seen; a level step changes no `seen` latch, which gives consistency. The
//! `seen` latches and the counter bits are the interventions (but those whose next state is
//! a constant). The witness has exactly the model's literals: Certifaiger would also take
//! extra justice literals, but it leaves them out of the liveness condition, so the argument
//! above would not cover them.
//!
//! Bad-state properties of the same model are certified by their invariants, whose auxiliary
//! latches and predicates join the witness: one certificate covers every property of the
//! model, so it is written only when all of them hold.

use super::klive::counter_width;
use super::KliveProof;
use crate::aig::{Aig, Lit};
use crate::cert::{embed, name_for_certifaiger, CertifyError, Invariant};
use crate::front::aiger::{from_transition_system, Aiger};
use crate::sat::{Cadical, SatResult, Solver};
use crate::ts::TransitionSystem;
use crate::unroll::{Start, Unroller};
use crate::Budget;

/// Why no liveness certificate can be written.
#[derive(Debug, thiserror::Error)]
pub enum UncertifiedError {
    #[error("the model has {0} justice properties: a certificate covers exactly one")]
    Justice(usize),
    /// A rank latch's next-state function is not a gate of its own, so naming it as an
    /// intervention would replace another signal too.
    #[error("a next-state function of the k-liveness counter is not a gate of its own")]
    SharedNext,
}

/// The witness circuit for `model` (read from `file`, with one justice property) from the
/// k-liveness proof `proof` of that property and the invariants `safety[b]` of its bad-state
/// properties (each over an extension of `model`).
pub fn witness_circuit(
    model: &TransitionSystem,
    file: &Aiger,
    proof: &KliveProof,
    safety: &[Invariant],
) -> Result<Aiger, UncertifiedError> {
    if model.justice.len() != 1 {
        return Err(UncertifiedError::Justice(model.justice.len()));
    }
    let mut sys = proof.invariant.system.clone();
    let n = model.latches.len();
    let (n_justice, n_fair) = (model.justice[0].len(), model.fairness.len());
    let ranked: Vec<usize> = (n..n + n_justice + n_fair + counter_width(proof.k)).collect();
    let now: Vec<Lit> = ranked.iter().map(|&i| sys.latches[i].var.lit()).collect();
    let then: Vec<Lit> = ranked.iter().map(|&i| sys.latches[i].next).collect();
    let m = n_justice + n_fair;
    let (seen_x, count_x) = now.split_at(m);
    let (seen_y, count_y) = then.split_at(m);
    let ahead = ahead(&mut sys.aig, seen_x, count_x, seen_y, count_y);
    let literal: Vec<Lit> = (seen_y.iter()).map(|&s| sys.aig.or(ahead, s)).collect();
    sys.justice = vec![literal[..n_justice].to_vec()];
    sys.fairness = literal[n_justice..].to_vec();

    let at_most_k = !greater_than(&mut sys.aig, count_x, proof.k);
    let all_seen = sys.aig.and_all(seen_x.iter().copied());
    let counter_bad = sys.bad[0];
    let mut good = vec![
        proof.invariant.predicate,
        !counter_bad,
        at_most_k,
        !all_seen,
    ];
    for (b, inv) in safety.iter().enumerate() {
        good.push(join(&mut sys, model, inv));
        good.push(!model.bad[b]);
    }
    let good = sys.aig.and_all(good);
    name_for_certifaiger(&mut sys, file, n, good);
    let mut a = from_transition_system(&sys, &[]);
    // The interventions: each rank latch's next-state function, which must be a gate no
    // other rank latch shares. A constant one (the `seen` latch of a lone literal, which
    // acceptance clears at once) needs none: the relation reads the constant, as a step does.
    let first_gate = 2 * (a.inputs.len() + a.latches.len()) as u32 + 2;
    let mut nexts = Vec::new();
    for &i in &ranked {
        let next = a.latches[i].next;
        if next < 2 {
            continue;
        }
        if next < first_gate || nexts.contains(&(next & !1)) {
            return Err(UncertifiedError::SharedNext);
        }
        nexts.push(next & !1);
        a.symbols.latches[i] = Some(format!("witness{} <{next}", i - n));
    }
    a.comments = vec![format!(
        "WITNESS j0 warden k-liveness (k = {}): rank latches named <next>",
        proof.k
    )];
    Ok(a)
}

/// "`y` is ahead of `x`": a larger count, or the same count and strictly more seen.
fn ahead(aig: &mut Aig, seen_x: &[Lit], count_x: &[Lit], seen_y: &[Lit], count_y: &[Lit]) -> Lit {
    // Unsigned comparison from the least significant bit up: `gt` is "y > x" on the bits so
    // far.
    let mut gt = Lit::FALSE;
    let mut same = Vec::new();
    for (&x, &y) in count_x.iter().zip(count_y) {
        let y_only = aig.and(y, !x);
        let equal = !aig.xor(x, y);
        let keep = aig.and(equal, gt);
        gt = aig.or(y_only, keep);
        same.push(equal);
    }
    let mut level = same;
    for (&x, &y) in seen_x.iter().zip(seen_y) {
        level.push(!aig.and(x, !y));
    }
    let gained: Vec<Lit> = (seen_x.iter().zip(seen_y))
        .map(|(&x, &y)| aig.and(y, !x))
        .collect();
    let gained = aig.or_all(gained);
    level.push(gained);
    let more = aig.and_all(level);
    aig.or(gt, more)
}

/// "`bits` (least significant first) > `k`", unsigned.
fn greater_than(aig: &mut Aig, bits: &[Lit], k: u64) -> Lit {
    let mut gt = Lit::FALSE;
    for (i, &b) in bits.iter().enumerate() {
        gt = match k >> i & 1 == 1 {
            true => aig.and(b, gt),
            false => aig.or(b, gt),
        };
    }
    gt
}

/// Adds the auxiliary latches of `inv` (an invariant over an extension of `model`, whose
/// inputs and latches `sys` shares) to `sys` and returns its predicate there.
fn join(sys: &mut TransitionSystem, model: &TransitionSystem, inv: &Invariant) -> Lit {
    let src = &inv.system;
    let mut map: Vec<Option<Lit>> = vec![None; src.aig.num_vars()];
    for &v in &src.inputs {
        map[v.index()] = Some(v.lit());
    }
    let n = model.latches.len();
    for (i, l) in src.latches.iter().enumerate() {
        map[l.var.index()] = Some(match i < n {
            true => l.var.lit(),
            false => sys.add_latch(l.init, None).lit(),
        });
    }
    let mut roots: Vec<Lit> = src.latches[n..].iter().map(|l| l.next).collect();
    roots.push(inv.predicate);
    let mut images = src.aig.copy_cone(&mut sys.aig, &mut map, &roots);
    let predicate = images.pop().unwrap_or(Lit::TRUE);
    let base = sys.latches.len() - images.len();
    for (j, next) in images.into_iter().enumerate() {
        sys.set_next(base + j, next);
    }
    predicate
}

/// Checks that `cert` is a valid liveness witness circuit for `model` (read from `file`):
/// the safety part as for every witness circuit, then the liveness, decrease, closure and
/// consistency conditions of the module documentation, with every intervention of `cert` a
/// latch named `<N>` with `N` its own next-state literal. Closure is checked for every `u`,
/// not only those in the witness's property, which is stronger.
pub fn certify(
    model: &TransitionSystem,
    file: &Aiger,
    cert: &Aiger,
    budget: &Budget,
) -> Result<(), CertifyError> {
    let invalid = |what: &str| CertifyError::Invalid(what.into());
    let e = embed(model, file, cert, budget)?;
    let mut sys = e.ext.clone();
    // Relational copies of the witness's literals: one input per intervened latch stands for
    // its value in `y`.
    let mut map = e.leaves.clone();
    let mut ys = Vec::new();
    for (i, l) in e.w.latches.iter().enumerate() {
        let Some(name) = cert.symbols.latches.get(i).cloned().flatten() else {
            continue;
        };
        let Some((_, n)) = name.split_once('<') else {
            continue;
        };
        if n.trim().parse::<u32>().ok() != Some(cert.latches[i].next) {
            return Err(invalid(
                "intervention check: an intervention is not its latch's next-state function",
            ));
        }
        if l.next.is_const() || map[l.next.var().index()].is_some() {
            return Err(invalid(
                "intervention check: an intervened next-state function is not a gate",
            ));
        }
        let y = sys.add_input(None).lit();
        map[l.next.var().index()] = Some(y.xor_sign(l.next.is_negated()));
        ys.push((e.leaves[l.var.index()].expect("latches are mapped"), y));
    }
    // Certifaiger takes witnesses of other shapes, but an extra justice literal escapes the
    // liveness condition: one that is constantly false makes `Q` hold everywhere and passes
    // every check on a model whose property fails. So the shapes must be equal.
    let shape = |t: &TransitionSystem| {
        let sizes: Vec<usize> = t.justice.iter().map(Vec::len).collect();
        (t.fairness.len(), sizes)
    };
    if shape(&e.w) != shape(model) {
        return Err(invalid(
            "liveness check: the witness's justice and fairness literals are not the model's in \
             number",
        ));
    }
    let roots: Vec<Lit> = (e.w.fairness.iter())
        .chain(e.w.justice.iter().flatten())
        .copied()
        .collect();
    let images = e.w.aig.copy_cone(&mut sys.aig, &mut map, &roots);
    let (fair, just) = images.split_at(e.w.fairness.len());
    // Q: every justice property has a false literal, or some fairness literal is false.
    let some_fair_false = sys.aig.or_all(fair.iter().map(|&l| !l));
    let mut at = 0;
    let mut per_property = Vec::new();
    for j in &e.w.justice {
        let lits = just[at..at + j.len()].iter().map(|&l| !l);
        let some = sys.aig.or_all(lits);
        per_property.push(sys.aig.or(some_fair_false, some));
        at += j.len();
    }
    let q = sys.aig.and_all(per_property);
    // The model's literals and the witness's in the same positions.
    let model_lits = model.fairness.iter().chain(model.justice.iter().flatten());
    let pairs: Vec<(Lit, Lit)> = model_lits.copied().zip(images.iter().copied()).collect();
    let p = e.property;
    let ranked = Ranked {
        sys: &sys,
        ys: &ys,
        p,
    };
    // Liveness: along s -> t, the model's literal in s implies the witness's for (s, t).
    for &(m, w) in &pairs {
        ranked.refute(2, &[(0, 1)], &[(m, 0), (!w, 0)], budget, "liveness")?;
    }
    // Decrease: along s -> t, Q(t, s).
    ranked.refute(2, &[(1, 0)], &[(!q, 1)], budget, "decrease")?;
    // Closure: along s -> t, Q(s, u) implies Q(t, u), u's latches the free inputs of frame 0
    // (and the same in frame 1).
    ranked.refute(2, &[], &[(q, 0), (!q, 1)], budget, "closure")?;
    // Consistency: along s -> t -> u with Q(s, t) and Q(t, u), a literal false for (s, t)
    // is false for (t, u).
    for &l in fair.iter().chain(just) {
        let held = [(q, 0), (q, 1), (!l, 0), (l, 1)];
        ranked.refute(3, &[(0, 1), (1, 2)], &held, budget, "consistency")?;
    }
    Ok(())
}

/// The relational queries of [`certify`] over `sys` (the model, the witness's latches and
/// one input per intervention: `ys[i]` is `(latch, input)`), with the property `p` and the
/// constraints asserted in every frame.
struct Ranked<'a> {
    sys: &'a TransitionSystem,
    ys: &'a [(Lit, Lit)],
    p: Lit,
}

impl Ranked<'_> {
    /// Fails with a message naming `what` when, over `frames` connected frames, the
    /// literals `held` (each at its frame) can all hold. `links` `(a, b)` make the
    /// intervention inputs of frame `a` equal to their latches in frame `b`; without a link
    /// for frame 1, frame 1's inputs equal frame 0's (the same `y`).
    fn refute(
        &self,
        frames: usize,
        links: &[(usize, usize)],
        held: &[(Lit, usize)],
        budget: &Budget,
        what: &str,
    ) -> Result<(), CertifyError> {
        let mut s = Cadical::for_small_queries(budget);
        let mut un = Unroller::new(self.sys, Start::Free);
        let mut assume = Vec::new();
        for k in 0..frames {
            for &c in self.sys.constraints.iter().chain([&self.p]) {
                let l = un.lit(&mut s, c, k);
                s.add_clause(&[l]);
            }
        }
        let pairs: Vec<(usize, usize)> = match links {
            [] => vec![(1, 0)],
            _ => links.to_vec(),
        };
        for (a, b) in pairs {
            for &(latch, y) in self.ys {
                let ya = un.lit(&mut s, y, a);
                let target = match links.is_empty() {
                    true => un.lit(&mut s, y, b),
                    false => un.lit(&mut s, latch, b),
                };
                s.add_clause(&[!ya, target]);
                s.add_clause(&[ya, !target]);
            }
        }
        for &(l, k) in held {
            assume.push(un.lit(&mut s, l, k));
        }
        match s.solve(&assume) {
            SatResult::Unsat => Ok(()),
            SatResult::Sat => Err(CertifyError::Invalid(format!("{what} check fails"))),
            SatResult::Interrupted => Err(CertifyError::Interrupted),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{EngineKind, Options};
    use crate::front::aiger::{parse, to_transition_system};
    use crate::live::{self, LiveAnswer};

    #[test]
    fn a_k_liveness_proof_makes_a_certificate_that_passes_its_check() {
        // The counter that counts when its enable (a fairness constraint) is high: it wraps
        // on every fair path, so "never wraps" holds.
        let file = from_transition_system(&live::tests::counter_wrap(true, true), &[]);
        let model = to_transition_system(&file);
        let budget = Budget::new(None);
        let opts = Options::new(EngineKind::Klive);
        let report = live::check(&model, 0, &opts, &budget).unwrap();
        let LiveAnswer::Unsat { klive: Some(proof) } = report.answer else {
            panic!("k-liveness proves it: {:?}", report.answer)
        };
        let cert = witness_circuit(&model, &file, &proof, &[]).unwrap();
        let mut bytes = Vec::new();
        crate::front::aiger::write_binary(&cert, &mut bytes).unwrap();
        certify(&model, &file, &parse(&bytes).unwrap(), &budget).unwrap();
        // Without the fairness constraint the justice literal alone gives no progress: the
        // same rank claims too much.
        let mut unfair = cert.clone();
        unfair.fairness = vec![1];
        let err = certify(&model, &file, &unfair, &budget).unwrap_err();
        assert!(err.to_string().contains("decrease"), "{err}");
    }

    /// A latch that toggles for ever with the justice literal "true": the property fails.
    /// Certifaiger accepts the witness that adds a constantly false justice literal; the
    /// shape check refuses it.
    #[test]
    fn an_extra_justice_literal_is_refused() {
        let file = parse(b"aag 1 0 1 0 0 0 0 1 0\n2 3\n1\n1\n").unwrap();
        let model = to_transition_system(&file);
        let cert = parse(b"aag 1 0 1 0 0 1 0 1 0\n2 3\n0\n2\n1\n0\n").unwrap();
        let err = certify(&model, &file, &cert, &Budget::new(None)).unwrap_err();
        assert!(err.to_string().contains("in number"), "{err}");
    }
}
