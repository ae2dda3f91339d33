//! Reduced ordered binary decision diagrams, for BDD-based reachability
//! ([`crate::engine::reach`]).
//!
//! Our own because the engine needs four things together that the Rust BDD crates do not
//! offer as one: the relational product (conjunction and existential quantification in one
//! pass, without building the conjunction), renaming the next-state variables to the current
//! ones as a relabelling of levels, a node limit and an interrupt checked *inside* long
//! operations (a BDD that blows up must give its core back to the other portfolio workers
//! within milliseconds), and a copying collection of the nodes no root reaches. The order is
//! static: a variable's index is its level, chosen by the engine from the circuit's structure.
//! No complement edges: a negation is one traversal, and the engine negates rarely (once per
//! image, for the new states).
//!
//! Layer: bit-level core; imports nothing of the crate.

mod table;

use table::{Cache, Unique};

/// A node of the [`Manager`] that made it: a Boolean function of its variables.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bdd(u32);

impl Bdd {
    pub const FALSE: Bdd = Bdd(0);
    pub const TRUE: Bdd = Bdd(1);

    pub fn is_const(self) -> bool {
        self.0 < 2
    }
}

/// Why an operation stopped before its result.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The manager holds more nodes than its limit.
    Blowup,
    /// The interrupt said so (the run's budget is spent or the worker was stopped).
    Interrupted,
}

#[derive(Copy, Clone)]
struct Node {
    var: u32,
    lo: Bdd,
    hi: Bdd,
}

/// The level of the terminals: below every variable.
const TERMINAL: u32 = u32::MAX;

/// How many node creations pass between two polls of the interrupt.
const POLL: u32 = 1 << 12;

#[derive(Copy, Clone, PartialEq, Eq)]
enum Op {
    /// An empty slot of the cache.
    None,
    And,
    Or,
    Xor,
    Exists,
    AndExists,
    Rename,
}

/// A set of variables to quantify ([`Manager::quantifier`]); its stamp keys the cache.
pub struct VarSet {
    vars: Vec<bool>,
    stamp: u32,
}

/// The nodes, their unique table and the operation cache.
pub struct Manager {
    nodes: Vec<Node>,
    unique: Unique,
    cache: Cache,
    limit: usize,
    interrupt: Box<dyn Fn() -> bool + Send>,
    ticks: u32,
    stamps: u32,
}

type Res = Result<Bdd, Stop>;

impl Manager {
    /// A manager that stops with [`Stop::Blowup`] past `limit` nodes and with
    /// [`Stop::Interrupted`] once `interrupt` returns true.
    pub fn new(limit: usize, interrupt: Box<dyn Fn() -> bool + Send>) -> Manager {
        let terminal = Node {
            var: TERMINAL,
            lo: Bdd::FALSE,
            hi: Bdd::FALSE,
        };
        Manager {
            nodes: vec![terminal; 2],
            unique: Unique::default(),
            cache: Cache::default(),
            limit,
            interrupt,
            ticks: 0,
            stamps: 0,
        }
    }

    /// Nodes held, terminals included.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Always false: the terminals are nodes (clippy's pair of [`Self::len`]).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The function of variable `var`.
    pub fn var(&mut self, var: u32) -> Res {
        self.mk(var, Bdd::FALSE, Bdd::TRUE)
    }

    /// The top variable of `f` and its two cofactors; `None` for a terminal.
    pub fn node(&self, f: Bdd) -> Option<(u32, Bdd, Bdd)> {
        let n = self.nodes[f.0 as usize];
        (!f.is_const()).then_some((n.var, n.lo, n.hi))
    }

    fn level(&self, f: Bdd) -> u32 {
        self.nodes[f.0 as usize].var
    }

    fn cofactors(&self, f: Bdd, var: u32) -> (Bdd, Bdd) {
        let n = self.nodes[f.0 as usize];
        if n.var == var {
            (n.lo, n.hi)
        } else {
            (f, f)
        }
    }

