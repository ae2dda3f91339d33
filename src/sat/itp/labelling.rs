//! Interpolants from resolution chains: McMillan's and Pudlák's systems.
//!
//! For a cut `j`, clauses of partitions `<= j` form A, the others B. A variable is A-local
//! (occurs only in A), B-local, or shared. Every clause of the proof gets a partial
//! interpolant; the empty clause's is the interpolant:
//! - A clause of A: McMillan: the disjunction of its shared literals; Pudlák: false.
//! - A clause of B: true.
//! - Resolving `R` (containing `!p`) with `C` (containing `p`) on the variable of `p`:
//!   A-local: `I(R) or I(C)`; B-local: `I(R) and I(C)`; shared: McMillan `I(R) and I(C)`,
//!   Pudlák `(p or I(C)) and (!p or I(R))`.
//!
//! McMillan's interpolants are the strongest of the two (closest to A), which suits IMC's
//! image over-approximation; Pudlák's symmetric system is the alternative.

use std::collections::HashMap;

use super::tracer::{Recorder, Step};
use super::{Interpolant, ItpError, System};
use crate::aig::{self, Aig};
use crate::sat::{Lit, Var};
use crate::Budget;

const NONE: u32 = u32::MAX;

/// Where a variable occurs relative to the cut.
enum Class {
    ALocal,
    BLocal,
    Shared,
}

/// Proof steps labelled between two checks of the budget.
const STEPS_PER_CHECK: usize = 1 << 14;

/// The interpolant of the cut between partitions `<= cut` and `> cut` of `rec`'s proof.
/// A proof of millions of steps takes seconds to label, so the budget is checked on the way.
pub(super) fn interpolant(
    rec: &Recorder,
    cut: u32,
    system: System,
    budget: &Budget,
) -> Result<Interpolant, ItpError> {
    if let Some(e) = &rec.error {
        return Err(ItpError::Proof(e.clone()));
    }
    let empty = rec.empty.ok_or(ItpError::NoRefutation)?;
    let needed = needed(rec, empty);
    let classify = |v: Var| -> Result<Class, ItpError> {
        let (lo, hi) = rec.parts_of(v).ok_or_else(|| {
            ItpError::Proof(format!("variable {} occurs in no input clause", v.idx()))
        })?;
        Ok(if hi <= cut {
            Class::ALocal
        } else if lo > cut {
            Class::BLocal
        } else {
            Class::Shared
        })
    };
    let mut b = Builder::default();
    let mut itp = vec![NONE; rec.steps.len()];
    let get = |itp: &[u32], id: usize| -> Result<aig::Lit, ItpError> {
        match itp.get(id) {
            Some(&code) if code != NONE => Ok(aig::Lit(code)),
            _ => Err(ItpError::Proof(format!(
                "clause {id} used before it is derived"
            ))),
        }
    };
    for (id, step) in rec.steps.iter().enumerate() {
        if !needed[id] {
            continue;
        }
        if id % STEPS_PER_CHECK == 0 && budget.expired() {
            return Err(ItpError::Stopped);
        }
        let value = match step {
            Step::Absent => return Err(ItpError::Proof(format!("clause {id} is unknown"))),
            Step::Original { part } if *part > cut => aig::Lit::TRUE,
            Step::Original { .. } => match system {
                System::Pudlak => aig::Lit::FALSE,
                System::McMillan => {
                    let mut acc = aig::Lit::FALSE;
                    for &l in rec.original_lits(id) {
                        if let Class::Shared = classify(l.var())? {
                            let leaf = b.leaf(l);
                            acc = b.aig.or(acc, leaf);
                        }
                    }
                    acc
                }
            },
            Step::Derived { start, chain } => {
                let mut acc = get(&itp, *start)?;
                for &(reason, p) in chain.iter() {
                    let other = get(&itp, reason)?;
                    acc = match (classify(p.var())?, system) {
                        (Class::ALocal, _) => b.aig.or(acc, other),
                        (Class::BLocal, _) | (Class::Shared, System::McMillan) => {
                            b.aig.and(acc, other)
                        }
                        (Class::Shared, System::Pudlak) => {
                            let pl = b.leaf(p);
                            let left = b.aig.or(pl, other);
                            let right = b.aig.or(!pl, acc);
                            b.aig.and(left, right)
                        }
                    };
                }
                acc
            }
        };
        itp[id] = value.0;
    }
    let root = get(&itp, empty)?;
    Ok(Interpolant {
        aig: b.aig,
        root,
        leaves: b.leaves,
    })
}

/// Marks the clauses the empty clause's derivation uses.
fn needed(rec: &Recorder, empty: usize) -> Vec<bool> {
    let mut mark = vec![false; rec.steps.len()];
    let mut stack = vec![empty];
    while let Some(id) = stack.pop() {
        if id >= mark.len() || std::mem::replace(&mut mark[id], true) {
            continue;
        }
        if let Step::Derived { start, chain } = &rec.steps[id] {
            stack.push(*start);
            stack.extend(chain.iter().map(|&(r, _)| r));
        }
    }
    mark
}

/// The interpolant's circuit under construction: one leaf per shared variable used.
#[derive(Default)]
struct Builder {
    aig: Aig,
    leaves: Vec<(aig::Var, Var)>,
    leaf_of: HashMap<Var, aig::Var>,
}

impl Builder {
    fn leaf(&mut self, l: Lit) -> aig::Lit {
        let v = match self.leaf_of.get(&l.var()) {
            Some(&v) => v,
            None => {
                let v = self.aig.new_leaf();
                self.leaf_of.insert(l.var(), v);
                self.leaves.push((v, l.var()));
                v
            }
        };
        v.lit().xor_sign(l.is_neg())
    }
}
