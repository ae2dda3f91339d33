//! The CDCL loop: decisions (assumptions first, then VSIDS with saved phases), learning and
//! backjumping, Luby restarts, learnt-clause reduction by LBD, and the level-0
//! simplification that drops satisfied clauses (IC3 switches off a temporary clause with a
//! unit per query, so satisfied clauses accumulate fast).

use std::cmp::Reverse;

use super::arena::NO_REASON;
use super::propagate::{TRUE, UNDEF};
use super::Cdcl;
use crate::sat::SatResult;

/// Conflicts per unit of the Luby restart sequence.
const RESTART_UNIT: f64 = 100.0;
/// Conflicts between two polls of the budget.
const POLL_EVERY: u64 = 128;
/// Learnt clauses kept before the first reduction, and the growth of that limit per reduction.
pub(super) const LEARNTS_FIRST: usize = 2000;
const LEARNTS_STEP: usize = 300;
/// Learnt clauses of at most this LBD ("glue" clauses) are never reduced.
const GLUE: u32 = 2;

impl Cdcl {
    /// Searches under `self.assumptions` until a result or the end of the restart sequence.
    pub(super) fn run(&mut self) -> SatResult {
        for restart in 0.. {
            let limit = (luby(restart) * RESTART_UNIT) as u64;
            if let Some(result) = self.search(limit) {
                return result;
            }
        }
        unreachable!("the restart sequence is infinite")
    }

    /// One restart's worth of search; `None`: restart.
    fn search(&mut self, conflict_limit: u64) -> Option<SatResult> {
        let mut conflicts = 0;
        loop {
            if let Some(conflict) = self.propagate() {
                self.conflicts += 1;
                conflicts += 1;
                if self.level_now() == 0 {
                    self.ok = false;
                    return Some(SatResult::Unsat);
                }
                let learnt = self.analyze(conflict);
                self.cancel_until(learnt.backjump);
                if learnt.lits.len() == 1 {
                    self.assign(learnt.lits[0], NO_REASON);
                } else {
                    let c = self.arena.alloc(&learnt.lits, true, learnt.lbd);
                    self.learnts.push(c);
                    self.attach(c);
                    self.assign(learnt.lits[0], c);
                }
                self.order.decay();
                if self.conflicts.is_multiple_of(POLL_EVERY) && self.budget.expired() {
                    return Some(SatResult::Interrupted);
                }
                continue;
            }
            if conflicts >= conflict_limit {
                self.cancel_until(0);
                return None;
            }
            if self.learnts.len() >= self.learnt_limit {
                self.reduce();
            }
            let next = match self.next_assumption() {
                Err(failed) => {
                    self.analyze_final(failed);
                    return Some(SatResult::Unsat);
                }
                Ok(Some(a)) => a,
                Ok(None) => match self.pick_branch() {
                    Some(lit) => lit,
                    None => return Some(SatResult::Sat),
                },
            };
            self.trail_lim.push(self.trail.len());
            self.assign(next, NO_REASON);
        }
    }

    /// The next assumption to decide, opening an empty level for each one already true.
    /// `Err(a)`: assumption `a` is false.
    fn next_assumption(&mut self) -> Result<Option<u32>, u32> {
        while (self.level_now() as usize) < self.assumptions.len() {
            let a = self.assumptions[self.level_now() as usize];
            match self.val(a) {
                TRUE => self.trail_lim.push(self.trail.len()),
                UNDEF => return Ok(Some(a)),
                _ => return Err(a),
            }
        }
        Ok(None)
    }

    /// The most active unassigned variable in its saved phase.
    fn pick_branch(&mut self) -> Option<u32> {
        let vals = &self.vals;
        self.order.prepare(|v| vals[2 * v as usize] == UNDEF);
        while let Some(v) = self.order.pop() {
            if self.vals[2 * v as usize] == UNDEF {
                return Some(2 * v + u32::from(!self.phase[v as usize]));
            }
        }
        None
    }

    /// Deletes the worse half of the learnt clauses (highest LBD, then longest), keeping
    /// glue clauses and the reasons of current assignments.
    fn reduce(&mut self) {
        let mut learnts = std::mem::take(&mut self.learnts);
        learnts.sort_by_key(|&c| Reverse((self.arena.lbd(c), self.arena.len(c))));
        let half = learnts.len() / 2;
        let mut kept = Vec::with_capacity(learnts.len() - half / 2);
        for (i, &c) in learnts.iter().enumerate() {
            if i < half && self.arena.lbd(c) > GLUE && !self.locked(c) {
                self.arena.delete(c);
            } else {
                kept.push(c);
            }
        }
        self.learnts = kept;
        self.learnt_limit += LEARNTS_STEP;
    }

    /// Whether clause `c` is the reason of a current assignment: of its first literal, or of
    /// either literal of a binary clause (propagated without reordering it).
    fn locked(&self, c: u32) -> bool {
        let lits = self.arena.lits(c);
        let n = if lits.len() == 2 { 2 } else { 1 };
        (lits[..n].iter()).any(|&l| self.val(l) == TRUE && self.reason[(l >> 1) as usize] == c)
    }

    /// At level 0, once enough propagation happened since the last time and new units
    /// arrived: deletes the satisfied clauses, and compacts the arena when it is mostly
    /// garbage. Level-0 assignments need no reasons (analysis never looks at level 0); those
    /// before `simplified_at` lost theirs the last time (IC3 leaves one per query there).
    pub(super) fn simplify(&mut self) {
        if self.trail.len() == self.simplified_at || self.propagations < self.next_simplify {
            return;
        }
        for list in [&mut self.originals, &mut self.learnts] {
            list.retain(|&c| {
                let satisfied = (self.arena.lits(c).iter()).any(|&l| self.vals[l as usize] == TRUE);
                if satisfied {
                    self.arena.delete(c);
                }
                !satisfied
            });
        }
        for &lit in &self.trail[self.simplified_at..] {
            self.reason[(lit >> 1) as usize] = NO_REASON;
        }
        if self.arena.mostly_garbage() {
            self.arena.compact([&mut self.originals, &mut self.learnts]);
            for w in &mut self.watches {
                w.clear();
            }
            for i in 0..self.originals.len() {
                self.attach(self.originals[i]);
            }
            for i in 0..self.learnts.len() {
                self.attach(self.learnts[i]);
            }
        }
        let words: usize = (self.originals.iter().chain(&self.learnts))
            .map(|&c| self.arena.len(c))
            .sum();
        self.simplified_at = self.trail.len();
        self.next_simplify = self.propagations + words as u64;
    }
}

/// The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, ... at `i`.
fn luby(mut i: u32) -> f64 {
    let (mut size, mut exp) = (1u32, 0);
    while size < i + 1 {
        exp += 1;
        size = 2 * size + 1;
    }
    while size - 1 != i {
        size = (size - 1) >> 1;
        exp -= 1;
        i %= size;
    }
    2f64.powi(exp)
}

#[cfg(test)]
mod tests {
    #[test]
    fn luby_sequence() {
        let seq: Vec<f64> = (0..15).map(super::luby).collect();
        assert_eq!(
            seq,
            [1., 1., 2., 1., 1., 2., 4., 1., 1., 2., 1., 1., 2., 4., 8.]
        );
    }
}
