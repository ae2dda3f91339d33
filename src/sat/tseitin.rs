//! The one Tseitin encoding of AIG gates into CNF, shared by the lazy unroller
//! ([`crate::unroll`], which every engine encodes through) and by whatever encodes a single
//! AIG cone over given solver literals (interpolant checks).

use rustc_hash::FxHashMap;

use super::{Lit, Solver};
use crate::aig::{self, Aig, Node};

/// Encodes AND gates into one solver, folding constants and repeated operands; owns the
/// solver's constant-false literal (made on first use).
#[derive(Default)]
pub struct Gates {
    false_lit: Option<Lit>,
    /// The two-input gates encoded so far, by their operands ([`Gates::hashing`]).
    known: Option<FxHashMap<(Lit, Lit), Lit>>,
}

impl Gates {
    /// Gates that encode each two-input AND of the same two solver literals once (structural
    /// hashing over solver literals, across whatever AIG nodes and time frames ask for it).
    /// For encodings that meet the same logic again on the same literals: the check of a
    /// k-induction certificate unrolls two frames of a window of `k` recorded steps, and the
    /// second frame's window is the first's shifted by one slot, so all but one of its steps
    /// are gates the first frame already encoded.
    pub fn hashing() -> Gates {
        Gates {
            false_lit: None,
            known: Some(FxHashMap::default()),
        }
    }

    /// The literal of `la AND lb`: a new gate, unless a constant or a repeated operand
    /// decides it (reset values make the first frames of BMC largely constant), or, when
    /// [`Gates::hashing`], the same gate was encoded before.
    pub fn and(&mut self, s: &mut impl Solver, la: Lit, lb: Lit) -> Lit {
        let f = self.false_lit(s);
        if la == f || lb == f || la == !lb {
            return f;
        }
        if la == !f || la == lb {
            return lb;
        }
        if lb == !f {
            return la;
        }
        let key = (la.min(lb), la.max(lb));
        if let Some(&g) = self.known.as_ref().and_then(|k| k.get(&key)) {
            return g;
        }
        let g = s.new_var().pos_lit();
        s.add_clause(&[!g, la]);
        s.add_clause(&[!g, lb]);
        s.add_clause(&[g, !la, !lb]);
        if let Some(known) = &mut self.known {
            known.insert(key, g);
        }
        g
    }

    /// The literal of the conjunction of `lits` (at least one): one variable and `n + 1`
    /// clauses for what a tree of two-input gates would give `n - 1` variables and
    /// `3 (n - 1)` clauses. Constants and repeated or complementary operands fold.
    pub fn and_all(&mut self, s: &mut impl Solver, lits: &mut Vec<Lit>) -> Lit {
        let f = self.false_lit(s);
        lits.retain(|&l| l != !f);
        lits.sort_unstable();
        lits.dedup();
        if lits.contains(&f) || lits.windows(2).any(|w| w[0] == !w[1]) {
            return f;
        }
        match lits[..] {
            [] => !f,
            [l] => l,
            [a, b] => self.and(s, a, b),
            _ => {
                let g = s.new_var().pos_lit();
                for &l in lits.iter() {
                    s.add_clause(&[!g, l]);
                }
                lits.iter_mut().for_each(|l| *l = !*l);
                lits.push(g);
                s.add_clause(lits);
                g
            }
        }
    }

    /// The literal of `c ? t : e`: one variable and four clauses (six unless `t = !e`, the
    /// two redundant ones help propagation) for what three two-input gates would give three
    /// variables and nine clauses. A constant operand reduces it to one gate.
    pub fn ite(&mut self, s: &mut impl Solver, c: Lit, t: Lit, e: Lit) -> Lit {
        let f = self.false_lit(s);
        if c == f {
            return e;
        }
        if c == !f || t == e {
            return t;
        }
        if t == f || t == !c {
            return self.and(s, !c, e);
        }
        if e == f || e == c {
            return self.and(s, c, t);
        }
        if t == !f || t == c {
            return !self.and(s, !c, !e);
        }
        if e == !f || e == !c {
            return !self.and(s, c, !t);
        }
        let g = s.new_var().pos_lit();
        s.add_clause(&[!c, !t, g]);
        s.add_clause(&[!c, t, !g]);
        s.add_clause(&[c, !e, g]);
        s.add_clause(&[c, e, !g]);
        if t != !e {
            s.add_clause(&[!t, !e, g]);
            s.add_clause(&[t, e, !g]);
        }
        g
    }

