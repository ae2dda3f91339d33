//! BDD-based forward reachability (Coudert, Madre; Burch, Clarke, McMillan): the exact set
//! of reachable states, one image at a time, until a bad state is among them or no new
//! state comes.
//!
//! The SAT-based engines describe a state set by clauses over latches; a set defined by
//! counting (the threads in a critical section equal the semaphore's count, the Collatz
//! values reachable from small numbers) needs exponentially many clauses, and IC3 and ABC's
//! `pdr` run out of time on circuits of 40 latches (`tn_semaphore-*`) that BDDs settle in
//! seconds. BDDs blow up on most large designs instead: the engine runs only on systems of at
//! most [`MAX_LATCHES`] latches, and gives up (`unknown`) at [`NODE_LIMIT`] nodes, so in a
//! portfolio it costs little where it cannot help.
//!
//! Variables: each latch has a current-state and a next-state variable on adjacent levels,
//! each input one level; levels follow a depth-first walk of the next-state functions and the
//! properties, which keeps related bits near each other (the bits of an adder's operands, a
//! thread's state). The image of a set `S` is `∃ x, i. S(x) ∧ C(x, i) ∧ ⋀ (x'_j ↔ f_j(x, i))`,
//! the conjuncts clustered up to [`CLUSTER`] nodes and each variable quantified after the
//! last cluster that reads it; the result, over next-state variables only, is renamed to the
//! current-state ones one level up.
//!
//! Answers: a bad state reached first at depth `k` is turned into a trace by one BMC query of
//! exactly `k` frames (satisfiable by construction); the reachable set, a fixpoint, is the
//! invariant, written into the AIG as a multiplexer per BDD node and checked like every other.

use super::bmc::Bounded;
use super::{Engine, Stats, Verdict};
use crate::aig::{self, Node};
use crate::bdd::{Bdd, Manager, Stop, VarSet};
use crate::cert::Invariant;
use crate::sat::SatResult;
use crate::ts::{Leaf, TransitionSystem};
use crate::Budget;

/// Systems with more latches are left to the other engines.
pub const MAX_LATCHES: usize = 200;
/// Nodes at most (12 bytes each, 8-16 bytes of unique table and 20 of operation cache per
/// node: under 100 MB at the limit). Low, so that a system whose BDDs blow up gives its time slices
/// back soon: the sets `reach` settles in seconds stay far below it (peak 0.9 M nodes, garbage
/// included, on `tn_semaphore-single-processor-6-threads-limit-3`), and with 6 M the workers
/// beside it lost a few seconds on small circuits (`tn_collatz-sequence-18-34` 11.0 to 17.5 s).
const NODE_LIMIT: usize = 2_000_000;
/// Past this many nodes the dead ones are collected between images.
const COLLECT_AT: usize = NODE_LIMIT / 2;
/// Conjuncts of the transition relation are conjoined while their product stays this small
/// (1,000 and 20,000 were slower on `tn_semaphore-single-processor-7-threads-limit-3`).
const CLUSTER: usize = 5_000;

/// The engine.
#[derive(Default)]
pub struct Reach {
    stats: ReachStats,
}

#[derive(Default)]
struct ReachStats {
    images: u64,
    peak_nodes: u64,
    clusters: u64,
    skipped: u64,
}

impl Reach {
    pub fn new() -> Reach {
        Reach::default()
    }
}

