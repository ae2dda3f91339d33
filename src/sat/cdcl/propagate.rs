//! Assignment, the trail and unit propagation with two watched literals per clause.
//!
//! A clause watches its first two literals; `watches[l]` lists the clauses watching `l`,
//! each with a blocker (another of its literals: when the blocker is true the clause is
//! skipped without being read). The literal a clause implies is always its first, which is
//! what conflict analysis relies on, except for binary clauses: their watchers know they are
//! binary and the blocker is the other literal, so propagation assigns or reports it without
//! reading the clause (most clauses of an AIG's Tseitin encoding are binary), and analysis
//! skips a reason's implied literal by its variable instead of its position. Deleted clauses
//! leave their watchers behind; a watcher of a deleted clause is dropped when propagation
//! meets it, except a binary one: a binary clause is deleted either satisfied at level 0
//! (so its blocker is true whenever its watched literal is false, and it is skipped) or as
//! a learnt clause, implied by the others (learnt binaries are glue clauses, kept anyway).

use super::arena::CRef;
use super::Cdcl;

#[derive(Copy, Clone)]
pub(super) struct Watch {
    pub(super) cref: CRef,
    pub(super) blocker: u32,
    pub(super) binary: bool,
}

/// Literal values (`vals[code]`).
pub(super) const TRUE: i8 = 1;
pub(super) const FALSE: i8 = -1;
pub(super) const UNDEF: i8 = 0;

impl Cdcl {
    pub(super) fn val(&self, lit: u32) -> i8 {
        self.vals[lit as usize]
    }

    pub(super) fn level_now(&self) -> u32 {
        self.trail_lim.len() as u32
    }

    /// Makes `lit` true at the current level because of `reason`.
    pub(super) fn assign(&mut self, lit: u32, reason: CRef) {
        let v = (lit >> 1) as usize;
        self.vals[lit as usize] = TRUE;
        self.vals[(lit ^ 1) as usize] = FALSE;
        self.level[v] = self.level_now();
        self.reason[v] = reason;
        self.trail.push(lit);
    }

    /// Watches the first two literals of clause `c` (of at least two literals).
    pub(super) fn attach(&mut self, c: CRef) {
        let lits = self.arena.lits(c);
        let (a, b) = (lits[0], lits[1]);
        let binary = lits.len() == 2;
        self.watches[a as usize].push(Watch {
            cref: c,
            blocker: b,
            binary,
        });
        self.watches[b as usize].push(Watch {
            cref: c,
            blocker: a,
            binary,
        });
    }

    /// Undoes every assignment above `level`, saving the phases and returning the variables
    /// to the decision order.
    pub(super) fn cancel_until(&mut self, level: u32) {
        if self.level_now() <= level {
            return;
        }
        let start = self.trail_lim[level as usize];
        for i in (start..self.trail.len()).rev() {
            let lit = self.trail[i];
            let v = lit >> 1;
            self.vals[lit as usize] = UNDEF;
            self.vals[(lit ^ 1) as usize] = UNDEF;
            self.phase[v as usize] = lit & 1 == 0;
            self.order.insert(v);
        }
        self.trail.truncate(start);
        self.trail_lim.truncate(level as usize);
        self.qhead = start;
    }

    /// Whether variable `v` of literal `lit` is in the domain of the current call.
    fn in_domain(&self, lit: u32) -> bool {
        self.domain_mark[(lit >> 1) as usize] == self.domain_stamp
    }

    /// Propagates every assignment of the trail not yet propagated; `Some(c)`: clause `c`
    /// is false. Above level 0 in a call with a domain, a clause whose blocker or other
    /// watched literal lies outside the domain is skipped (that literal is unassigned and
    /// stays so, see [`Cdcl::solve_in`]): no variable outside the domain is assigned.
    pub(super) fn propagate(&mut self) -> Option<CRef> {
        let restrict = self.restricted && self.level_now() > 0;
        let mut conflict = None;
        while self.qhead < self.trail.len() && conflict.is_none() {
            let false_lit = self.trail[self.qhead] ^ 1;
            self.qhead += 1;
            self.propagations += 1;
            let mut ws = std::mem::take(&mut self.watches[false_lit as usize]);
            let (mut i, mut j) = (0, 0);
            while i < ws.len() {
                let w = ws[i];
                i += 1;
                if self.val(w.blocker) == TRUE || restrict && !self.in_domain(w.blocker) {
                    ws[j] = w;
                    j += 1;
                    continue;
                }
                if w.binary {
                    ws[j] = w;
                    j += 1;
                    if self.val(w.blocker) == FALSE {
                        conflict = Some(w.cref);
                        break;
                    }
                    self.assign(w.blocker, w.cref);
                    continue;
                }
                let c = w.cref;
                if self.arena.deleted(c) {
                    continue;
                }
                let lits = self.arena.lits_mut(c);
                if lits[0] == false_lit {
                    lits.swap(0, 1);
                }
                let first = lits[0];
                let kept = Watch {
                    cref: c,
                    blocker: first,
                    binary: false,
                };
                // (Fields, not `in_domain`: `lits` still borrows the arena.)
                let outside = self.domain_mark[(first >> 1) as usize] != self.domain_stamp;
                if first != w.blocker && (self.vals[first as usize] == TRUE || restrict && outside)
                {
                    ws[j] = kept;
                    j += 1;
                    continue;
                }
                if let Some(k) = (2..lits.len()).find(|&k| self.vals[lits[k] as usize] != FALSE) {
                    let lits = self.arena.lits_mut(c);
                    let new = lits[k];
                    lits[1] = new;
                    lits[k] = false_lit;
                    self.watches[new as usize].push(kept);
                    continue;
                }
                ws[j] = kept;
                j += 1;
                if self.val(first) == FALSE {
                    conflict = Some(c);
                    break;
                }
                self.assign(first, c);
            }
            // After a conflict, the watchers not visited stay.
            ws.copy_within(i.., j);
            ws.truncate(j + ws.len() - i);
            self.watches[false_lit as usize] = ws;
        }
        if conflict.is_some() {
            self.qhead = self.trail.len();
        }
        conflict
    }
}
