//! Work on small cones of a large, growing AIG in place: the leaves a cone reads and the
//! cone rebuilt with some leaves replaced. Both walk only the cone (hash maps, not tables
//! the size of the graph), because symbolic execution ([`crate::engine::cfa_cegar::symex`])
//! calls them at every step on a graph that grows by a few gates each time.

use std::collections::{HashMap, HashSet};

use super::{Aig, Lit, Node, Var};

impl Aig {
    /// Every variable in the cone of `roots` (leaves and gates), each once, in the order the
    /// walk meets them (deterministic: callers build gates in this order).
    fn cone_vars(&self, roots: impl IntoIterator<Item = Lit>) -> Vec<Var> {
        let mut seen = HashSet::new();
        let mut order = Vec::new();
        let mut stack: Vec<Var> = roots.into_iter().map(Lit::var).collect();
        while let Some(v) = stack.pop() {
            if seen.insert(v) {
                order.push(v);
                if let Node::And(a, b) = self.node(v) {
                    stack.extend([a.var(), b.var()]);
                }
            }
        }
        order
    }

    /// The leaves in the cone of `roots`, each once, in the order the walk meets them.
    pub fn leaves_of(&self, roots: impl IntoIterator<Item = Lit>) -> Vec<Var> {
        let mut leaves = self.cone_vars(roots);
        leaves.retain(|&v| self.node(v) == Node::Leaf);
        leaves
    }

    /// The number of AND gates in the cone of `roots`.
    pub fn cone_size(&self, roots: impl IntoIterator<Item = Lit>) -> usize {
        let vars = self.cone_vars(roots);
        vars.iter()
            .filter(|&&v| matches!(self.node(v), Node::And(..)))
            .count()
    }

    /// The cones of `roots` with every leaf `v` that `map` gives an image replaced by
    /// `map(v)` at once (a leaf may be replaced by another replaced leaf: the replacement is
    /// simultaneous), built in this graph; the other leaves stay.
    pub fn substitute(&mut self, map: impl Fn(Var) -> Option<Lit>, roots: &[Lit]) -> Vec<Lit> {
        let mut image: HashMap<Var, Lit> = HashMap::new();
        let mut stack: Vec<(Var, bool)> = roots.iter().map(|l| (l.var(), false)).collect();
        while let Some((v, expanded)) = stack.pop() {
            if image.contains_key(&v) {
                continue;
            }
            match self.node(v) {
                Node::False => {
                    image.insert(v, Lit::FALSE);
                }
                Node::Leaf => {
                    image.insert(v, map(v).unwrap_or(v.lit()));
                }
                Node::And(a, b) if expanded => {
                    let la = image[&a.var()].xor_sign(a.is_negated());
                    let lb = image[&b.var()].xor_sign(b.is_negated());
                    let g = self.and(la, lb);
                    image.insert(v, g);
                }
                Node::And(a, b) => {
                    stack.push((v, true));
                    stack.push((a.var(), false));
                    stack.push((b.var(), false));
                }
            }
        }
        (roots.iter())
            .map(|l| image[&l.var()].xor_sign(l.is_negated()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aig::simulate_frame;

    #[test]
    fn substitution_is_simultaneous_and_keeps_the_function() {
        let mut aig = Aig::new();
        let (a, b, c) = (aig.new_leaf(), aig.new_leaf(), aig.new_leaf());
        // f = (a AND NOT b) XOR c, then a and b swapped and c made TRUE at once.
        let g = aig.and(a.lit(), !b.lit());
        let f = aig.xor(g, c.lit());
        assert_eq!(
            {
                let mut l = aig.leaves_of([f]);
                l.sort();
                l
            },
            vec![a, b, c]
        );
        let map = HashMap::from([(a, b.lit()), (b, a.lit()), (c, Lit::TRUE)]);
        let h = aig.substitute(|v| map.get(&v).copied(), &[f, !a.lit()]);
        assert_eq!(h[1], !b.lit());
        for bits in 0..8u32 {
            let vals = [false, bits & 1 != 0, bits & 2 != 0, bits & 4 != 0];
            let v = simulate_frame(&aig, |x: Var| vals[x.index()]);
            let get = |l: Lit| v[l.var().index()] ^ l.is_negated();
            assert_eq!(get(h[0]), !vals[2] || vals[1], "bits {bits:03b}");
        }
    }
}
