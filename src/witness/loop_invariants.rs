//! Loop invariants in C for SV-COMP's correctness witnesses, read off the invariant that
//! proved a C program safe (an invariant of its encoding, [`crate::cfa::encode`]).
//!
//! The invariant is a predicate over the latches of the encoded system: the bits of the
//! program counter and of the program's variables. At the head `h` of a loop the program
//! counter is `h`, so each top-level conjunct of the invariant, with the counter's bits set to
//! `h`, holds whenever the program is at the loop head. It is a C expression there when what
//! is left reads only bits of variables that the loop's scope sees by name: bit `i` of `x`
//! is `(((T)x >> i) & 1)`, `T` the unsigned type of `x`'s width. A conjunct that reads
//! anything else (another function's variable, a temporary, a variable whose assignments the
//! slicing removed, so its bits are not the program's, an array, an auxiliary latch of a
//! k-induction certificate) is left out: fewer conjuncts still hold. A loop the large blocks
//! merged away (its head is not a location of the encoding) and a loop with several copies (a
//! function inlined more than once) get no invariant.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;

use crate::aig::{Aig, Lit, Node, Var};
use crate::cfa::{lbe, Cfa, LoopHead, VarId};
use crate::wl::blast::{BitMap, Bits};
use crate::wl::Sort;

/// An invariant of the loop whose statement starts at `line`, `column` in `function`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopInvariant {
    pub line: u32,
    pub column: u32,
    pub function: String,
    /// A C expression over the variables in scope at the loop.
    pub value: String,
}

/// Longer conjuncts are left out: a witness is read by people and validators alike.
const MAX_CONJUNCT: usize = 2_000;

/// The loop invariants that `predicate` in `aig` (the predicate of an invariant of the
/// encoding of `blocks`, whose words lie at `bits` in the system) states in C: one per loop
/// with at least one conjunct to say. The predicate, not the invariant of [`crate::cert`],
/// so that witness writers stay below the certificates.
pub fn loop_invariants(
    cfa: &Cfa,
    blocks: &Cfa,
    bits: &BitMap,
    aig: &Aig,
    predicate: Lit,
) -> Vec<LoopInvariant> {
    let mut latches: FxHashMap<Var, (usize, usize, bool)> = FxHashMap::default();
    for (state, b) in bits.states.iter().enumerate() {
        if let Bits::Bv(word) = b {
            for (i, &l) in word.iter().enumerate() {
                latches.insert(l.var(), (state, i, l.is_negated()));
            }
        }
    }
    // A variable's bits are the program's where the encoding keeps its assignments.
    let assigned = |c: &Cfa| {
        let mut seen = vec![false; c.vars.len()];
        for e in &c.edges {
            for &(v, _) in &e.assigns {
                seen[v.index()] = true;
            }
        }
        seen
    };
    let (in_program, in_blocks) = (assigned(cfa), assigned(blocks));
    let exact: Vec<bool> = (0..blocks.vars.len())
        .map(|v| in_blocks[v] || !in_program[v])
        .collect();
    let kept = lbe::kept_locations(blocks);
    let conjuncts = aig.conjuncts(predicate);
    let copies = |h: &LoopHead| {
        (blocks.loop_heads.iter())
            .filter(|g| (g.line, g.column) == (h.line, h.column))
            .count()
    };
    let mut out = Vec::new();
    for head in blocks.loop_heads.iter() {
        if !kept[head.loc.index()] || copies(head) > 1 {
            continue;
        }
        let mut c = Translator {
            blocks,
            latches: &latches,
            exact: &exact,
            pc: blocks.vars.len(),
            head,
            names: head.visible.iter().map(|(n, v)| (*v, n.as_str())).collect(),
            memo: FxHashMap::default(),
            aig,
        };
        // Single bits of one variable are said together: `(x & MASK) == VALUE`.
        let mut masks: BTreeMap<usize, (u64, u64)> = BTreeMap::new();
        let mut said: Vec<String> = Vec::new();
        for &l in &conjuncts {
            if let Some((state, i, value)) = c.single_bit(l) {
                let (mask, bits) = masks.entry(state).or_default();
                *mask |= 1 << i;
                *bits |= u64::from(value) << i;
                continue;
            }
            match c.expr(l, 0) {
                None | Some(C::Const(true)) => {}
                Some(C::Const(false)) => said.push("0".to_owned()),
                Some(C::Expr(e)) => said.push(e),
            }
        }
        for (state, (mask, bits)) in masks {
            said.push(c.masked(state, mask, bits));
        }
        if !said.is_empty() {
            out.push(LoopInvariant {
                line: head.line,
                column: head.column,
                function: head.function.clone(),
                value: said.join(" && "),
            });
        }
    }
    out
}

