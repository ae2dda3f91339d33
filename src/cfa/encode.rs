//! The adapter from a CFA to a word-level transition system, so that every bit-level engine
//! (through [`crate::wl::blast`]) checks programs unchanged.
//!
//! The model is the CFA's term store plus a binary program counter `pc`: state `i < vars.len()`
//! is variable `i`, state `vars.len()` is `pc`, input `j` is nondet source `j`. One step of the
//! system fires the enabled edge of the current location (guards are exclusive); when none is
//! enabled (a failed assumption, or the program ended) `pc` moves to the exit location, which
//! is a sink. The one bad property is `pc == error`.

use super::Cfa;
use crate::wl::{self, Binary, BitVec, Op, Sort, TermId};

/// The width of the program counter of `cfa`.
pub fn pc_width(cfa: &Cfa) -> u32 {
    let n = cfa.locations.len().max(2) as u64;
    64 - (n - 1).leading_zeros()
}

/// The word-level model of `cfa` (see the module documentation for its layout).
pub fn encode(cfa: &Cfa) -> Result<wl::Model, wl::SortError> {
    let mut m = cfa.terms.clone();
    let width = pc_width(cfa);
    let pc_state = m.add_state(Sort::Bv(width), Some("pc".into()));
    let pc = m.states()[pc_state].term;
    let loc_const =
        |m: &mut wl::Model, l: super::Loc| m.constant_term(BitVec::from_u64(width, u64::from(l.0)));
    for (i, v) in cfa.vars.iter().enumerate() {
        // An array state takes a bit-vector init for every element.
        let width = v.sort.element_width();
        let zero = m.constant_term(BitVec::zero(width));
        m.set_init(i, zero)?;
    }
    let entry = loc_const(&mut m, cfa.entry);
    m.set_init(pc_state, entry)?;
    // An edge into the exit that assigns nothing moves `pc` where no edge does: it needs no
    // gates (a straight-line constraint program's failed assumptions, one disjunction of
    // every guard's prefix, are most of its circuit).
    let edges: Vec<&super::Edge> = (cfa.edges.iter())
        .filter(|e| e.to != cfa.exit || !e.assigns.is_empty())
        .collect();
    // Whether each edge fires in the current step.
    let mut fires = Vec::with_capacity(edges.len());
    for e in &edges {
        let from = loc_const(&mut m, e.from);
        let at = m.apply(Op::Binary(Binary::Eq), &[pc, from])?;
        fires.push(m.apply(Op::Binary(Binary::And), &[at, e.guard])?);
    }
    let mut next_pc = loc_const(&mut m, cfa.exit);
    for (e, &f) in edges.iter().zip(&fires).rev() {
        let to = loc_const(&mut m, e.to);
        next_pc = m.apply(Op::Ite, &[f, to, next_pc])?;
    }
    m.set_next(pc_state, next_pc)?;
    let mut next: Vec<TermId> = cfa.vars.iter().map(|v| v.term).collect();
    for (e, &f) in edges.iter().zip(&fires).rev() {
        for &(v, t) in &e.assigns {
            let i = v.index();
            next[i] = m.apply(Op::Ite, &[f, t, next[i]])?;
        }
    }
    for (i, t) in next.into_iter().enumerate() {
        m.set_next(i, t)?;
    }
    let error = loc_const(&mut m, cfa.error);
    let bad = m.apply(Op::Binary(Binary::Eq), &[pc, error])?;
    m.add_bad(bad, Some("error".into()))?;
    Ok(m)
}
