//! Symbolic states and their strongest post along an edge, bit by bit.
//!
//! Seed 002's symbolic value analysis maps variables to concrete values or to expressions
//! over *symbolic identifiers* (the values drawn by nondet calls and read from unknown
//! variables) and keeps the path constraints over those identifiers. Here every identifier
//! is named after a variable bit that holds it: a state gives each variable bit either its
//! own leaf of [`Program`] (the bit is *free*: it holds an identifier, its current value)
//! or an AIG function of the free bits' leaves, and its constraints are AIG literals over
//! the same leaves. A state is then exactly the quantifier-free formula [`State::label`]
//! over the program variables: covering is entailment between labels, and the labels of
//! the explored states form an invariant the caller checks, as the other CFA engines' do.
//!
//! After an edge, an identifier no variable holds any more (the variable that held it was
//! overwritten and nothing copied it, nor inverts it) is quantified away ([`quantify`]).
//! The variables the precision does not track at the edge's target become free.

use std::collections::{HashMap, HashSet};

use super::super::program::Program;
use super::quantify::{quantify, Entangled, Losses};
use super::solver::Solver;
use crate::aig::{self, Aig, Node};

/// A symbolic state over the program's variable leaves (see the module documentation).
#[derive(Clone, Debug)]
pub(super) struct State {
    /// Per variable, each bit's value: its own leaf when free.
    pub vals: Vec<Vec<aig::Lit>>,
    /// The path constraints that remain, sorted, none constant.
    pub cons: Vec<aig::Lit>,
}

/// The successor of a state along an edge.
pub(super) enum Step {
    Next(State),
    /// The edge cannot fire from the state.
    Infeasible,
    /// The budget ran out.
    Stopped,
}

impl State {
    /// The initial state: every variable zero where `tracked`, free elsewhere.
    pub fn initial(prog: &Program, tracked: &[bool]) -> State {
        let vals = (prog.vars.iter().zip(tracked))
            .map(|(leaves, &t)| match t {
                true => vec![aig::Lit::FALSE; leaves.len()],
                false => leaves.clone(),
            })
            .collect();
        State {
            vals,
            cons: Vec::new(),
        }
    }

    /// The bits that are not free, as (leaf in `vars`, value) pairs.
    fn bound<'s>(
        &'s self,
        vars: &'s [Vec<aig::Lit>],
    ) -> impl Iterator<Item = (aig::Lit, aig::Lit)> + 's {
        (vars.iter().zip(&self.vals))
            .flat_map(|(leaves, vals)| leaves.iter().copied().zip(vals.iter().copied()))
            .filter(|(leaf, v)| leaf != v)
    }

    /// The state as a conjunction over the variable leaves `vars`, sorted: each bit that is not
    /// free equals its value, and the constraints hold.
    pub fn label(&self, vars: &[Vec<aig::Lit>], aig: &mut Aig) -> Vec<aig::Lit> {
        let mut label = self.cons.clone();
        for (leaf, v) in self.bound(vars) {
            label.push(!aig.xor(leaf, v));
        }
        label.retain(|&l| l != aig::Lit::TRUE);
        label.sort();
        label.dedup();
        label
    }

    /// The successor along edge `e` whose target tracks the variables `tracked`.
    pub fn post(
        &self,
        prog: &mut Program,
        sat: &mut Solver,
        e: usize,
        tracked: &[bool],
        losses: &mut Losses,
    ) -> Step {
        // The edge over this state's identifiers: each variable leaf replaced by its value
        // (a free bit's leaf is its own value); the nondet leaves are the identifiers drawn.
        let sub: HashMap<aig::Var, aig::Lit> = (self.bound(&prog.vars))
            .map(|(leaf, v)| (leaf.var(), v.xor_sign(leaf.is_negated())))
            .collect();
        let mut roots = vec![prog.edges[e].guard];
        for (x, next) in prog.edges[e].next.iter().enumerate() {
            if tracked[x] {
                roots.extend(next);
            }
        }
        let images = prog
            .circuits
            .aig
            .substitute(|v| sub.get(&v).copied(), &roots);
        let aig = &mut prog.circuits.aig;
        let mut cons = self.cons.clone();
        cons.extend(aig.conjuncts(images[0]));
        cons.retain(|&c| c != aig::Lit::TRUE);
        cons.sort();
        cons.dedup();
        match sat.satisfiable(aig, &cons) {
            Some(true) => {}
            Some(false) => return Step::Infeasible,
            None => return Step::Stopped,
        }
        // The new values, over the identifiers; untracked variables are free.
        let mut next: Vec<Option<&[aig::Lit]>> = vec![None; prog.vars.len()];
        let mut at = 1;
        for (x, bits) in prog.vars.iter().enumerate() {
            if tracked[x] {
                next[x] = Some(&images[at..at + bits.len()]);
                at += bits.len();
            }
        }
        // Each identifier is renamed after the first tracked bit that holds it.
        let mut rename: HashMap<aig::Var, aig::Lit> = HashMap::new();
        let mut holder: HashSet<(usize, usize)> = HashSet::new();
        for (x, vals) in next.iter().enumerate() {
            for (b, &v) in vals.iter().flat_map(|v| v.iter()).enumerate() {
                let leaf = !v.is_const() && aig.node(v.var()) == Node::Leaf;
                if leaf && !rename.contains_key(&v.var()) {
                    rename.insert(v.var(), prog.vars[x][b].xor_sign(v.is_negated()));
                    holder.insert((x, b));
                }
            }
        }
        // An identifier an update inverts (`x = x + 1`, `x = x ^ y`: a bit that is the
        // identifier XOR what other renamed identifiers give) is renamed after that bit too,
        // low bits first, as a carry needs them: its old value is the new bit XOR the rest.
        let mut progress = true;
        while progress {
            progress = false;
            for (x, vals) in next.iter().enumerate() {
                for (b, &v) in vals.iter().flat_map(|v| v.iter()).enumerate() {
                    if holder.contains(&(x, b)) {
                        continue;
                    }
                    if let Some((u, rest)) = inverted(aig, v, &rename) {
                        let rest = aig.substitute(|v| rename.get(&v).copied(), &[rest])[0];
                        let old = aig.xor(prog.vars[x][b], rest).xor_sign(u.is_negated());
                        rename.insert(u.var(), old);
                        holder.insert((x, b));
                        progress = true;
                    }
                }
            }
        }
        let orphans = |aig: &Aig, l: aig::Lit| -> Vec<aig::Var> {
            let mut o = aig.leaves_of([l]);
            o.retain(|v| !rename.contains_key(v));
            o
        };
        let mut state = State {
            vals: prog.vars.clone(),
            cons: Vec::new(),
        };
        let mut entangled = Vec::new();
        for (x, vals) in next.iter().enumerate() {
            for (b, &v) in vals.iter().flat_map(|v| v.iter()).enumerate() {
                if holder.contains(&(x, b)) {
                    continue;
                }
                let orphans = orphans(aig, v);
                match orphans.is_empty() {
                    true => state.vals[x][b] = aig.substitute(|u| rename.get(&u).copied(), &[v])[0],
                    false => entangled.push(Entangled {
                        bit: Some(prog.vars[x][b]),
                        expr: v,
                        orphans,
                    }),
                }
            }
        }
        for &c in &cons {
            let orphans = orphans(aig, c);
            match orphans.is_empty() {
                true => state
                    .cons
                    .push(aig.substitute(|v| rename.get(&v).copied(), &[c])[0]),
                false => entangled.push(Entangled {
                    bit: None,
                    expr: c,
                    orphans,
                }),
            }
        }
        state.cons.extend(quantify(aig, &rename, entangled, losses));
        state.cons.retain(|&c| c != aig::Lit::TRUE);
        state.cons.sort();
        state.cons.dedup();
        Step::Next(state)
    }
}

