//! Quantifying away the identifiers no variable bit holds after a symbolic post.
//!
//! The values and constraints that read such *orphans* are grouped by the orphans they
//! share, and each group is replaced by the disjunction, over every assignment of its
//! orphans, of its values' equations and its constraints: exact existential quantification
//! (the group's value bits become free, the disjunction relates them). A group with more
//! than [`JOINT`] orphans, or too large to copy that often, gives up the item that reads
//! the most orphans (a value becomes free, a constraint is dropped) and the rest is grouped
//! again. Giving up loses precision, never soundness (the state only grows; seed 002 allows
//! the transfer to top).

use std::collections::HashMap;

use crate::aig::{self, Aig};

/// At most this many orphans are quantified jointly (2^n copies of the group): the bits of
/// a `char`.
const JOINT: usize = 8;

/// At most this many gates copied by one group's quantification.
const COPIED: usize = 1 << 18;

/// A value or constraint that reads orphans (old names).
pub(super) struct Entangled {
    /// The variable bit (new name) whose value `expr` is; none for a constraint.
    pub bit: Option<aig::Lit>,
    pub expr: aig::Lit,
    /// The orphans `expr` reads.
    pub orphans: Vec<aig::Var>,
}

/// What the posts lost to quantification.
#[derive(Default)]
pub(super) struct Losses {
    /// Values made free and constraints dropped.
    pub given_up: u64,
    /// Values and constraints quantified exactly.
    pub cofactored: u64,
}

/// The constraints (new names) that replace `items`, the other identifiers renamed by
/// `rename`; the bits of the items' values are left free by the caller.
pub(super) fn quantify(
    aig: &mut Aig,
    rename: &HashMap<aig::Var, aig::Lit>,
    items: Vec<Entangled>,
    losses: &mut Losses,
) -> Vec<aig::Lit> {
    let mut out = Vec::new();
    let mut work = groups(&items, (0..items.len()).collect());
    while let Some(group) = work.pop() {
        let mut orphans: Vec<aig::Var> = (group.iter())
            .flat_map(|&i| items[i].orphans.iter().copied())
            .collect();
        orphans.sort();
        orphans.dedup();
        let roots = group.iter().map(|&i| items[i].expr);
        if orphans.len() <= JOINT && (aig.cone_size(roots) << orphans.len()) <= COPIED {
            let members: Vec<&Entangled> = group.iter().map(|&i| &items[i]).collect();
            out.push(projection(aig, rename, &orphans, &members));
            losses.cofactored += group.len() as u64;
            continue;
        }
        let worst = (group.iter().copied())
            .max_by_key(|&i| items[i].orphans.len())
            .expect("a group has members");
        losses.given_up += 1;
        let rest = group.into_iter().filter(|&i| i != worst).collect();
        work.extend(groups(&items, rest));
    }
    out
}

/// The items `subset` grouped by shared orphans (union-find).
fn groups(items: &[Entangled], subset: Vec<usize>) -> Vec<Vec<usize>> {
    let mut parent: HashMap<usize, usize> = subset.iter().map(|&i| (i, i)).collect();
    fn root(parent: &mut HashMap<usize, usize>, mut i: usize) -> usize {
        while parent[&i] != i {
            let up = parent[&parent[&i]];
            parent.insert(i, up);
            i = up;
        }
        i
    }
    let mut owner: HashMap<aig::Var, usize> = HashMap::new();
    for &i in &subset {
        for &o in &items[i].orphans {
            let j = *owner.entry(o).or_insert(i);
            let (a, b) = (root(&mut parent, i), root(&mut parent, j));
            parent.insert(a, b);
        }
    }
    let mut by_root: HashMap<usize, Vec<usize>> = HashMap::new();
    for &i in &subset {
        by_root.entry(root(&mut parent, i)).or_default().push(i);
    }
    let mut out: Vec<Vec<usize>> = by_root.into_values().collect();
    out.sort();
    out
}

