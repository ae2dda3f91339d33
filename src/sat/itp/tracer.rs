//! The proof recorder: CaDiCaL's LRAT-style trace turned into resolution chains.
//!
//! A derived clause arrives with the ids of its antecedents, which derive it by reverse unit
//! propagation: with the clause's literals false, each antecedent in turn becomes unit (or, the
//! last one, falsified). Replaying that propagation here, while the antecedents are still
//! alive, and then walking the implications back from the falsified clause gives a linear
//! resolution chain: the falsified clause, then (reason, implied literal) pairs, each step
//! resolving the running resolvent with the reason on that literal's variable. Only the chain
//! is kept; the literals of a derived clause are dropped when CaDiCaL deletes it (clause ids
//! come from one counter and are never reused), those of original clauses are kept, since
//! interpolants are built from them.

use rustsat::solvers::SolverResult;
use rustsat_cadical::{CaDiCaLClause, ClauseId, Conclusion, TraceProof};

use super::super::{Lit, Var};
use super::ItpError;

/// How a clause of the proof came to be.
pub(super) enum Step {
    /// No clause has this id (or it is not part of the trace).
    Absent,
    /// An input clause of partition `part`.
    Original { part: u32 },
    /// Resolvent of the chain: start with clause `start`, then resolve with each reason on the
    /// variable of its implied literal (the reason contains the literal, the resolvent its
    /// negation).
    Derived {
        start: usize,
        chain: Box<[(usize, Lit)]>,
    },
}

/// Records the proof of one solve call.
pub(super) struct Recorder {
    /// The partition that clauses added from now on belong to.
    pub(super) part: u32,
    /// Literals of live clauses and of every original clause, by id.
    lits: Vec<Option<Box<[Lit]>>>,
    pub(super) steps: Vec<Step>,
    /// Lowest and highest partition each variable occurs in (`u32::MAX, 0` if none).
    parts: Vec<(u32, u32)>,
    /// The id of the empty clause, once derived.
    pub(super) empty: Option<usize>,
    /// The first step that could not be turned into a resolution chain.
    pub(super) error: Option<String>,
    /// Number of resolution steps kept, for statistics.
    pub(super) resolutions: u64,
    rup: Rup,
}

/// Scratch space of the propagation replay.
#[derive(Default)]
struct Rup {
    /// Per variable: 0 unassigned, 1 true, -1 false.
    vals: Vec<i8>,
    marks: Vec<bool>,
    trail: Vec<(Lit, usize)>,
    touched: Vec<Var>,
    used: Vec<bool>,
}

impl Rup {
    fn val(&self, l: Lit) -> i8 {
        let v = self.vals.get(l.vidx()).copied().unwrap_or(0);
        if l.is_neg() {
            -v
        } else {
            v
        }
    }

    fn assign(&mut self, l: Lit) {
        let i = l.vidx();
        if self.vals.len() <= i {
            self.vals.resize(i + 1, 0);
            self.marks.resize(i + 1, false);
        }
        self.vals[i] = if l.is_neg() { -1 } else { 1 };
        self.touched.push(l.var());
    }

    fn mark(&mut self, v: Var) {
        let i = v.idx();
        if self.marks.len() <= i {
            self.vals.resize(i + 1, 0);
            self.marks.resize(i + 1, false);
        }
        if !self.marks[i] {
            self.marks[i] = true;
            self.touched.push(v);
        }
    }

    fn reset(&mut self) {
        for v in self.touched.drain(..) {
            self.vals[v.idx()] = 0;
            self.marks[v.idx()] = false;
        }
        self.trail.clear();
        self.used.clear();
    }
}

impl Recorder {
    pub(super) fn new() -> Recorder {
        Recorder {
            part: 0,
            lits: Vec::new(),
            steps: Vec::new(),
            parts: Vec::new(),
            empty: None,
            error: None,
            resolutions: 0,
            rup: Rup::default(),
        }
    }

