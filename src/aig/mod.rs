//! And-Inverter Graphs: the bit-level representation every input format ends in.
//!
//! A literal is `2 * var + sign` exactly as in AIGER; variable 0 is the constant FALSE, so
//! `Lit::FALSE == Lit(0)` and `Lit::TRUE == Lit(1)`. Variables are either *leaves* (inputs and
//! latch outputs of a transition system: free in the combinational view) or AND gates.
//! AND gates are structurally hashed and always refer to smaller variables, so the variable
//! order is a topological order: simulation and encoding walk it front to back.
//!
//! Layer: the bottom of the bit-level core; imports only the plumbing, so that everything above can
//! be built of it.

mod sim;
mod subst;
pub use sim::{simulate_frame, Gates, WideSim, WordSim};

use std::collections::HashMap;
use std::fmt;
use std::ops::Not;

/// A variable of an [`Aig`]. Variable 0 is the constant FALSE.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd, Debug)]
pub struct Var(pub u32);

impl Var {
    /// The positive literal of this variable.
    pub fn lit(self) -> Lit {
        Lit(self.0 << 1)
    }
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A literal: `2 * var + sign`, as in AIGER.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd)]
pub struct Lit(pub u32);

impl Lit {
    pub const FALSE: Lit = Lit(0);
    pub const TRUE: Lit = Lit(1);

    pub fn new(var: Var, negated: bool) -> Lit {
        Lit((var.0 << 1) | negated as u32)
    }
    pub fn var(self) -> Var {
        Var(self.0 >> 1)
    }
    pub fn is_negated(self) -> bool {
        self.0 & 1 == 1
    }
    pub fn is_const(self) -> bool {
        self.0 < 2
    }
    /// This literal with its sign flipped when `flip` is true.
    pub fn xor_sign(self, flip: bool) -> Lit {
        Lit(self.0 ^ flip as u32)
    }
}

impl Not for Lit {
    type Output = Lit;
    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

impl fmt::Debug for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            if self.is_negated() { "!" } else { "" },
            self.var().0
        )
    }
}

/// What a variable is.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Node {
    /// Variable 0.
    False,
    /// A free variable of the combinational graph (an input or a latch output).
    Leaf,
    /// An AND gate over two smaller literals (`a >= b`).
    And(Lit, Lit),
}

/// A structurally hashed And-Inverter Graph.
#[derive(Clone, Debug)]
pub struct Aig {
    nodes: Vec<Node>,
    /// The AND gates by operands, while `hashed`; [`Aig::compact`] drops it (a finished
    /// system is only read) and the next [`Aig::and`] rebuilds it.
    strash: HashMap<(Lit, Lit), Var>,
    hashed: bool,
    ands: usize,
}

impl Default for Aig {
    fn default() -> Self {
        Self::new()
    }
}

impl Aig {
    pub fn new() -> Aig {
        Aig {
            nodes: vec![Node::False],
            strash: HashMap::new(),
            hashed: true,
            ands: 0,
        }
    }

    /// Number of variables, including the constant.
    pub fn num_vars(&self) -> usize {
        self.nodes.len()
    }

    pub fn num_ands(&self) -> usize {
        self.ands
    }

    /// Frees what only building needs: the structural hash (about 17 bytes per gate: 27 MiB
    /// on a 1.6M-gate model, kept for the whole run by the original system and again by the
    /// reduced one) and the spare capacity of the node table. The graph reads the same; a
    /// later [`Aig::and`] rebuilds the hash first.
    pub fn compact(&mut self) {
        self.strash = HashMap::new();
        self.hashed = false;
        self.nodes.shrink_to_fit();
    }

    pub fn node(&self, v: Var) -> Node {
        self.nodes[v.index()]
    }

    pub fn new_leaf(&mut self) -> Var {
        self.nodes.push(Node::Leaf);
        Var(self.nodes.len() as u32 - 1)
    }

    /// The AND of two literals, simplified by the one-level rules and structural hashing.
    pub fn and(&mut self, a: Lit, b: Lit) -> Lit {
        let (a, b) = if a >= b { (a, b) } else { (b, a) };
        if b == Lit::FALSE || a == !b {
            return Lit::FALSE;
        }
        if b == Lit::TRUE || a == b {
            return a;
        }
        if !self.hashed {
            self.strash = self
                .nodes
                .iter()
                .enumerate()
                .filter_map(|(i, n)| match *n {
                    Node::And(x, y) => Some(((x, y), Var(i as u32))),
                    _ => None,
                })
                .collect();
            self.hashed = true;
        }
        if let Some(&v) = self.strash.get(&(a, b)) {
            return v.lit();
        }
        self.nodes.push(Node::And(a, b));
        let v = Var(self.nodes.len() as u32 - 1);
        self.strash.insert((a, b), v);
        self.ands += 1;
        v.lit()
    }

    pub fn or(&mut self, a: Lit, b: Lit) -> Lit {
        !self.and(!a, !b)
    }

    pub fn xor(&mut self, a: Lit, b: Lit) -> Lit {
        let l = self.and(a, !b);
        let r = self.and(!a, b);
        self.or(l, r)
    }

    /// `if c then t else e`.
    pub fn mux(&mut self, c: Lit, t: Lit, e: Lit) -> Lit {
        let l = self.and(c, t);
        let r = self.and(!c, e);
        self.or(l, r)
    }

    /// The top-level conjuncts of `l`: the leaves of its tree of non-negated AND gates. The
    /// tree is a DAG whose conjunctions may share subtrees (walked as a tree it can have
    /// exponentially many paths), so every literal is visited once.
    pub fn conjuncts(&self, l: Lit) -> Vec<Lit> {
        let mut out = Vec::new();
        let mut stack = vec![l];
        let mut seen = std::collections::HashSet::new();
        while let Some(x) = stack.pop() {
            if !seen.insert(x) {
                continue;
            }
            match self.node(x.var()) {
                Node::And(a, b) if !x.is_negated() => stack.extend([a, b]),
                _ => out.push(x),
            }
        }
        out
    }

