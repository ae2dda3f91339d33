//! Certificates as AIGER witness circuits in Certifaiger's format, and their re-check.
//!
//! The witness circuit of an [`Invariant`] is its extended system (the model's inputs and
//! latches first, then the auxiliary latches) whose single bad property is
//! `¬(invariant ∧ ¬bad)`: its "property" is the invariant plus the model's property, which is
//! inductive in the witness. Shared inputs and latches are named `= <model literal>` in the
//! symbol table, as Certifaiger expects, so the mapping survives renumbering.
//!
//! [`certify`] re-checks a witness circuit from any tool against the model: it must simulate
//! the model (same resets and next-state functions on the shared latches, constraints implied
//! by the model's, its property implying the model's) and its property must be inductive.
//!
//! Reset functions: the model's system has them lowered to a first-frame latch and
//! constraints ([`crate::front::aiger::to_transition_system`]), and so has every invariant of
//! it. Certifaiger compares the witness's resets with the model's reset logic and checks a
//! witness's constraints in states where only the shared latches are known, so the witness
//! circuit undoes the lowering on the model's latches: they keep the model's reset functions
//! (rebuilt from the file), the first-frame latch stays as an auxiliary latch (reset 1, next
//! 0), and the lowering's constraints `first -> latch == reset` move from the constraints
//! into the property. That property is still inductive: it holds initially, where the
//! latches are at their resets, and after a step `first` is 0.

use super::{check, solve_frames, CertError, Invariant};
use crate::aig::Lit;
use crate::aig::Var;
use crate::front::aiger::{self, Aiger};
use crate::sat::SatResult;
use crate::ts::TransitionSystem;
use crate::unroll::Start;
use crate::Budget;

/// The witness circuit of `inv`, an invariant of the model read from the AIGER file `model`
/// (whose literal numbering the mapping refers to).
pub fn witness_circuit(model: &Aiger, inv: &Invariant) -> Aiger {
    let mut sys = inv.system.clone();
    let n_model = model.latches.len();
    let lowered = (model.latches.iter())
        .filter(|l| l.reset_function().is_some())
        .count();
    let reset_holds: Vec<Lit> = sys.constraints.drain(..lowered).collect();
    let leaves: Vec<Var> = sys.latches[..n_model].iter().map(|l| l.var).collect();
    let inputs = sys.inputs.clone();
    let resets = aiger::reset_functions(model, &mut sys.aig, &inputs, &leaves);
    let any_bad = sys.aig.or_all(sys.bad.clone());
    let holds = sys.aig.and_all(reset_holds);
    let good = sys.aig.and_all([inv.predicate, !any_bad, holds]);
    name_for_certifaiger(&mut sys, model, n_model, good);
    let mut a = aiger::with_resets(&sys, &[], &resets);
    a.comments = vec!["WITNESS b0 warden invariant".into()];
    a
}

/// Why a witness circuit does not certify a model.
#[derive(Debug, thiserror::Error)]
pub enum CertifyError {
    /// The circuit does not fit the model, or one of its checks fails (the message says which).
    #[error("{0}")]
    Invalid(String),
    /// The invariant the circuit stands for fails its check on the model.
    #[error("{0}")]
    Check(CertError),
    /// A check ran out of budget: the circuit is neither accepted nor refuted.
    #[error("the check was interrupted")]
    Interrupted,
}

/// Checks that `cert` is a valid witness circuit for `model` (read from the file `file`).
pub fn certify(
    model: &TransitionSystem,
    file: &Aiger,
    cert: &Aiger,
    budget: &Budget,
) -> Result<(), CertifyError> {
    embed(model, file, cert, budget)?;
    Ok(())
}

/// A witness circuit mapped onto the model and checked for its safety part.
pub(crate) struct Embedding {
    /// The witness circuit as read.
    pub w: TransitionSystem,
    /// The model with the witness's own latches appended.
    pub ext: TransitionSystem,
    /// The image in `ext` of every input and latch of `w` (gates unmapped).
    pub leaves: Vec<Option<Lit>>,
    /// The witness's property (the negation of its one bad state), over `ext`.
    pub property: Lit,
}

