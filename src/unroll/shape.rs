//! Which clauses a gate gets: wider gates than the AIG's two-input ANDs.
//!
//! Tseitin-encoding every AND of the AIG gives each its own variable and three clauses. A
//! gate used only once, by another AND and nowhere else (not a next-state function, a
//! property, a constraint or an atom), needs no variable of its own: a tree of such gates
//! is one multi-input AND, and the three gates of a multiplexer (`c ? t : e`, which is how
//! word-level designs blasted to bits spend most of their gates) are one ITE. That is the
//! structural part of the CNF that ABC's `bmc3` derives by cuts (Eén, Mishchenko,
//! Sörensson, SAT 2007), which gave it about a third of warden's variables on large
//! unrollings. A merged gate is still encoded on its own if a query names it (IC3's
//! internal signals): a second, equivalent variable, never a wrong one.

use crate::aig::{self, Aig, Node};
use crate::sat;
use crate::ts::TransitionSystem;

/// The most operands one wide AND takes; past it, the rest stay gates of their own (a long
/// chain would otherwise make one clause per variable of a whole cone).
const MAX_LEAVES: usize = 16;

/// Whether each AIG variable is used exactly once, by one AND gate.
pub(super) struct SingleUse(Vec<bool>);

impl SingleUse {
    pub(super) fn new(ts: &TransitionSystem) -> SingleUse {
        let aig = &ts.aig;
        // 0: unused, 1: used once by a gate, 2: used more or by the system itself.
        let mut uses = vec![0u8; aig.num_vars()];
        let mut count = |l: aig::Lit, n: u8| {
            let u = &mut uses[l.var().index()];
            *u = u.saturating_add(n).min(2);
        };
        for v in (0..aig.num_vars()).map(|i| aig::Var(i as u32)) {
            if let Node::And(a, b) = aig.node(v) {
                count(a, 1);
                count(b, 1);
            }
        }
        let roots = (ts.latches.iter().map(|l| l.next))
            .chain(ts.bad.iter().copied())
            .chain(ts.constraints.iter().copied())
            .chain(ts.justice.iter().flatten().copied())
            .chain(ts.fairness.iter().copied())
            .chain(ts.atoms.iter().copied());
        roots.for_each(|l| count(l, 2));
        SingleUse(uses.into_iter().map(|u| u == 1).collect())
    }

    fn get(&self, v: aig::Var) -> bool {
        self.0[v.index()]
    }
}

/// The gate a variable's clauses encode, over AIG literals.
pub(super) enum Shape {
    /// `c ? t : e`.
    Ite {
        c: aig::Lit,
        t: aig::Lit,
        e: aig::Lit,
    },
    /// The conjunction of the operands, shallowest (smallest variable) first: the first one
    /// found false saves encoding the others' cones.
    And(Vec<aig::Lit>),
}

/// A shape's operands as solver literals, ready to encode.
pub(super) enum Operands {
    Ite(sat::Lit, sat::Lit, sat::Lit),
    And(Vec<sat::Lit>),
}

impl Shape {
    /// The operands' solver literals (`input` gives those encoded, `f` is false), or the
    /// first operand still to encode: a multiplexer's select before its branches and only
    /// the branch a constant select picks (the other reads false: [`sat::tseitin::Gates::ite`]
    /// returns the picked one); a wide AND's operands in order, and no more once one is false.
    pub(super) fn operands(
        &self,
        input: impl Fn(aig::Lit) -> Option<sat::Lit>,
        f: sat::Lit,
    ) -> Result<Operands, aig::Lit> {
        let encoded = |x: aig::Lit| input(x).ok_or(x);
        match self {
            Shape::Ite { c, t, e } => {
                let lc = encoded(*c)?;
                let pick = |x: aig::Lit, taken: bool| if taken { encoded(x) } else { Ok(f) };
                let lt = pick(*t, lc != f)?;
                let le = pick(*e, lc != !f)?;
                Ok(Operands::Ite(lc, lt, le))
            }
            Shape::And(leaves) => {
                if leaves.iter().any(|&x| input(x) == Some(f)) {
                    return Ok(Operands::And(vec![f]));
                }
                leaves
                    .iter()
                    .map(|&x| encoded(x))
                    .collect::<Result<_, _>>()
                    .map(Operands::And)
            }
        }
    }
}

/// The shape of AND gate `v`, merging the single-use gates under it (if `single` is given)
/// for which `free` holds (not yet encoded in the frame at hand).
pub(super) fn of(
    aig: &Aig,
    single: Option<&SingleUse>,
    v: aig::Var,
    free: impl Fn(aig::Var) -> bool,
) -> Shape {
    let mergeable = |l: aig::Lit| single.is_some_and(|s| s.get(l.var())) && free(l.var());
    let Node::And(a, b) = aig.node(v) else {
        unreachable!("shapes are asked of gates only")
    };
    if let Some((c, t, e)) = ite(aig, v).filter(|_| mergeable(a) && mergeable(b)) {
        return Shape::Ite { c, t, e };
    }
    let mut leaves = Vec::new();
    let mut todo = vec![a, b];
    while let Some(l) = todo.pop() {
        let widen = !l.is_negated()
            && leaves.len() + todo.len() + 2 <= MAX_LEAVES
            && mergeable(l)
            && ite(aig, l.var()).is_none();
        match aig.node(l.var()) {
            Node::And(x, y) if widen => todo.extend([x, y]),
            _ => leaves.push(l),
        }
    }
    leaves.sort_unstable();
    Shape::And(leaves)
}

/// `(c, t, e)` if gate `v` is `!(c & !t) & !(!c & !e)`, that is `c ? t : e`.
fn ite(aig: &Aig, v: aig::Var) -> Option<(aig::Lit, aig::Lit, aig::Lit)> {
    let Node::And(a, b) = aig.node(v) else {
        return None;
    };
    if !a.is_negated() || !b.is_negated() {
        return None;
    }
    let (Node::And(a0, a1), Node::And(b0, b1)) = (aig.node(a.var()), aig.node(b.var())) else {
        return None;
    };
    // a = !(p & x), b = !(!p & y): v = p ? !x : !y.
    for (p, x) in [(a0, a1), (a1, a0)] {
        for (q, y) in [(b0, b1), (b1, b0)] {
            if p == !q {
                return Some(if p.is_negated() {
                    (!p, !y, !x)
                } else {
                    (p, !x, !y)
                });
            }
        }
    }
    None
}
