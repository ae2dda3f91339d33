//! Combinational evaluation of an [`Aig`] in variable (= topological) order.

use super::{Aig, Node, Var};

/// Values of every variable of `aig`, given the value of each leaf.
pub fn simulate_frame(aig: &Aig, mut leaf: impl FnMut(Var) -> bool) -> Vec<bool> {
    let mut val = vec![false; aig.num_vars()];
    for i in 1..aig.num_vars() {
        let v = Var(i as u32);
        val[i] = match aig.node(v) {
            Node::False => false,
            Node::Leaf => leaf(v),
            Node::And(a, b) => {
                (val[a.var().index()] ^ a.is_negated()) && (val[b.var().index()] ^ b.is_negated())
            }
        };
    }
    val
}
