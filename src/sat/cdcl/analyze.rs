//! Conflict analysis: the first-UIP learnt clause, minimised by removing the literals its
//! other literals imply (MiniSat's recursive minimisation), and the final analysis that
//! names the assumptions a refutation used (the core IC3 generalises with).

use super::arena::{CRef, NO_REASON};
use super::Cdcl;

/// A learnt clause: the asserting literal first, a literal of the backjump level second.
pub(super) struct Learnt {
    pub(super) lits: Vec<u32>,
    pub(super) backjump: u32,
    pub(super) lbd: u32,
}

impl Cdcl {
    pub(super) fn analyze(&mut self, mut conflict: CRef) -> Learnt {
        let mut lits = vec![0];
        let mut open = 0;
        let mut index = self.trail.len();
        let mut uip = None;
        loop {
            // The conflict clause whole, then the reasons without their implied literal.
            let implied = uip.map_or(u32::MAX, |p: u32| p >> 1);
            for k in 0..self.arena.len(conflict) {
                let q = self.arena.lits(conflict)[k];
                let v = (q >> 1) as usize;
                if v as u32 == implied {
                    continue;
                }
                if self.seen[v] || self.level[v] == 0 {
                    continue;
                }
                self.seen[v] = true;
                self.order.bump(v as u32);
                if self.level[v] >= self.level_now() {
                    open += 1;
                } else {
                    lits.push(q);
                }
            }
            let p = loop {
                index -= 1;
                if self.seen[(self.trail[index] >> 1) as usize] {
                    break self.trail[index];
                }
            };
            let v = (p >> 1) as usize;
            self.seen[v] = false;
            open -= 1;
            uip = Some(p);
            if open == 0 {
                break;
            }
            conflict = self.reason[v];
        }
        lits[0] = uip.expect("a conflict above level 0 has a UIP") ^ 1;
        self.minimise(&mut lits);
        let mut backjump = 0;
        if lits.len() > 1 {
            let max = (1..lits.len())
                .max_by_key(|&i| self.level[(lits[i] >> 1) as usize])
                .expect("two literals");
            lits.swap(1, max);
            backjump = self.level[(lits[1] >> 1) as usize];
        }
        let lbd = self.lbd(&lits);
        Learnt {
            lits,
            backjump,
            lbd,
        }
    }

    /// Drops the literals of `lits[1..]` implied by the others, then clears `seen`.
    fn minimise(&mut self, lits: &mut Vec<u32>) {
        let levels = lits[1..]
            .iter()
            .fold(0u32, |acc, &l| acc | self.abstract_level(l));
        let mut to_clear = lits.clone();
        let mut kept = 1;
        for i in 1..lits.len() {
            let l = lits[i];
            if self.reason[(l >> 1) as usize] == NO_REASON
                || !self.redundant(l, levels, &mut to_clear)
            {
                lits[kept] = l;
                kept += 1;
            }
        }
        lits.truncate(kept);
        for l in to_clear {
            self.seen[(l >> 1) as usize] = false;
        }
    }

    /// One bit per decision level (modulo 32), to rule out quickly a literal whose level no
    /// literal of the clause has.
    fn abstract_level(&self, lit: u32) -> u32 {
        1 << (self.level[(lit >> 1) as usize] & 31)
    }

    /// Whether the reasons behind `lit` lead back to `seen` literals only. Literals found
    /// redundant on the way stay `seen` (recorded in `to_clear`).
    fn redundant(&mut self, lit: u32, levels: u32, to_clear: &mut Vec<u32>) -> bool {
        let top = to_clear.len();
        let mut stack = vec![lit];
        while let Some(q) = stack.pop() {
            let c = self.reason[(q >> 1) as usize];
            for k in 0..self.arena.len(c) {
                let l = self.arena.lits(c)[k];
                let v = (l >> 1) as usize;
                if v as u32 == q >> 1 {
                    continue;
                }
                if self.seen[v] || self.level[v] == 0 {
                    continue;
                }
                if self.reason[v] != NO_REASON && self.abstract_level(l) & levels != 0 {
                    self.seen[v] = true;
                    stack.push(l);
                    to_clear.push(l);
                } else {
                    for &l in &to_clear[top..] {
                        self.seen[(l >> 1) as usize] = false;
                    }
                    to_clear.truncate(top);
                    return false;
                }
            }
        }
        true
    }

    /// The number of distinct decision levels among `lits` (glucose's "literal block
    /// distance": the lower, the more useful the clause).
    fn lbd(&mut self, lits: &[u32]) -> u32 {
        self.stamp += 1;
        let mut n = 0;
        for &l in lits {
            let level = self.level[(l >> 1) as usize] as usize;
            if self.level_stamp.len() <= level {
                self.level_stamp.resize(level + 1, 0);
            }
            if self.level_stamp[level] != self.stamp {
                self.level_stamp[level] = self.stamp;
                n += 1;
            }
        }
        n
    }

    /// After assumption `failed` was found false: records in `self.failed` it and the
    /// assumptions whose propagation made it false.
    pub(super) fn analyze_final(&mut self, failed: u32) {
        self.mark_failed(failed);
        if self.level_now() == 0 {
            return;
        }
        let v = (failed >> 1) as usize;
        self.seen[v] = true;
        for i in (self.trail_lim[0]..self.trail.len()).rev() {
            let lit = self.trail[i];
            let x = (lit >> 1) as usize;
            if !self.seen[x] {
                continue;
            }
            let reason = self.reason[x];
            if reason == NO_REASON {
                self.mark_failed(lit);
            } else {
                for k in 0..self.arena.len(reason) {
                    let y = (self.arena.lits(reason)[k] >> 1) as usize;
                    if y != x && self.level[y] > 0 {
                        self.seen[y] = true;
                    }
                }
            }
            self.seen[x] = false;
        }
        self.seen[v] = false;
    }

    fn mark_failed(&mut self, lit: u32) {
        if !self.failed[lit as usize] {
            self.failed[lit as usize] = true;
            self.failed_list.push(lit);
        }
    }
}