/// `exists orphans. AND(items)`, renamed: the disjunction over every assignment of
/// `orphans` of the items' equations (a value bit equal to its value) and constraints.
fn projection(
    aig: &mut Aig,
    rename: &HashMap<aig::Var, aig::Lit>,
    orphans: &[aig::Var],
    items: &[&Entangled],
) -> aig::Lit {
    let roots: Vec<aig::Lit> = items.iter().map(|m| m.expr).collect();
    let mut cases = Vec::with_capacity(1 << orphans.len());
    for a in 0..1u32 << orphans.len() {
        let value = |v: aig::Var| {
            let i = orphans.iter().position(|&o| o == v)?;
            Some(aig::Lit::FALSE.xor_sign((a >> i) & 1 == 1))
        };
        let images = aig.substitute(|v| value(v).or_else(|| rename.get(&v).copied()), &roots);
        let parts: Vec<aig::Lit> = (items.iter().zip(images))
            .map(|(m, e)| m.bit.map_or(e, |bit| !aig.xor(bit, e)))
            .collect();
        cases.push(aig.and_all(parts));
    }
    aig.or_all(cases)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aig::simulate_frame;

    /// Two orphans `a`, `b`, one identifier `c` renamed to the new bit `y`, and a new bit
    /// `x` whose value reads `a`: the projection is exactly `exists a, b.` of the items.
    #[test]
    fn a_group_is_quantified_exactly() {
        let mut aig = Aig::new();
        let [a, b, c, x, y] = [(); 5].map(|_| aig.new_leaf());
        let value = aig.xor(a.lit(), c.lit());
        let ab = aig.and(a.lit(), b.lit());
        let constraint = aig.or(ab, !c.lit());
        let rename = HashMap::from([(c, y.lit())]);
        let items = vec![
            Entangled {
                bit: Some(x.lit()),
                expr: value,
                orphans: vec![a],
            },
            Entangled {
                bit: None,
                expr: constraint,
                orphans: vec![a, b],
            },
        ];
        let mut losses = Losses::default();
        let out = quantify(&mut aig, &rename, items, &mut losses);
        assert_eq!((out.len(), losses.cofactored, losses.given_up), (1, 2, 0));
        for bits in 0..4u32 {
            let (vx, vy) = (bits & 1 == 1, bits & 2 == 2);
            let values = simulate_frame(&aig, |v| match v {
                v if v == x => vx,
                v if v == y => vy,
                _ => false,
            });
            let got = values[out[0].var().index()] ^ out[0].is_negated();
            // x = a XOR y and (a AND b or NOT y), for some a and b.
            let expect = [false, true].iter().any(|&va| {
                [false, true]
                    .iter()
                    .any(|&vb| vx == (va ^ vy) && ((va && vb) || !vy))
            });
            assert_eq!(got, expect, "x={vx} y={vy}");
        }
    }

    /// A group over more than [`JOINT`] orphans gives up its widest item and quantifies
    /// the rest.
    #[test]
    fn a_group_too_wide_gives_up_its_widest_item() {
        let mut aig = Aig::new();
        let wide: Vec<aig::Var> = (0..JOINT + 1).map(|_| aig.new_leaf()).collect();
        let x = aig.new_leaf();
        let all = aig.and_all(wide.iter().map(|v| v.lit()));
        let items = vec![
            Entangled {
                bit: None,
                expr: all,
                orphans: wide.clone(),
            },
            Entangled {
                bit: Some(x.lit()),
                expr: wide[0].lit(),
                orphans: vec![wide[0]],
            },
        ];
        let mut losses = Losses::default();
        let out = quantify(&mut aig, &HashMap::new(), items, &mut losses);
        // The second item alone: exists w. x = w, which is true.
        assert_eq!((losses.given_up, losses.cofactored), (1, 1));
        assert_eq!(out, vec![aig::Lit::TRUE]);
    }
}
