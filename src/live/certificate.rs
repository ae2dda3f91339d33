//! Liveness certificates: witness circuits for justice properties in the form Certifaiger
//! checks, written from k-liveness and liveness-to-safety proofs, and their re-check.
//!
//! Certifaiger reads the justice and fairness literals of a witness circuit as a relation
//! between two states `x` and `y`: each literal is evaluated in `x`, except that every
//! literal `N` named by a latch as `<N` (an *intervention*) reads that latch's value in `y`.
//! Calling `q` the negation of a literal and `Q(x, y)` "every justice property has a false
//! literal or some fairness literal is false", the witness must, besides simulating the model
//! and having an inductive property `P` as a safety certificate does, satisfy for states in
//! `P`:
//! - liveness: along a step `s -> t`, each witness literal holds wherever the model's literal
//!   in the same position holds in `s`;
//! - decrease: along a step `s -> t`, `Q(t, s)`;
//! - closure: along a step `s -> t`, `Q(s, u)` implies `Q(t, u)` for every `u`;
//! - consistency: along steps `s -> t -> u` with `Q(s, t)` and `Q(t, u)`, every literal false
//!   for `(s, t)` is false for `(t, u)`.
//!
//! Read `Q(x, y)` as "`y` is not ranked above `x`": the rank never drops along a path
//! (decrease, closure), and while it stays level the set of false literals only grows
//! (consistency), so on an infinite path some literal of each property is false from some
//! step on, and by the liveness condition so is the model's literal in its position: no path
//! is fair for any justice property.
//!
//! The witness is the model plus one rank component per justice property ([`rank`]), from its
//! k-liveness or liveness-to-safety proof: `ahead_i(x, y)` and, per literal, `seen_i(y)`.
//! With `ahead` the disjunction of the components', the witness literal of justice literal
//! `l` of property `i` is `ahead ∨ seen_i,l` and that of fairness constraint `f` is
//! `ahead ∨ ∧_i seen_i,f`. Then `Q(x, y)` implies that no component is ahead, so a step with
//! `Q` is level in every component and changes no `seen` (consistency); the components'
//! conditions ([`rank`]) give the other three. Every `y` value is read through an input of
//! the witness named by its latch (`<N`), which the safety part of the witness never reads.
//! The witness has exactly the model's literals: Certifaiger would also take extra justice
//! literals, but it leaves them out of the liveness condition, so the argument above would
//! not cover them.
//!
//! Bad-state properties of the same model are certified by their invariants, whose auxiliary
//! latches and predicates join the witness: one certificate covers every property of the
//! model, so it is written only when all of them hold.

pub use super::rank::UncertifiedError;
use super::rank::{Component, Witness};
use super::LiveProof;
use crate::aig::Lit;
use crate::cert::{
    embed, intervention, intervention_inputs, name_for_certifaiger, solve_frames, CertifyError,
    Invariant,
};
use crate::front::aiger::{from_transition_system, Aiger};
use crate::sat::{Cadical, SatResult, Solver};
use crate::ts::TransitionSystem;
use crate::unroll::{Start, Unroller};
use crate::Budget;

/// The witness circuit for `model` (read from `file`) from `proofs`, one per justice property
/// in order, and the invariants `safety[b]` of its bad-state properties (each over an
/// extension of `model`).
pub fn witness_circuit(
    model: &TransitionSystem,
    file: &Aiger,
    proofs: &[LiveProof],
    safety: &[Invariant],
) -> Result<Aiger, UncertifiedError> {
    let mut w = Witness {
        sys: model.without_properties(),
        model,
        then: Vec::new(),
        good: Vec::new(),
    };
    let n_fair = model.fairness.len();
    let mut components: Vec<Component> = Vec::new();
    for (j, proof) in proofs.iter().enumerate() {
        let literals = model.justice[j].len() + n_fair;
        components.push(match proof {
            LiveProof::Klive(p) => w.klive(p, literals),
            LiveProof::L2s(inv) => w.l2s(inv, j, literals)?,
        });
    }
    for (b, inv) in safety.iter().enumerate() {
        let holds = w.join(inv);
        w.good.extend([holds, !model.bad[b]]);
    }
    let aig = &mut w.sys.aig;
    let ahead = aig.or_all(components.iter().map(|c| c.ahead));
    let mut justice = Vec::new();
    for (j, c) in components.iter().enumerate() {
        let seen = &c.seen[..model.justice[j].len()];
        justice.push(seen.iter().map(|&s| aig.or(ahead, s)).collect());
    }
    let mut fairness = Vec::new();
    for f in 0..n_fair {
        let all = components.iter().map(|c| c.seen[c.seen.len() - n_fair + f]);
        let all = aig.and_all(all.collect::<Vec<_>>());
        fairness.push(aig.or(ahead, all));
    }
    let good = aig.and_all(w.good.clone());
    let mut sys = w.sys;
    sys.justice = justice;
    sys.fairness = fairness;
    let n = model.latches.len();
    name_for_certifaiger(&mut sys, file, n, good);
    let mut a = from_transition_system(&sys, &[]);
    // The interventions: each latch read in the second state names the input standing for it.
    for &(latch, y) in &w.then {
        let input = sys.inputs.iter().position(|v| v.lit() == y);
        let input = input.expect("intervention inputs are inputs");
        let name = a.symbols.latches[latch].take().unwrap_or_default();
        a.symbols.latches[latch] = Some(format!("{name} <{}", a.inputs[input]));
    }
    let kinds: Vec<&str> = (proofs.iter())
        .map(|p| match p {
            LiveProof::Klive(_) => "k-liveness",
            LiveProof::L2s(_) => "l2s",
        })
        .collect();
    a.comments = vec![format!(
        "WITNESS warden liveness ranks ({}): intervened latches named <input>",
        kinds.join(", ")
    )];
    Ok(a)
}