/// Names `sys` the way Certifaiger reads a witness circuit: its inputs and first `n_model`
/// latches by the model literal they stand for (`= L`), the others `witnessN`; its one bad
/// property is the negation of `good`, the certificate's safe states.
pub(crate) fn name_for_certifaiger(
    sys: &mut TransitionSystem,
    model: &Aiger,
    n_model: usize,
    good: Lit,
) {
    // Inputs beyond the model's are a liveness witness's intervention inputs: unnamed, so
    // Certifaiger takes them for the witness's own.
    for (i, name) in sys.names.inputs.iter_mut().enumerate() {
        *name = model.inputs.get(i).map(|l| format!("= {l}"));
    }
    for (i, name) in sys.names.latches.iter_mut().enumerate() {
        *name = Some(match i < n_model {
            true => format!("= {}", model.latches[i].lit),
            false => format!("witness{}", i - n_model),
        });
    }
    sys.bad = vec![!good];
    sys.names.bad = vec![Some("invariant".into())];
}

/// Maps `cert` onto `model` and checks what makes it a safety certificate: it simulates the
/// model (same resets and next-state functions on the shared latches, constraints implied by
/// the model's, its property implying the model's) and its property is inductive.
pub(crate) fn embed(
    model: &TransitionSystem,
    file: &Aiger,
    cert: &Aiger,
    budget: &Budget,
) -> Result<Embedding, CertifyError> {
    // Every witness input must be a model input or an intervention input. Checked on the file
    // first: a binary header can announce millions of implicit inputs in a few bytes, and
    // building their system would take gigabytes before the first one is found not to map.
    let interventions = intervention_inputs(cert);
    for i in 0..cert.inputs.len() {
        if !interventions.contains(&i) {
            witness_input(cert.symbols.inputs.get(i).unwrap_or(&None), i, file)?;
        }
    }
    let (w, w_resets) = aiger::read(cert);
    if w.bad.len() != 1 {
        return Err(CertifyError::Invalid(format!(
            "the witness has {} properties, expected 1",
            w.bad.len()
        )));
    }
    let mut ext = model.clone();
    // The model's reset functions, over its own latches (the file's, before the lowering's).
    let file_vars: Vec<Var> = (model.latches[..file.latches.len()].iter())
        .map(|l| l.var)
        .collect();
    let model_resets = aiger::reset_functions(file, &mut ext.aig, &model.inputs, &file_vars);
    let reset_of = |resets: &[(usize, Lit)], i: usize| {
        (resets.iter()).find_map(|&(j, r)| (j == i).then_some(r))
    };
    let mut map: Vec<Option<Lit>> = vec![None; w.aig.num_vars()];
    for (i, v) in w.inputs.iter().enumerate() {
        // An intervention input stands for a latch of the second state in the liveness
        // literals only; the safety part must not read it (checked below), so any value does.
        map[v.index()] = Some(match interventions.contains(&i) {
            true => Lit::FALSE,
            false => model.inputs[witness_input(&w.names.inputs[i], i, file)?].lit(),
        });
    }
    let file_latches: Vec<u32> = file.latches.iter().map(|l| l.lit).collect();
    let mut shared = Vec::new();
    for (i, l) in w.latches.iter().enumerate() {
        let own_reset = reset_of(&w_resets, i);
        let image = match mapped(&w.names.latches[i], i, &file_latches) {
            Some(m) => {
                let model_reset = reset_of(&model_resets, m);
                if model.latches[m].init != l.init || model_reset.is_some() != own_reset.is_some() {
                    return Err(CertifyError::Invalid(format!(
                        "reset check: witness latch {i} does not reset like model latch {m}"
                    )));
                }
                shared.push((i, m));
                model.latches[m].var.lit()
            }
            None if own_reset.is_some() => {
                return Err(CertifyError::Invalid(format!(
                    "witness latch {i} has a reset function but is not a model latch (warden \
                     certify supports reset functions on the model's latches only)"
                )))
            }
            None => ext.add_latch(l.init, None).lit(),
        };
        map[l.var.index()] = Some(image);
    }
    let leaves = map.clone();
    let mut roots: Vec<Lit> = w.latches.iter().map(|l| l.next).collect();
    roots.extend(&w.constraints);
    roots.push(w.bad[0]);
    roots.extend(w_resets.iter().map(|&(_, r)| r));
    let cone = w.aig.cone(roots.iter().copied());
    if interventions.iter().any(|&i| cone[w.inputs[i].index()]) {
        return Err(CertifyError::Invalid(
            "an intervention input feeds a next-state function, a constraint, the property or \
             a reset"
                .into(),
        ));
    }
    let images = w.aig.copy_cone(&mut ext.aig, &mut map, &roots);
    let (nexts, rest) = images.split_at(w.latches.len());
    let (constraints, rest) = rest.split_at(w.constraints.len());
    let (bad, own_resets) = rest.split_at(1);
    let base = model.latches.len();
    let mut aux = base;
    for (i, &next) in nexts.iter().enumerate() {
        if !shared.iter().any(|&(j, _)| j == i) {
            ext.set_next(aux, next);
            aux += 1;
        }
    }
    let property = !bad[0];

    // Transition: shared latches have the model's next-state functions (under the model's
    // constraints); constraints: the model's imply the witness's; property: the witness's
    // implies the model's.
    let mut differences = Vec::new();
    for &(i, m) in &shared {
        differences.push(ext.aig.xor(nexts[i], model.latches[m].next));
    }
    let any_difference = ext.aig.or_all(differences);
    let mut reset_differences = Vec::new();
    for (&(i, _), &image) in w_resets.iter().zip(own_resets) {
        let m = shared.iter().find_map(|&(j, m)| (j == i).then_some(m));
        let model_reset = m.and_then(|m| reset_of(&model_resets, m));
        let model_reset = model_reset.expect("checked above: shared and with a reset function");
        reset_differences.push(ext.aig.xor(image, model_reset));
    }
    let any_reset_difference = ext.aig.or_all(reset_differences);
    let all_constraints = ext.aig.and_all(constraints.iter().copied());
    let any_bad = ext.aig.or_all(model.bad.clone());
    let property_fails = ext.aig.and(property, any_bad);
    for (what, lit) in [
        (
            "reset check: a shared latch has another reset function",
            any_reset_difference,
        ),
        (
            "transition check: a shared latch has another next-state function",
            any_difference,
        ),
        (
            "constraint check: the witness's constraints do not follow from the model's",
            !all_constraints,
        ),
        (
            "property check: the witness's property does not imply the model's",
            property_fails,
        ),
    ] {
        match solve_frames(&ext, Start::Free, 1, budget, &|un, s| {
            vec![un.lit(s, lit, 0)]
        }) {
            SatResult::Unsat => {}
            SatResult::Sat => return Err(CertifyError::Invalid(what.into())),
            SatResult::Interrupted => return Err(CertifyError::Interrupted),
        }
    }
    let inv = Invariant {
        system: ext,
        predicate: property,
    };
    check(model, &inv, budget).map_err(|e| match e {
        CertError::Interrupted => CertifyError::Interrupted,
        e => CertifyError::Check(e),
    })?;
    Ok(Embedding {
        w,
        ext: inv.system,
        leaves,
        property,
    })
}