    fn mk(&mut self, var: u32, lo: Bdd, hi: Bdd) -> Res {
        if lo == hi {
            return Ok(lo);
        }
        debug_assert!(
            var < self.level(lo) && var < self.level(hi),
            "order violated"
        );
        let slot = match self.unique.find(&self.nodes, var, lo, hi) {
            Ok(f) => return Ok(f),
            Err(slot) => slot,
        };
        self.ticks += 1;
        if self.ticks.is_multiple_of(POLL) && (self.interrupt)() {
            return Err(Stop::Interrupted);
        }
        if self.nodes.len() >= self.limit {
            return Err(Stop::Blowup);
        }
        let f = Bdd(self.nodes.len() as u32);
        self.nodes.push(Node { var, lo, hi });
        self.unique.insert(&self.nodes, slot, f);
        self.cache.fit(self.nodes.len());
        Ok(f)
    }

    pub fn and(&mut self, a: Bdd, b: Bdd) -> Res {
        self.apply(Op::And, a, b)
    }

    pub fn or(&mut self, a: Bdd, b: Bdd) -> Res {
        self.apply(Op::Or, a, b)
    }

    pub fn xor(&mut self, a: Bdd, b: Bdd) -> Res {
        self.apply(Op::Xor, a, b)
    }

    pub fn not(&mut self, a: Bdd) -> Res {
        self.apply(Op::Xor, a, Bdd::TRUE)
    }

    /// `a ↔ b`.
    pub fn iff(&mut self, a: Bdd, b: Bdd) -> Res {
        let x = self.xor(a, b)?;
        self.not(x)
    }

    fn apply(&mut self, op: Op, a: Bdd, b: Bdd) -> Res {
        let (a, b) = (a.min(b), a.max(b));
        let (f, t) = (Bdd::FALSE, Bdd::TRUE);
        let terminal = match op {
            Op::And if a == f => Some(f),
            Op::And if a == t || a == b => Some(b),
            Op::Or if a == t => Some(t),
            Op::Or if a == f || a == b => Some(b),
            Op::Xor if a == b => Some(f),
            Op::Xor if a == f => Some(b),
            Op::Xor if a == t && b == t => Some(f),
            _ => None,
        };
        if let Some(r) = terminal {
            return Ok(r);
        }
        if let Some(r) = self.cache.get(op, a, b, 0) {
            return Ok(r);
        }
        let var = self.level(a).min(self.level(b));
        let (a0, a1) = self.cofactors(a, var);
        let (b0, b1) = self.cofactors(b, var);
        let lo = self.apply(op, a0, b0)?;
        let hi = self.apply(op, a1, b1)?;
        let r = self.mk(var, lo, hi)?;
        self.remember((op, a, b, 0), r);
        Ok(r)
    }

    fn remember(&mut self, (op, a, b, stamp): (Op, Bdd, Bdd, u32), result: Bdd) {
        self.cache.put(op, a, b, stamp, result);
    }

    /// The set of the variables `vars[v]` marks, for [`Self::exists`] and
    /// [`Self::and_exists`].
    pub fn quantifier(&mut self, vars: Vec<bool>) -> VarSet {
        self.stamps += 1;
        VarSet {
            vars,
            stamp: self.stamps,
        }
    }

    fn quantified(set: &VarSet, var: u32) -> bool {
        set.vars.get(var as usize).copied().unwrap_or(false)
    }

    /// `∃ set. f`.
    pub fn exists(&mut self, f: Bdd, set: &VarSet) -> Res {
        if f.is_const() {
            return Ok(f);
        }
        if let Some(r) = self.cache.get(Op::Exists, f, f, set.stamp) {
            return Ok(r);
        }
        let Node { var, lo, hi } = self.nodes[f.0 as usize];
        let lo = self.exists(lo, set)?;
        let r = if Self::quantified(set, var) {
            if lo == Bdd::TRUE {
                lo
            } else {
                let hi = self.exists(hi, set)?;
                self.or(lo, hi)?
            }
        } else {
            let hi = self.exists(hi, set)?;
            self.mk(var, lo, hi)?
        };
        self.remember((Op::Exists, f, f, set.stamp), r);
        Ok(r)
    }