impl Engine for Reach {
    fn name(&self) -> &'static str {
        "reach"
    }

    fn check(&mut self, ts: &TransitionSystem, budget: &Budget) -> Verdict {
        if ts.latches.len() > MAX_LATCHES {
            crate::log::info(
                1,
                format_args!(
                    "reach: {} latches, more than {MAX_LATCHES}",
                    ts.latches.len()
                ),
            );
            self.stats.skipped = 1;
            return Verdict::Unknown { depth: None };
        }
        let b = budget.clone();
        let mut m = Manager::new(NODE_LIMIT, Box::new(move || b.expired()));
        let mut depth = None;
        let levels = Levels::of(ts);
        let result = self.explore(ts, &mut m, &levels, &mut depth);
        self.stats.peak_nodes = self.stats.peak_nodes.max(m.len() as u64);
        match result {
            Ok(Found::Bad(k)) => {
                let mut bmc = Bounded::new(ts, budget);
                match bmc.check_frames(k..=k) {
                    SatResult::Sat => Verdict::Unsafe(bmc.trace(k)),
                    SatResult::Unsat => {
                        // The BDDs and the SAT encoding disagree: an error of one of them,
                        // never an answer.
                        crate::log::warn(format_args!(
                            "reach found a bad state at depth {k} that BMC refutes"
                        ));
                        Verdict::Unknown { depth: None }
                    }
                    SatResult::Interrupted => Verdict::Unknown { depth },
                }
            }
            Ok(Found::Fixpoint(reached)) => Verdict::Safe(invariant(ts, &m, &levels, reached)),
            Err(stop) => {
                if stop == Stop::Blowup {
                    crate::log::info(1, format_args!("reach: BDDs past {NODE_LIMIT} nodes"));
                }
                Verdict::Unknown { depth }
            }
        }
    }

    fn stats(&self) -> Stats {
        let s = &self.stats;
        vec![
            ("reach_images", s.images),
            ("reach_peak_nodes", s.peak_nodes),
            ("reach_clusters", s.clusters),
            ("reach_skipped", s.skipped),
        ]
    }
}

/// How the search ended.
enum Found {
    /// A bad state first reached in this many transitions.
    Bad(usize),
    /// Every reachable state, none bad.
    Fixpoint(Bdd),
}

/// The levels of the latches' current- and next-state variables and of the inputs.
struct Levels {
    cur: Vec<u32>,
    next: Vec<u32>,
    input: Vec<u32>,
    count: u32,
}

impl Levels {
    /// Levels in the order a depth-first walk from the properties and the next-state
    /// functions meets the leaves; leaves it never meets come last.
    fn of(ts: &TransitionSystem) -> Levels {
        let kinds = ts.leaf_kinds();
        let mut levels = Levels {
            cur: vec![u32::MAX; ts.latches.len()],
            next: vec![u32::MAX; ts.latches.len()],
            input: vec![u32::MAX; ts.inputs.len()],
            count: 0,
        };
        let mut seen = vec![false; ts.aig.num_vars()];
        let roots = (ts.bad.iter().chain(&ts.constraints).copied())
            .chain(ts.latches.iter().map(|l| l.next))
            .map(|l| l.var());
        for root in roots {
            let mut stack = vec![root];
            while let Some(v) = stack.pop() {
                if std::mem::replace(&mut seen[v.index()], true) {
                    continue;
                }
                match ts.aig.node(v) {
                    Node::And(a, b) => {
                        stack.push(b.var());
                        stack.push(a.var());
                    }
                    Node::Leaf => levels.place(kinds[v.index()]),
                    Node::False => {}
                }
            }
        }
        for i in 0..ts.latches.len() {
            levels.place(Some(Leaf::Latch(i)));
        }
        for i in 0..ts.inputs.len() {
            levels.place(Some(Leaf::Input(i)));
        }
        levels
    }

    fn place(&mut self, leaf: Option<Leaf>) {
        match leaf {
            Some(Leaf::Latch(j)) if self.cur[j] == u32::MAX => {
                self.cur[j] = self.count;
                self.next[j] = self.count + 1;
                self.count += 2;
            }
            Some(Leaf::Input(i)) if self.input[i] == u32::MAX => {
                self.input[i] = self.count;
                self.count += 1;
            }
            _ => {}
        }
    }
}

/// The transition relation, clustered, with what to quantify after each cluster.
struct Image {
    /// Quantified from the set itself before the first cluster (variables no cluster reads).
    first: VarSet,
    clusters: Vec<(Bdd, VarSet)>,
    /// Next-state level to current-state level, identity elsewhere.
    rename: Vec<u32>,
}