/// The positions of the witness inputs that a latch names as its intervention (`<N`, `N` the
/// input's literal): Certifaiger reads them as that latch's value in the second state.
pub(crate) fn intervention_inputs(cert: &Aiger) -> Vec<usize> {
    let named = cert.symbols.latches.iter().flatten();
    let targets = named.filter_map(|n| intervention(n));
    targets
        .filter_map(|lit| cert.inputs.iter().position(|&i| i == lit))
        .collect()
}

/// The literal `N` of a symbol that names an intervention (`... <N`).
pub(crate) fn intervention(name: &str) -> Option<u32> {
    let (_, n) = name.split_once('<')?;
    n.trim().parse().ok()
}

/// The model input that witness input `i` (named `name`) stands for.
fn witness_input(name: &Option<String>, i: usize, file: &Aiger) -> Result<usize, CertifyError> {
    mapped(name, i, &file.inputs).ok_or_else(|| {
        CertifyError::Invalid(format!(
            "witness input {i} is not an input of the model (oracle inputs are not supported)"
        ))
    })
}

/// The model index a witness input or latch simulates: its `= <literal>` symbol (which an
/// intervention `<N` may follow), or its position when it has no such symbol.
fn mapped(name: &Option<String>, position: usize, model_lits: &[u32]) -> Option<usize> {
    match name.as_deref().and_then(|n| n.strip_prefix('=')) {
        Some(lit) => {
            let lit: u32 = lit.split_whitespace().next()?.parse().ok()?;
            model_lits.iter().position(|&l| l == lit)
        }
        None => (position < model_lits.len()).then_some(position),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::aiger::{from_transition_system, parse, to_transition_system};

    /// The mod-6 counter of the invariant tests, written as an AIGER file and read back.
    fn model() -> (Aiger, TransitionSystem) {
        let a = from_transition_system(&crate::cert::tests::mod6(), &[]);
        let ts = to_transition_system(&a);
        (a, ts)
    }

    #[test]
    fn written_certificate_is_accepted_and_a_weakened_one_rejected() {
        let (file, ts) = model();
        let (b1, b2) = (ts.latches[1].var.lit(), ts.latches[2].var.lit());
        let budget = Budget::new(None);
        let inv = Invariant::from_clauses(&ts, &[vec![!b1, !b2]]);
        let cert = witness_circuit(&file, &inv);
        certify(&ts, &file, &cert, &budget).unwrap();
        // Round trip through the binary format keeps it valid.
        let mut bytes = Vec::new();
        crate::front::aiger::write_binary(&cert, &mut bytes).unwrap();
        certify(&ts, &file, &parse(&bytes).unwrap(), &budget).unwrap();
        // Dropping the only clause leaves the property alone, which is not inductive (6 -> 7).
        let weak = witness_circuit(&file, &Invariant::from_clauses(&ts, &[]));
        assert!(certify(&ts, &file, &weak, &budget).is_err());
    }

    #[test]
    fn a_witness_that_changes_the_model_is_rejected() {
        let (file, ts) = model();
        let budget = Budget::new(None);
        let mut changed = ts.clone();
        changed.latches[2].next = Lit::FALSE; // bit 2 stuck at 0: "not bit 2" is then inductive
        let b2 = changed.latches[2].var.lit();
        let inv = Invariant::from_clauses(&changed, &[vec![!b2]]);
        let cert = witness_circuit(&file, &inv);
        let err = certify(&ts, &file, &cert, &budget).unwrap_err().to_string();
        assert!(err.contains("transition"), "{err}");
    }

    /// a resets to input x, b to !a; each step they swap; bad = (a == b). Safe only because
    /// of the resets.
    const SWAP: &[u8] = b"aag 6 1 2 0 3 1\n2\n4 6 2\n6 4 5\n13\n8 4 6\n10 5 7\n12 9 11\n";

    #[test]
    fn certificates_of_reset_functions_keep_them_and_are_accepted() {
        let file = parse(SWAP).unwrap();
        let ts = to_transition_system(&file);
        let (a, b) = (ts.latches[0].var.lit(), ts.latches[1].var.lit());
        let budget = Budget::new(None);
        let inv = Invariant::from_clauses(&ts, &[vec![a, b], vec![!a, !b]]);
        crate::cert::check(&ts, &inv, &budget).unwrap();
        let cert = witness_circuit(&file, &inv);
        // The model's latches keep their reset functions; the first-frame latch is the
        // witness's own; the lowering's constraints are in the property, not constraints.
        assert!(cert.latches[..2]
            .iter()
            .all(|l| l.reset_function().is_some()));
        assert_eq!(cert.latches[2].reset, 1);
        assert!(cert.constraints.is_empty());
        certify(&ts, &file, &cert, &budget).unwrap();
        let mut bytes = Vec::new();
        crate::front::aiger::write_binary(&cert, &mut bytes).unwrap();
        certify(&ts, &file, &parse(&bytes).unwrap(), &budget).unwrap();
        // b resetting to x instead of !a is another reset: rejected.
        let mut wrong = cert.clone();
        wrong.latches[1].reset = wrong.inputs[0];
        let err = certify(&ts, &file, &wrong, &budget)
            .unwrap_err()
            .to_string();
        assert!(err.contains("reset"), "{err}");
    }
}