    /// `∃ set. a ∧ b` (the relational product), without building `a ∧ b`.
    pub fn and_exists(&mut self, a: Bdd, b: Bdd, set: &VarSet) -> Res {
        let (a, b) = (a.min(b), a.max(b));
        if a == Bdd::FALSE {
            return Ok(a);
        }
        if a == Bdd::TRUE || a == b {
            return self.exists(b, set);
        }
        if let Some(r) = self.cache.get(Op::AndExists, a, b, set.stamp) {
            return Ok(r);
        }
        let var = self.level(a).min(self.level(b));
        let (a0, a1) = self.cofactors(a, var);
        let (b0, b1) = self.cofactors(b, var);
        let lo = self.and_exists(a0, b0, set)?;
        let r = if Self::quantified(set, var) {
            if lo == Bdd::TRUE {
                lo
            } else {
                let hi = self.and_exists(a1, b1, set)?;
                self.or(lo, hi)?
            }
        } else {
            let hi = self.and_exists(a1, b1, set)?;
            self.mk(var, lo, hi)?
        };
        self.remember((Op::AndExists, a, b, set.stamp), r);
        Ok(r)
    }

    /// `f` with each variable `v` of its support renamed to `map[v]`. The renaming must keep
    /// the order of the variables of `f` (checked in debug builds by [`Self::mk`]); the
    /// engine renames next-state variables to the current-state ones just above them.
    pub fn rename(&mut self, f: Bdd, map: &[u32]) -> Res {
        self.stamps += 1;
        let stamp = self.stamps;
        self.rename_in(f, map, stamp)
    }

    fn rename_in(&mut self, f: Bdd, map: &[u32], stamp: u32) -> Res {
        if f.is_const() {
            return Ok(f);
        }
        if let Some(r) = self.cache.get(Op::Rename, f, f, stamp) {
            return Ok(r);
        }
        let Node { var, lo, hi } = self.nodes[f.0 as usize];
        let lo = self.rename_in(lo, map, stamp)?;
        let hi = self.rename_in(hi, map, stamp)?;
        let r = self.mk(map[var as usize], lo, hi)?;
        self.remember((Op::Rename, f, f, stamp), r);
        Ok(r)
    }

    /// The nodes of `roots`, each after the nodes below it (terminals excluded).
    pub fn post_order(&self, roots: &[Bdd]) -> Vec<Bdd> {
        let mut seen = vec![false; self.nodes.len()];
        let mut order = Vec::new();
        for &root in roots {
            let mut stack = vec![(root, false)];
            while let Some((f, expanded)) = stack.pop() {
                if f.is_const() || (seen[f.0 as usize] && !expanded) {
                    continue;
                }
                if expanded {
                    order.push(f);
                    continue;
                }
                seen[f.0 as usize] = true;
                let n = self.nodes[f.0 as usize];
                stack.push((f, true));
                stack.push((n.hi, false));
                stack.push((n.lo, false));
            }
        }
        order
    }

    /// The variables `f` depends on.
    pub fn support(&self, f: Bdd) -> Vec<u32> {
        let mut vars: Vec<u32> = (self.post_order(&[f]).iter())
            .map(|&g| self.level(g))
            .collect();
        vars.sort_unstable();
        vars.dedup();
        vars
    }

    /// Drops every node that no root reaches and the operation cache; the roots are updated
    /// in place. Node identities change, so nothing else may be kept across the call.
    pub fn collect(&mut self, roots: &mut [&mut Bdd]) {
        let live: Vec<Bdd> = roots.iter().map(|r| **r).collect();
        let order = self.post_order(&live);
        // Old index -> new node; the terminals keep theirs.
        let mut map: Vec<Bdd> = (0..self.nodes.len() as u32).map(Bdd).collect();
        let terminals = self.nodes[..2].to_vec();
        let old = std::mem::replace(&mut self.nodes, terminals);
        self.unique = Unique::default();
        self.cache.clear();
        for f in order {
            let n = old[f.0 as usize];
            let node = Node {
                var: n.var,
                lo: map[n.lo.0 as usize],
                hi: map[n.hi.0 as usize],
            };
            let g = Bdd(self.nodes.len() as u32);
            let slot = (self.unique.find(&self.nodes, node.var, node.lo, node.hi))
                .expect_err("live nodes are distinct");
            self.nodes.push(node);
            self.unique.insert(&self.nodes, slot, g);
            map[f.0 as usize] = g;
        }
        for r in roots.iter_mut() {
            **r = map[r.0 as usize];
        }
    }

    /// Whether `f` holds under `value` (a value per variable).
    #[cfg(test)]
    fn eval(&self, mut f: Bdd, value: impl Fn(u32) -> bool) -> bool {
        while let Some((var, lo, hi)) = self.node(f) {
            f = if value(var) { hi } else { lo };
        }
        f == Bdd::TRUE
    }
}

#[cfg(test)]
mod tests;