impl Reach {
    fn explore(
        &mut self,
        ts: &TransitionSystem,
        m: &mut Manager,
        levels: &Levels,
        depth: &mut Option<usize>,
    ) -> Result<Found, Stop> {
        let gates = Gates::build(ts, m, levels)?;
        let mut constraint = Bdd::TRUE;
        for &c in &ts.constraints {
            let c = gates.lit(m, c)?;
            constraint = m.and(constraint, c)?;
        }
        let mut bad = Bdd::FALSE;
        for &b in &ts.bad {
            let b = gates.lit(m, b)?;
            bad = m.or(bad, b)?;
        }
        bad = m.and(bad, constraint)?;
        let inputs = m.quantifier(marks(levels.count, &levels.input));
        bad = m.exists(bad, &inputs)?;
        let mut init = Bdd::TRUE;
        for (j, latch) in ts.latches.iter().enumerate() {
            if let Some(value) = latch.init {
                let x = m.var(levels.cur[j])?;
                let x = if value { x } else { m.not(x)? };
                init = m.and(init, x)?;
            }
        }
        let mut parts = vec![constraint];
        let mut by_level: Vec<usize> = (0..ts.latches.len()).collect();
        by_level.sort_by_key(|&j| levels.next[j]);
        for j in by_level {
            let next = m.var(levels.next[j])?;
            let f = gates.lit(m, ts.latches[j].next)?;
            parts.push(m.iff(next, f)?);
        }
        let mut image = Image::new(m, levels, parts)?;
        self.stats.clusters = image.clusters.len() as u64;
        let mut reached = init;
        let mut frontier = init;
        for k in 0.. {
            if m.and(frontier, bad)? != Bdd::FALSE {
                return Ok(Found::Bad(k));
            }
            *depth = Some(k);
            let next = image.apply(m, frontier)?;
            self.stats.images += 1;
            let old = m.not(reached)?;
            let new = m.and(next, old)?;
            if new == Bdd::FALSE {
                return Ok(Found::Fixpoint(reached));
            }
            reached = m.or(reached, new)?;
            frontier = new;
            // Sizes cost a traversal each (and a mark per node held): only when logged.
            if crate::log::level() >= 2 {
                crate::log::info(
                    2,
                    format_args!(
                        "reach: depth {}: {} nodes reached, {} new, {} held",
                        k + 1,
                        m.post_order(&[reached]).len(),
                        m.post_order(&[new]).len(),
                        m.len()
                    ),
                );
            }
            self.stats.peak_nodes = self.stats.peak_nodes.max(m.len() as u64);
            if m.len() > COLLECT_AT {
                image.collect(m, &mut [&mut reached, &mut frontier, &mut bad]);
            }
        }
        unreachable!("the search returns from its loop")
    }
}

/// `marks[v]` for each of `levels` (of `count` levels).
fn marks(count: u32, levels: &[u32]) -> Vec<bool> {
    let mut marks = vec![false; count as usize];
    for &l in levels {
        marks[l as usize] = true;
    }
    marks
}

impl Image {
    /// Clusters `parts` in order (a cluster grows while its BDD has at most [`CLUSTER`]
    /// nodes) and schedules the quantification of the current-state and input variables.
    fn new(m: &mut Manager, levels: &Levels, parts: Vec<Bdd>) -> Result<Image, Stop> {
        let mut clusters = Vec::new();
        let mut acc = Bdd::TRUE;
        for p in parts {
            let joined = m.and(acc, p)?;
            if acc != Bdd::TRUE && m.post_order(&[joined]).len() > CLUSTER {
                clusters.push(acc);
                acc = p;
            } else {
                acc = joined;
            }
        }
        if acc != Bdd::TRUE {
            clusters.push(acc);
        }
        let quantifiable = marks(
            levels.count,
            &[levels.cur.as_slice(), &levels.input].concat(),
        );
        let mut last: Vec<Option<usize>> = vec![None; levels.count as usize];
        for (c, &f) in clusters.iter().enumerate() {
            for v in m.support(f) {
                if quantifiable[v as usize] {
                    last[v as usize] = Some(c);
                }
            }
        }
        let after = |c: Option<usize>| -> Vec<bool> {
            (0..levels.count as usize)
                .map(|v| quantifiable[v] && last[v] == c)
                .collect()
        };
        let first = m.quantifier(after(None));
        let clusters = (clusters.iter().enumerate())
            .map(|(c, &f)| (f, m.quantifier(after(Some(c)))))
            .collect();
        let mut rename: Vec<u32> = (0..levels.count).collect();
        for (&cur, &next) in levels.cur.iter().zip(&levels.next) {
            rename[next as usize] = cur;
        }
        Ok(Image {
            first,
            clusters,
            rename,
        })
    }

