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

use super::{check, solve_frames, CertError, Invariant};
use crate::aig::Lit;
use crate::front::aiger::{from_transition_system, to_transition_system, Aiger, UnsupportedReset};
use crate::sat::SatResult;
use crate::ts::TransitionSystem;
use crate::unroll::Start;
use crate::Budget;

/// The witness circuit of `inv`, an invariant of the model read from the AIGER file `model`
/// (whose literal numbering the mapping refers to).
pub fn witness_circuit(model: &Aiger, inv: &Invariant) -> Aiger {
    let mut sys = inv.system.clone();
    let any_bad = sys.aig.or_all(sys.bad.clone());
    let good = sys.aig.and(inv.predicate, !any_bad);
    let n_model = model.latches.len();
    for (i, name) in sys.names.inputs.iter_mut().enumerate() {
        *name = Some(format!("= {}", model.inputs[i]));
    }
    for (i, name) in sys.names.latches.iter_mut().enumerate() {
        *name = Some(match i < n_model {
            true => format!("= {}", model.latches[i].lit),
            false => format!("witness{}", i - n_model),
        });
    }
    sys.bad = vec![!good];
    sys.names.bad = vec![Some("invariant".into())];
    let mut a = from_transition_system(&sys, &[]);
    a.comments = vec!["WITNESS b0 warden invariant".into()];
    a
}

/// Why a witness circuit does not certify a model.
#[derive(Debug, thiserror::Error)]
pub enum CertifyError {
    /// The witness circuit uses a reset function.
    #[error(transparent)]
    Reset(#[from] UnsupportedReset),
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
pub(super) struct Embedding {
    /// The witness circuit as read.
    pub w: TransitionSystem,
    /// The model with the witness's own latches appended.
    pub ext: TransitionSystem,
    /// The image in `ext` of every input and latch of `w` (gates unmapped).
    pub leaves: Vec<Option<Lit>>,
    /// The witness's property (the negation of its one bad state), over `ext`.
    pub property: Lit,
}

/// Maps `cert` onto `model` and checks what makes it a safety certificate: it simulates the
/// model (same resets and next-state functions on the shared latches, constraints implied by
/// the model's, its property implying the model's) and its property is inductive.
pub(super) fn embed(
    model: &TransitionSystem,
    file: &Aiger,
    cert: &Aiger,
    budget: &Budget,
) -> Result<Embedding, CertifyError> {
    // Every witness input must be a model input. Checked on the file first: a binary
    // header can announce millions of implicit inputs in a few bytes, and building their
    // system would take gigabytes before the first one is found not to map.
    for i in 0..cert.inputs.len() {
        witness_input(cert.symbols.inputs.get(i).unwrap_or(&None), i, file)?;
    }
    let w = to_transition_system(cert)?;
    if w.bad.len() != 1 {
        return Err(CertifyError::Invalid(format!(
            "the witness has {} properties, expected 1",
            w.bad.len()
        )));
    }
    let mut ext = model.clone();
    let mut map: Vec<Option<Lit>> = vec![None; w.aig.num_vars()];
    for (i, v) in w.inputs.iter().enumerate() {
        let target = witness_input(&w.names.inputs[i], i, file)?;
        map[v.index()] = Some(model.inputs[target].lit());
    }
    let file_latches: Vec<u32> = file.latches.iter().map(|l| l.lit).collect();
    let mut shared = Vec::new();
    for (i, l) in w.latches.iter().enumerate() {
        let image = match mapped(&w.names.latches[i], i, &file_latches) {
            Some(m) => {
                if model.latches[m].init != l.init {
                    return Err(CertifyError::Invalid(format!(
                        "reset check: witness latch {i} does not reset like model latch {m}"
                    )));
                }
                shared.push((i, m));
                model.latches[m].var.lit()
            }
            None => ext.add_latch(l.init, None).lit(),
        };
        map[l.var.index()] = Some(image);
    }
    let leaves = map.clone();
    let mut roots: Vec<Lit> = w.latches.iter().map(|l| l.next).collect();
    roots.extend(&w.constraints);
    roots.push(w.bad[0]);
    let images = w.aig.copy_cone(&mut ext.aig, &mut map, &roots);
    let (nexts, rest) = images.split_at(w.latches.len());
    let (constraints, bad) = rest.split_at(w.constraints.len());
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
    let all_constraints = ext.aig.and_all(constraints.iter().copied());
    let any_bad = ext.aig.or_all(model.bad.clone());
    let property_fails = ext.aig.and(property, any_bad);
    for (what, lit) in [
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

/// The model index a witness input or latch simulates: its `= <literal>` symbol, or its
/// position when it has no such symbol.
/// The model input that witness input `i` (named `name`) stands for.
fn witness_input(name: &Option<String>, i: usize, file: &Aiger) -> Result<usize, CertifyError> {
    mapped(name, i, &file.inputs).ok_or_else(|| {
        CertifyError::Invalid(format!(
            "witness input {i} is not an input of the model (oracle inputs are not supported)"
        ))
    })
}

fn mapped(name: &Option<String>, position: usize, model_lits: &[u32]) -> Option<usize> {
    match name.as_deref().and_then(|n| n.strip_prefix('=')) {
        Some(lit) => {
            let lit: u32 = lit.trim().parse().ok()?;
            model_lits.iter().position(|&l| l == lit)
        }
        None => (position < model_lits.len()).then_some(position),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::aiger::parse;

    /// The mod-6 counter of the invariant tests, written as an AIGER file and read back.
    fn model() -> (Aiger, TransitionSystem) {
        let a = from_transition_system(&crate::cert::tests::mod6(), &[]);
        let ts = to_transition_system(&a).unwrap();
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
}