    /// The original clauses with their partitions.
    pub(super) fn originals(&self) -> impl Iterator<Item = (u32, &[Lit])> + '_ {
        self.steps.iter().enumerate().filter_map(|(id, s)| match s {
            Step::Original { part } => Some((*part, self.lits[id].as_deref().unwrap_or(&[]))),
            _ => None,
        })
    }

    /// The literals of original clause `id`.
    pub(super) fn original_lits(&self, id: usize) -> &[Lit] {
        self.lits[id].as_deref().unwrap_or(&[])
    }

    /// Lowest and highest partition variable `v` occurs in, if it occurs in an original clause.
    pub(super) fn parts_of(&self, v: Var) -> Option<(u32, u32)> {
        self.parts
            .get(v.idx())
            .copied()
            .filter(|&(lo, hi)| lo <= hi)
    }

    fn slot(&mut self, id: ClauseId) -> Option<usize> {
        let i = usize::try_from(id.0).ok()?;
        if self.steps.len() <= i {
            self.steps.resize_with(i + 1, || Step::Absent);
            self.lits.resize_with(i + 1, || None);
        }
        Some(i)
    }

    fn fail(&mut self, message: String) {
        self.error.get_or_insert(message);
    }

    /// Replays the propagation that derives `clause` from `antecedents` and returns its
    /// resolution chain.
    fn chain(&mut self, clause: &[Lit], antecedents: &[ClauseId]) -> Result<Step, ItpError> {
        let ants: Vec<usize> = antecedents
            .iter()
            .map(|a| {
                usize::try_from(a.0).map_err(|_| ItpError::Proof(format!("antecedent id {}", a.0)))
            })
            .collect::<Result<_, _>>()?;
        let (lits, rup) = (&self.lits, &mut self.rup);
        for &l in clause {
            if rup.val(l) == 0 {
                rup.assign(!l);
            }
        }
        rup.used.resize(ants.len(), false);
        // One pass suffices for chains in LRAT order; further passes accept any order.
        let mut conflict = None;
        'passes: loop {
            let mut progress = false;
            for (i, &a) in ants.iter().enumerate() {
                if rup.used[i] {
                    continue;
                }
                let Some(Some(cl)) = lits.get(a) else {
                    rup.reset();
                    return Err(ItpError::Proof(format!(
                        "antecedent {a} is not a live clause"
                    )));
                };
                let mut open = None;
                let mut n_open = 0;
                let mut satisfied = false;
                for &l in cl.iter() {
                    match rup.val(l) {
                        1 => {
                            satisfied = true;
                            break;
                        }
                        0 if open != Some(l) => {
                            n_open += 1;
                            open = Some(l);
                        }
                        _ => {}
                    }
                }
                if satisfied {
                    rup.used[i] = true;
                } else if n_open == 0 {
                    conflict = Some(a);
                    break 'passes;
                } else if n_open == 1 {
                    let l = open.expect("one open literal");
                    rup.assign(l);
                    rup.trail.push((l, a));
                    rup.used[i] = true;
                    progress = true;
                }
            }
            if !progress {
                break;
            }
        }
        let Some(start) = conflict else {
            rup.reset();
            return Err(ItpError::Proof(format!(
                "the antecedents of a clause of {} literals do not propagate to a conflict",
                clause.len()
            )));
        };
        // Walk the implications back from the conflict, like conflict analysis.
        for &l in lits[start].as_deref().unwrap_or(&[]) {
            rup.mark(l.var());
        }
        let mut chain = Vec::new();
        for t in (0..rup.trail.len()).rev() {
            let (l, reason) = rup.trail[t];
            if !rup.marks[l.vidx()] {
                continue;
            }
            chain.push((reason, l));
            for &m in lits[reason].as_deref().unwrap_or(&[]) {
                if m.var() != l.var() {
                    rup.mark(m.var());
                }
            }
        }
        rup.reset();
        self.resolutions += chain.len() as u64;
        Ok(Step::Derived {
            start,
            chain: chain.into_boxed_slice(),
        })
    }
}

impl TraceProof for Recorder {
    fn add_original_clause(
        &mut self,
        id: ClauseId,
        _redundant: bool,
        clause: &CaDiCaLClause,
        restored: bool,
    ) {
        let Some(i) = self.slot(id) else {
            return self.fail(format!("original clause id {}", id.0));
        };
        if restored && matches!(self.steps[i], Step::Original { .. }) {
            return;
        }
        let mut lits: Vec<Lit> = clause.iter().collect();
        lits.sort_unstable();
        lits.dedup();
        let part = self.part;
        for &l in &lits {
            let v = l.vidx();
            if self.parts.len() <= v {
                self.parts.resize(v + 1, (u32::MAX, 0));
            }
            let (lo, hi) = &mut self.parts[v];
            *lo = (*lo).min(part);
            *hi = (*hi).max(part);
        }
        if lits.is_empty() {
            self.empty.get_or_insert(i);
        }
        self.lits[i] = Some(lits.into_boxed_slice());
        self.steps[i] = Step::Original { part };
    }

    fn add_derived_clause(
        &mut self,
        id: ClauseId,
        _redundant: bool,
        clause: &CaDiCaLClause,
        antecedents: &[ClauseId],
    ) {
        let Some(i) = self.slot(id) else {
            return self.fail(format!("derived clause id {}", id.0));
        };
        let lits: Vec<Lit> = clause.iter().collect();
        match self.chain(&lits, antecedents) {
            Ok(step) => self.steps[i] = step,
            Err(ItpError::Proof(message)) => return self.fail(message),
            Err(e) => return self.fail(e.to_string()),
        }
        if lits.is_empty() {
            self.empty.get_or_insert(i);
        }
        self.lits[i] = Some(lits.into_boxed_slice());
    }

    fn delete_clause(&mut self, id: ClauseId, _redundant: bool, _clause: &CaDiCaLClause) {
        if let Ok(i) = usize::try_from(id.0) {
            if matches!(self.steps.get(i), Some(Step::Derived { .. })) {
                self.lits[i] = None;
            }
        }
    }

    fn report_status(&mut self, status: SolverResult, id: ClauseId) {
        if status == SolverResult::Unsat && id.0 > 0 {
            if let Ok(i) = usize::try_from(id.0) {
                self.empty.get_or_insert(i);
            }
        }
    }

    fn conclude_unsat(&mut self, conclusion: Conclusion, _failing: &[ClauseId]) {
        if conclusion != Conclusion::Conflict {
            self.fail(format!(
                "unsupported conclusion {conclusion:?} (assumptions)"
            ));
        }
    }
}
