//! Substitution of terms for terms in the CFA's term store (how edges are composed).

use rustc_hash::FxHashMap;

use crate::wl::{Model, Op, TermId};

/// `t` with every term in `map` replaced by its image, rebuilt bottom-up through
/// [`Model::apply`] (so the result is hash-consed and simplified). `memo` caches rebuilt terms
/// across calls with the same `map`.
pub(crate) fn substitute(
    model: &mut Model,
    t: TermId,
    map: &FxHashMap<TermId, TermId>,
    memo: &mut FxHashMap<TermId, TermId>,
) -> TermId {
    if let Some(&r) = map.get(&t).or_else(|| memo.get(&t)) {
        return r;
    }
    // Iterative post-order: terms can be deep (long straight-line blocks).
    let mut stack = vec![(t, false)];
    while let Some((u, expanded)) = stack.pop() {
        if map.contains_key(&u) || memo.contains_key(&u) {
            continue;
        }
        let term = model.term(u).clone();
        if !expanded {
            stack.push((u, true));
            stack.extend(term.args.iter().map(|&a| (a, false)));
            continue;
        }
        let args: Vec<TermId> = term
            .args
            .iter()
            .map(|a| {
                *map.get(a)
                    .or_else(|| memo.get(a))
                    .expect("argument rebuilt first")
            })
            .collect();
        let rebuilt = if args == term.args {
            u
        } else if term.op == Op::ConstArray {
            model
                .const_array(term.sort, args[0])
                .expect("same sorts as the original term")
        } else {
            model
                .apply(term.op.clone(), &args)
                .expect("same sorts as the original term")
        };
        memo.insert(u, rebuilt);
    }
    memo[&t]
}
