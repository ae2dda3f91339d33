//! Constant and equal states, as the greatest fixpoint of a partition refinement: start from
//! "every state with the constant initial value `c` is `c`", copy the next functions with
//! that substitution, and split each class by the copied next functions until no class
//! splits. At the fixpoint the classes hold in every reachable frame (by induction: they hold
//! in frame 0 by their initial constants, and equal next functions under the substitution
//! keep them), so reads may be replaced by the class's constant or first state.

use std::collections::HashMap;

use super::{copy, declarations, Rep, Rewriter, Stats};
use crate::wl::{Model, Sort, TermId};

/// Rounds of refinement before giving up (each round copies every next function; a class
/// that still splits after this many rounds leaves every state as it is).
const MAX_ROUNDS: usize = 64;

/// What the reads of each state become: `Rep::Itself` for states not proved constant or
/// equal to an earlier state.
pub(super) fn classes(model: &Model, stats: &mut Stats) -> Vec<Rep> {
    let n = model.states().len();
    // Candidates: bit-vector states with a next function and a constant initial value.
    let mut class: Vec<Option<TermId>> = model
        .states()
        .iter()
        .map(|s| {
            let init = s.init.filter(|&i| model.constant(i).is_some())?;
            (matches!(s.sort, Sort::Bv(_)) && s.next.is_some()).then_some(init)
        })
        .collect();
    // Class keys are term ids of `model` (the initial constants) at first, then of the round's
    // copy; every class's representative is its constant or its first state.
    let mut reps: Vec<Rep> = (0..n)
        .map(|s| match class[s] {
            Some(init) => Rep::Const(model.constant(init).expect("constant init").clone()),
            None => Rep::Itself,
        })
        .collect();
    let mut scratch = Stats::default();
    for _ in 0..MAX_ROUNDS {
        let mut copied = declarations(model);
        let mut rw = Rewriter {
            stats: &mut scratch,
            narrow: false,
        };
        let mut map = vec![None; model.num_terms()];
        let nexts = (0..n).filter(|&s| class[s].is_some());
        let nexts: Vec<TermId> = nexts.filter_map(|s| model.states()[s].next).collect();
        copy(model, &mut copied, &reps, &mut map, nexts, &mut rw);
        // The new class of a state: its old class and its copied next function, or nothing
        // when a constant class's member no longer stays at the constant.
        let mut groups: HashMap<(TermId, TermId), usize> = HashMap::new();
        let mut new_reps = reps.clone();
        let mut new_class = class.clone();
        for s in 0..n {
            let (Some(key), Some(next)) = (class[s], model.states()[s].next) else {
                continue;
            };
            let next = map[next.index()].expect("copied");
            let stays = match &reps[s] {
                Rep::Const(c) => copied.constant(next) == Some(c),
                _ => false,
            };
            if stays {
                continue;
            }
            let first = *groups.entry((key, next)).or_insert(s);
            // Keys of later rounds: the copied next function of the group's first state,
            // tagged apart from constants by pairing with the first state's own term.
            new_class[s] = Some(model.states()[first].term);
            new_reps[s] = if first == s {
                Rep::Itself
            } else {
                Rep::State(first)
            };
        }
        // A class splits only if some state changed representative.
        if new_reps == reps {
            let constants = reps.iter().filter(|r| matches!(r, Rep::Const(_))).count();
            let merged = reps.iter().filter(|r| matches!(r, Rep::State(_))).count();
            stats.add("constant_states", constants);
            stats.add("merged_states", merged);
            return reps;
        }
        reps = new_reps;
        class = new_class;
    }
    stats.bump("state_classes_gave_up");
    vec![Rep::Itself; n]
}