    /// The states one transition from `set` (under the constraints), over the current-state
    /// variables.
    fn apply(&self, m: &mut Manager, set: Bdd) -> Result<Bdd, Stop> {
        let mut acc = m.exists(set, &self.first)?;
        for (cluster, quantified) in &self.clusters {
            acc = m.and_exists(acc, *cluster, quantified)?;
        }
        m.rename(acc, &self.rename)
    }

    /// Collects the nodes that neither the clusters nor `roots` reach.
    fn collect(&mut self, m: &mut Manager, roots: &mut [&mut Bdd]) {
        let mut all: Vec<&mut Bdd> = self.clusters.iter_mut().map(|(f, _)| f).collect();
        all.extend(roots.iter_mut().map(|r| &mut **r));
        m.collect(&mut all);
    }
}

/// The BDDs of the gates in the cone of the properties and next-state functions.
struct Gates {
    bdd: Vec<Bdd>,
}

impl Gates {
    fn build(ts: &TransitionSystem, m: &mut Manager, levels: &Levels) -> Result<Gates, Stop> {
        let roots = (ts.bad.iter().chain(&ts.constraints).copied())
            .chain(ts.latches.iter().map(|l| l.next));
        let cone = ts.aig.cone(roots);
        let kinds = ts.leaf_kinds();
        let mut gates = Gates {
            bdd: vec![Bdd::FALSE; ts.aig.num_vars()],
        };
        for v in (0..ts.aig.num_vars()).filter(|&v| cone[v]) {
            gates.bdd[v] = match (ts.aig.node(aig::Var(v as u32)), kinds[v]) {
                (Node::And(a, b), _) => {
                    let (a, b) = (gates.lit(m, a)?, gates.lit(m, b)?);
                    m.and(a, b)?
                }
                (Node::Leaf, Some(Leaf::Latch(j))) => m.var(levels.cur[j])?,
                (Node::Leaf, Some(Leaf::Input(i))) => m.var(levels.input[i])?,
                _ => Bdd::FALSE,
            };
        }
        Ok(gates)
    }

    fn lit(&self, m: &mut Manager, l: aig::Lit) -> Result<Bdd, Stop> {
        let f = self.bdd[l.var().index()];
        if l.is_negated() {
            m.not(f)
        } else {
            Ok(f)
        }
    }
}

/// The reachable set `reached` as a predicate in a copy of the system's AIG: a multiplexer
/// on the latch of each BDD node.
fn invariant(ts: &TransitionSystem, m: &Manager, levels: &Levels, reached: Bdd) -> Invariant {
    let mut system = ts.clone();
    let mut latch_at = vec![None; levels.count as usize];
    for (j, &cur) in levels.cur.iter().enumerate() {
        latch_at[cur as usize] = Some(ts.latches[j].var.lit());
    }
    let mut lit_of = std::collections::HashMap::from([
        (Bdd::FALSE, aig::Lit::FALSE),
        (Bdd::TRUE, aig::Lit::TRUE),
    ]);
    for f in m.post_order(&[reached]) {
        let (v, lo, hi) = m.node(f).expect("post_order lists inner nodes");
        let x = latch_at[v as usize].expect("the reachable set reads current-state variables");
        let l = system.aig.mux(x, lit_of[&hi], lit_of[&lo]);
        lit_of.insert(f, l);
    }
    Invariant {
        system,
        predicate: lit_of[&reached],
    }
}

#[cfg(test)]
mod tests;