/// Checks that `cert` is a valid liveness witness circuit for `model` (read from `file`):
/// the safety part as for every witness circuit, then the liveness, decrease, closure and
/// consistency conditions of the module documentation, with every intervention of `cert` a
/// latch named `<N`, `N` an input of the witness's own (which its safety part does not read)
/// or the latch's own next-state gate. Closure is checked for every `u`, not only those in
/// the witness's property, which is stronger.
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
    let inputs = intervention_inputs(cert);
    let mut intervened = Vec::new();
    for (i, l) in e.w.latches.iter().enumerate() {
        let Some(name) = cert.symbols.latches.get(i).cloned().flatten() else {
            continue;
        };
        if !name.contains('<') {
            continue;
        }
        let n = intervention(&name)
            .ok_or_else(|| invalid("intervention check: an intervention names no literal"))?;
        // An intervention input (free in the safety part, checked by `embed`) or the latch's
        // own next-state function, which must be a gate of its own.
        let target = match cert.inputs.iter().position(|&x| x == n) {
            Some(p) if inputs.contains(&p) => e.w.inputs[p].lit(),
            _ if n == cert.latches[i].next => l.next,
            _ => {
                return Err(invalid(
                    "intervention check: an intervention is neither an input of the witness's \
                     own nor its latch's next-state function",
                ))
            }
        };
        let input = e.w.inputs.iter().any(|v| v.lit() == target);
        let leaf = !input && map[target.var().index()].is_some();
        if target.is_const() || leaf || intervened.contains(&target.var()) {
            return Err(invalid(
                "intervention check: an intervened literal is not a gate or input of its own",
            ));
        }
        intervened.push(target.var());
        let y = sys.add_input(None).lit();
        map[target.var().index()] = Some(y.xor_sign(target.is_negated()));
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
        let pairs: Vec<(usize, usize)> = match links {
            [] => vec![(1, 0)],
            _ => links.to_vec(),
        };
        let query = |un: &mut Unroller, s: &mut Cadical| {
            for k in 0..frames {
                let l = un.lit(s, self.p, k);
                s.add_clause(&[l]);
            }
            for &(a, b) in &pairs {
                for &(latch, y) in self.ys {
                    let ya = un.lit(s, y, a);
                    let target = match links.is_empty() {
                        true => un.lit(s, y, b),
                        false => un.lit(s, latch, b),
                    };
                    s.add_clause(&[!ya, target]);
                    s.add_clause(&[ya, !target]);
                }
            }
            held.iter().map(|&(l, k)| un.lit(s, l, k)).collect()
        };
        match solve_frames(self.sys, Start::Free, frames, budget, &query) {
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
        let LiveAnswer::Unsat { proof: Some(proof) } = report.answer else {
            panic!("k-liveness proves it: {:?}", report.answer)
        };
        let cert = witness_circuit(&model, &file, &[*proof], &[]).unwrap();
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

    /// Two justice properties sharing a fairness constraint, one proved by k-liveness, the
    /// other by liveness to safety: one certificate combines both kinds of rank.
    #[test]
    fn k_liveness_and_l2s_ranks_combine_in_one_certificate() {
        let file = parse(include_bytes!("../../circuits/live/two_justice_unsat.aag")).unwrap();
        let model = to_transition_system(&file);
        let budget = Budget::new(None);
        let proof = |j: usize, engine| {
            let opts = Options::new(engine);
            let report = live::check_for_certificate(&model, j, &opts, &budget).unwrap();
            match report.answer {
                LiveAnswer::Unsat { proof: Some(p) } => *p,
                a => panic!("j{j} is proved with a certificate: {a:?}"),
            }
        };
        let proofs = [proof(0, EngineKind::Klive), proof(1, EngineKind::Ic3)];
        assert!(matches!(proofs[1], LiveProof::L2s(_)));
        let cert = witness_circuit(&model, &file, &proofs, &[]).unwrap();
        let mut bytes = Vec::new();
        crate::front::aiger::write_binary(&cert, &mut bytes).unwrap();
        certify(&model, &file, &parse(&bytes).unwrap(), &budget).unwrap();
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