/// A literal of the invariant at a loop head: constant once the program counter is fixed,
/// or a C expression.
#[derive(Clone)]
enum C {
    Const(bool),
    Expr(String),
}

/// How deep the invariant's gates are followed before a conjunct is given up.
const MAX_DEPTH: usize = 2_000;

struct Translator<'a> {
    blocks: &'a Cfa,
    /// The state and bit of each latch of the system (negated when the bit is the latch's
    /// complement).
    latches: &'a FxHashMap<Var, (usize, usize, bool)>,
    exact: &'a [bool],
    /// The state of the program counter.
    pc: usize,
    head: &'a LoopHead,
    names: FxHashMap<VarId, &'a str>,
    memo: FxHashMap<Var, Option<C>>,
    aig: &'a Aig,
}

impl Translator<'_> {
    /// `l` as a bit of a variable the loop sees, fixed to a value: `(state, bit, value)`.
    fn single_bit(&self, l: Lit) -> Option<(usize, usize, bool)> {
        if self.aig.node(l.var()) != Node::Leaf {
            return None;
        }
        let &(state, i, negated) = self.latches.get(&l.var())?;
        let word = self.word(state)?;
        (word.1.is_some()).then_some((state, i, l.is_negated() == negated))
    }

    /// `(x & mask) == bits` for the variable of `state` (its name and width known to
    /// [`Translator::word`]).
    fn masked(&self, state: usize, mask: u64, bits: u64) -> String {
        let (name, t) = self.word(state).expect("a single bit's variable");
        let t = t.expect("wider than one bit");
        format!("((({t}){name} & {mask:#x}u) == {bits:#x}u)")
    }

    /// The C name of the variable of `state` at the loop and the unsigned type of its width
    /// (`None` for one bit), if the loop sees it with its program values.
    fn word(&self, state: usize) -> Option<(&str, Option<&'static str>)> {
        if state == self.pc || !self.exact.get(state).copied().unwrap_or(false) {
            return None;
        }
        let name = self.names.get(&VarId(state as u32))?;
        let unsigned = match self.blocks.vars[state].sort {
            Sort::Bv(1) => None,
            Sort::Bv(8) => Some("unsigned char"),
            Sort::Bv(16) => Some("unsigned short"),
            Sort::Bv(32) => Some("unsigned int"),
            Sort::Bv(64) => Some("unsigned long long"),
            _ => return None,
        };
        Some((name, unsigned))
    }

    /// `l` at the loop head, `None` when C cannot say it there.
    fn expr(&mut self, l: Lit, depth: usize) -> Option<C> {
        if depth > MAX_DEPTH {
            return None;
        }
        let v = l.var();
        let positive = match self.memo.get(&v) {
            Some(known) => known.clone(),
            None => {
                let known = self.node(v, depth);
                self.memo.insert(v, known.clone());
                known
            }
        }?;
        Some(match (positive, l.is_negated()) {
            (C::Const(b), negated) => C::Const(b != negated),
            (C::Expr(e), false) => C::Expr(e),
            (C::Expr(e), true) => C::Expr(format!("!{e}")),
        })
    }

    fn node(&mut self, v: Var, depth: usize) -> Option<C> {
        match self.aig.node(v) {
            Node::False => Some(C::Const(false)),
            Node::Leaf => self.bit(v),
            Node::And(a, b) => {
                let a = self.expr(a, depth + 1);
                if matches!(a, Some(C::Const(false))) {
                    return a;
                }
                let b = self.expr(b, depth + 1);
                match (a?, b?) {
                    (_, C::Const(false)) => Some(C::Const(false)),
                    (C::Const(true), x) | (x, C::Const(true)) => Some(x),
                    (C::Expr(x), C::Expr(y)) => {
                        let e = format!("({x} && {y})");
                        (e.len() <= MAX_CONJUNCT).then_some(C::Expr(e))
                    }
                    (C::Const(false), _) => unreachable!("returned above"),
                }
            }
        }
    }

    /// A latch's value at the loop head: a bit of the program counter (known there) or of a
    /// variable the loop sees.
    fn bit(&self, v: Var) -> Option<C> {
        let &(state, i, negated) = self.latches.get(&v)?;
        if state == self.pc {
            let on = (self.head.loc.0 as u64 >> i) & 1 == 1;
            return Some(C::Const(on != negated));
        }
        let (name, unsigned) = self.word(state)?;
        let e = match unsigned {
            None => format!("({name} != 0)"),
            Some(t) => format!("((({t}){name} >> {i}) & 1)"),
        };
        Some(C::Expr(match negated {
            false => e,
            true => format!("!{e}"),
        }))
    }
}