/// `v` as `u XOR rest`, `u` a leaf literal not yet renamed that `rest` does not read, and
/// every leaf `rest` reads renamed: then `u = v XOR rest` names `u` after `v`'s bit.
fn inverted(
    aig: &mut Aig,
    v: aig::Lit,
    rename: &HashMap<aig::Var, aig::Lit>,
) -> Option<(aig::Lit, aig::Lit)> {
    let mut operands = Vec::new();
    let mut parity = false;
    xor_operands(aig, v, XOR_DEPTH, &mut operands, &mut parity);
    let leaf = |l: &aig::Lit| !l.is_const() && aig.node(l.var()) == Node::Leaf;
    let i = (operands.iter()).position(|l| leaf(l) && !rename.contains_key(&l.var()))?;
    let u = operands.swap_remove(i);
    let read = aig.leaves_of(operands.iter().copied());
    if read
        .iter()
        .any(|r| *r == u.var() || !rename.contains_key(r))
    {
        return None;
    }
    let rest =
        (operands.into_iter()).fold(aig::Lit::FALSE.xor_sign(parity), |acc, o| aig.xor(acc, o));
    Some((u, rest))
}

/// How deep [`xor_operands`] looks through nested XOR gates (an adder's sum bit is two).
const XOR_DEPTH: usize = 4;

/// The operands of the XOR tree at the top of `t` (positive literals, their signs folded
/// into `parity`), down to `depth` levels.
fn xor_operands(aig: &Aig, t: aig::Lit, depth: usize, out: &mut Vec<aig::Lit>, parity: &mut bool) {
    if depth > 0 {
        if let Some((p, q)) = as_xor(aig, t) {
            xor_operands(aig, p, depth - 1, out, parity);
            xor_operands(aig, q, depth - 1, out, parity);
            return;
        }
    }
    *parity ^= t.is_negated();
    out.push(t.xor_sign(t.is_negated()));
}

/// `t` as `p XOR q` when its gate is the XOR pattern `!(p & q) & !(!p & !q)`.
fn as_xor(aig: &Aig, t: aig::Lit) -> Option<(aig::Lit, aig::Lit)> {
    if t.is_const() {
        return None;
    }
    let Node::And(c1, c2) = aig.node(t.var()) else {
        return None;
    };
    if !(c1.is_negated() && c2.is_negated()) {
        return None;
    }
    let (Node::And(p1, q1), Node::And(p2, q2)) = (aig.node(c1.var()), aig.node(c2.var())) else {
        return None;
    };
    let xor = (p2 == !p1 && q2 == !q1) || (p2 == !q1 && q2 == !p1);
    xor.then_some((p1, q1.xor_sign(t.is_negated())))
}