    /// A literal fixed to false by a unit clause.
    pub fn false_lit(&mut self, s: &mut impl Solver) -> Lit {
        *self.false_lit.get_or_insert_with(|| {
            let f = s.new_var().pos_lit();
            s.add_clause(&[!f]);
            f
        })
    }
}

/// Encodes the cone of `root` in `aig`, each leaf `v` standing for `leaf(v)`; the literal of
/// `root`.
pub fn encode_cone(
    s: &mut impl Solver,
    aig: &Aig,
    root: aig::Lit,
    mut leaf: impl FnMut(aig::Var) -> Lit,
) -> Lit {
    let mut gates = Gates::default();
    let mut map: Vec<Option<Lit>> = vec![None; aig.num_vars()];
    let lit = |map: &[Option<Lit>], l: aig::Lit| {
        let x = map[l.var().index()].expect("operands come first in variable order");
        if l.is_negated() {
            !x
        } else {
            x
        }
    };
    for (i, in_cone) in aig.cone([root]).into_iter().enumerate() {
        if in_cone {
            let v = aig::Var(i as u32);
            map[i] = Some(match aig.node(v) {
                Node::False => gates.false_lit(s),
                Node::Leaf => leaf(v),
                Node::And(a, b) => gates.and(s, lit(&map, a), lit(&map, b)),
            });
        }
    }
    lit(&map, root)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sat::{Cadical, SatResult};
    use crate::Budget;

    #[test]
    fn an_encoded_cone_has_the_aig_s_models() {
        // x XOR y as an AIG: the encoding is satisfiable exactly where x != y.
        let mut aig = Aig::new();
        let (x, y) = (aig.new_leaf().lit(), aig.new_leaf().lit());
        let both = aig.and(x, y);
        let neither = aig.and(!x, !y);
        let xor = aig.and(!both, !neither);
        let budget = Budget::new(None);
        for (vx, vy) in [(false, false), (false, true), (true, false), (true, true)] {
            let mut s = Cadical::for_small_queries(&budget);
            let (sx, sy) = (s.new_var().pos_lit(), s.new_var().pos_lit());
            let root = encode_cone(&mut s, &aig, xor, |v| if v == x.var() { sx } else { sy });
            let fix = |l: Lit, b: bool| if b { l } else { !l };
            let expect = if vx != vy {
                SatResult::Sat
            } else {
                SatResult::Unsat
            };
            assert_eq!(s.solve(&[fix(sx, vx), fix(sy, vy), root]), expect);
        }
    }

    /// A hashing encoder gives the same gate the same literal, whichever order its operands
    /// come in, and a different gate a different one; a plain encoder makes each anew.
    #[test]
    fn a_hashing_encoder_encodes_each_gate_once() {
        let budget = Budget::new(None);
        let mut s = Cadical::for_small_queries(&budget);
        let (a, b, c) = (
            s.new_var().pos_lit(),
            s.new_var().pos_lit(),
            s.new_var().pos_lit(),
        );
        let mut hashing = Gates::hashing();
        let ab = hashing.and(&mut s, a, b);
        assert_eq!(hashing.and(&mut s, b, a), ab);
        assert_ne!(hashing.and(&mut s, a, !b), ab);
        assert_ne!(hashing.and(&mut s, a, c), ab);
        let mut plain = Gates::default();
        let first = plain.and(&mut s, a, b);
        assert_ne!(plain.and(&mut s, a, b), first);
        // The shared literal is the gate: it is true exactly when both operands are.
        assert_eq!(s.solve(&[ab, !a]), SatResult::Unsat);
        assert_eq!(s.solve(&[!ab, a, b]), SatResult::Unsat);
        assert_eq!(s.solve(&[ab]), SatResult::Sat);
    }
}