    pub fn and_all(&mut self, lits: impl IntoIterator<Item = Lit>) -> Lit {
        lits.into_iter().fold(Lit::TRUE, |acc, l| self.and(acc, l))
    }

    pub fn or_all(&mut self, lits: impl IntoIterator<Item = Lit>) -> Lit {
        lits.into_iter().fold(Lit::FALSE, |acc, l| self.or(acc, l))
    }

    /// Marks every variable in the transitive fan-in of `roots` (leaves included).
    pub fn cone(&self, roots: impl IntoIterator<Item = Lit>) -> Vec<bool> {
        let mut mark = vec![false; self.nodes.len()];
        let mut stack: Vec<Var> = roots.into_iter().map(Lit::var).collect();
        while let Some(v) = stack.pop() {
            if std::mem::replace(&mut mark[v.index()], true) {
                continue;
            }
            if let Node::And(a, b) = self.nodes[v.index()] {
                stack.push(a.var());
                stack.push(b.var());
            }
        }
        mark
    }

    /// Copies the cone of `roots` from `self` into `dst`, where `map[v]` already gives the image
    /// of every leaf the cone reaches. Fills `map` for the copied gates and returns the images
    /// of `roots`.
    pub fn copy_cone(&self, dst: &mut Aig, map: &mut [Option<Lit>], roots: &[Lit]) -> Vec<Lit> {
        let mut stack: Vec<(Var, bool)> = roots.iter().map(|l| (l.var(), false)).collect();
        while let Some((v, expanded)) = stack.pop() {
            if map[v.index()].is_some() {
                continue;
            }
            match self.nodes[v.index()] {
                Node::False => map[v.index()] = Some(Lit::FALSE),
                Node::Leaf => panic!("copy_cone: leaf {} has no image", v.0),
                Node::And(a, b) => {
                    if expanded {
                        let la = map[a.var().index()].unwrap().xor_sign(a.is_negated());
                        let lb = map[b.var().index()].unwrap().xor_sign(b.is_negated());
                        map[v.index()] = Some(dst.and(la, lb));
                    } else {
                        stack.push((v, true));
                        stack.push((a.var(), false));
                        stack.push((b.var(), false));
                    }
                }
            }
        }
        roots
            .iter()
            .map(|l| map[l.var().index()].unwrap().xor_sign(l.is_negated()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn and_simplifies_and_hashes() {
        let mut aig = Aig::new();
        let a = aig.new_leaf().lit();
        let b = aig.new_leaf().lit();
        assert_eq!(aig.and(a, Lit::FALSE), Lit::FALSE);
        assert_eq!(aig.and(a, Lit::TRUE), a);
        assert_eq!(aig.and(a, !a), Lit::FALSE);
        assert_eq!(aig.and(a, a), a);
        let g = aig.and(a, b);
        assert_eq!(aig.and(b, a), g);
        assert_eq!(aig.num_ands(), 1);
    }

    #[test]
    fn a_compacted_aig_still_hashes_its_old_gates_and_new_ones() {
        let mut aig = Aig::new();
        let a = aig.new_leaf().lit();
        let b = aig.new_leaf().lit();
        let g = aig.and(a, b);
        let h = aig.and(!g, a);
        aig.compact();
        assert_eq!((aig.num_ands(), aig.node(h.var())), (2, Node::And(!g, a)));
        assert_eq!(
            aig.and(b, a),
            g,
            "an old gate is found again after compacting"
        );
        assert_eq!(aig.and(a, !g), h);
        let k = aig.and(!a, b);
        assert_eq!(aig.and(b, !a), k, "a new gate is hashed");
        assert_eq!((aig.num_ands(), aig.num_vars()), (3, 6));
    }

    #[test]
    fn xor_and_mux_evaluate_correctly() {
        let mut aig = Aig::new();
        let a = aig.new_leaf().lit();
        let b = aig.new_leaf().lit();
        let c = aig.new_leaf().lit();
        let x = aig.xor(a, b);
        let m = aig.mux(c, a, b);
        for bits in 0..8u32 {
            let vals = [false, bits & 1 != 0, bits & 2 != 0, bits & 4 != 0];
            let leaf = |v: Var| vals[v.index()];
            let values = simulate_frame(&aig, leaf);
            let get = |l: Lit| values[l.var().index()] ^ l.is_negated();
            assert_eq!(get(x), vals[1] ^ vals[2]);
            assert_eq!(get(m), if vals[3] { vals[1] } else { vals[2] });
        }
    }

    #[test]
    fn copy_cone_preserves_function() {
        let mut src = Aig::new();
        let a = src.new_leaf().lit();
        let b = src.new_leaf().lit();
        let f = src.xor(a, !b);
        let mut dst = Aig::new();
        let x = dst.new_leaf().lit();
        let y = dst.new_leaf().lit();
        let mut map = vec![None; src.num_vars()];
        map[a.var().index()] = Some(x);
        map[b.var().index()] = Some(!y);
        let g = src.copy_cone(&mut dst, &mut map, &[f])[0];
        for bits in 0..4u32 {
            let vals = [false, bits & 1 != 0, bits & 2 != 0];
            let v = simulate_frame(&dst, |v: Var| vals[v.index()]);
            let get = |l: Lit| v[l.var().index()] ^ l.is_negated();
            // f(a, b) = a xor !b with a = x, b = !y  =>  x xor y
            assert_eq!(get(g), vals[1] ^ vals[2]);
        }
    }
}
