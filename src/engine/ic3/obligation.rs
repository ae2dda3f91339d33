//! Proof obligations: cubes that must be blocked in a frame, and the counterexample a chain
//! of them becomes when one reaches the initial states.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::cube::Cube;
use super::options::PoOrder;
use crate::aig::Lit;
use crate::ts::{simulate, Trace, TransitionSystem};

/// "Exclude `cube` from F_frame."
pub(super) struct Obligation {
    pub(super) frame: usize,
    /// Steps from this cube to a bad state.
    pub(super) depth: usize,
    pub(super) cube: Cube,
    /// Inputs that take every state of `cube` into the successor's cube (or, for the last
    /// obligation of a chain, make a bad literal true), the constraints holding.
    pub(super) inputs: Vec<bool>,
    pub(super) successor: Option<usize>,
    /// Not needed to finish the round: it was blocked in its frame and queued again higher
    /// up, or it is a predecessor of such an obligation.
    pub(super) optional: bool,
    /// How often a predecessor kept it from being blocked.
    pub(super) fails: u32,
    /// Blocking attempts, each worth 1, decayed by 0.6 per frame it moved up (`--ic3-po-act`).
    pub(super) act: f64,
}

/// The factor an obligation's activity is multiplied by per frame it moves up (rIC3's).
const ACT_DECAY: f64 = 0.6;

/// The obligations of one round, lowest frame first, then by [`PoOrder`]: the closest to a
/// bad state, the farthest from it, or the one queued last (ties: the oldest first).
pub(super) struct Obligations {
    all: Vec<Obligation>,
    /// (frame, tie-break, id), smallest first.
    queue: BinaryHeap<Reverse<(usize, usize, usize)>>,
    order: PoOrder,
    /// Queueings so far: `newest` breaks ties by `usize::MAX` minus this.
    queued: usize,
}

impl Obligations {
    pub(super) fn new(order: PoOrder) -> Obligations {
        Obligations {
            all: Vec::new(),
            queue: BinaryHeap::new(),
            order,
            queued: 0,
        }
    }

    pub(super) fn push(&mut self, ob: Obligation) {
        let id = self.all.len();
        let (frame, depth) = (ob.frame, ob.depth);
        self.all.push(ob);
        self.enqueue(frame, depth, id);
    }

    fn enqueue(&mut self, frame: usize, depth: usize, id: usize) {
        self.queued += 1;
        let tie = match self.order {
            PoOrder::Depth => depth,
            PoOrder::Deepest => usize::MAX - depth,
            PoOrder::Newest => usize::MAX - self.queued,
        };
        self.queue.push(Reverse((frame, tie, id)));
    }

    pub(super) fn pop(&mut self) -> Option<usize> {
        self.queue.pop().map(|Reverse((_, _, id))| id)
    }

    /// Queues obligation `id` again, now for `frame`; above its old frame it is optional.
    pub(super) fn requeue(&mut self, id: usize, frame: usize) {
        let ob = &mut self.all[id];
        ob.optional |= frame > ob.frame;
        for _ in ob.frame..frame {
            ob.act *= ACT_DECAY;
        }
        ob.frame = frame;
        let depth = ob.depth;
        self.enqueue(frame, depth, id);
    }

    pub(super) fn get(&self, id: usize) -> &Obligation {
        &self.all[id]
    }

    pub(super) fn get_mut(&mut self, id: usize) -> &mut Obligation {
        &mut self.all[id]
    }

    pub(super) fn clear(&mut self) {
        self.all.clear();
        self.queue.clear();
    }

    /// The counterexample that starts in an initial state of `start` (a cube that meets the
    /// initial states) and follows `inputs`, then obligation `next` and its successors.
    pub(super) fn trace(
        &self,
        ts: &TransitionSystem,
        start: &[Lit],
        inputs: Vec<bool>,
        mut next: Option<usize>,
    ) -> Trace {
        let mut frames = vec![inputs];
        while let Some(id) = next {
            frames.push(self.all[id].inputs.clone());
            next = self.all[id].successor;
        }
        let mut value = vec![None; ts.aig.num_vars()];
        for l in start {
            value[l.var().index()] = Some(!l.is_negated());
        }
        let init = (ts.latches.iter())
            .map(|l| value[l.var.index()].or(l.init).unwrap_or(false))
            .collect();
        let mut trace = Trace {
            init,
            inputs: frames,
            bad: 0,
        };
        if let Some(last) = simulate(ts, &trace).last() {
            trace.bad = ts.bad.iter().position(|&b| last.lit(b)).unwrap_or(0);
        }
        trace
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ob(frame: usize, depth: usize) -> Obligation {
        Obligation {
            frame,
            depth,
            cube: Vec::new(),
            inputs: Vec::new(),
            successor: None,
            optional: false,
            fails: 0,
            act: 0.0,
        }
    }

    /// Pops every obligation, as (frame, depth).
    fn drain(order: PoOrder, queued: &[(usize, usize)]) -> Vec<(usize, usize)> {
        let mut obs = Obligations::new(order);
        for &(frame, depth) in queued {
            obs.push(ob(frame, depth));
        }
        std::iter::from_fn(|| obs.pop().map(|id| (obs.get(id).frame, obs.get(id).depth))).collect()
    }

    #[test]
    fn the_lowest_frame_comes_first_then_the_order_decides() {
        let queued = [(2, 0), (1, 3), (1, 1), (1, 2), (3, 0)];
        let by_depth = drain(PoOrder::Depth, &queued);
        assert_eq!(by_depth, [(1, 1), (1, 2), (1, 3), (2, 0), (3, 0)]);
        let deepest = drain(PoOrder::Deepest, &queued);
        assert_eq!(deepest, [(1, 3), (1, 2), (1, 1), (2, 0), (3, 0)]);
        let newest = drain(PoOrder::Newest, &queued);
        assert_eq!(newest, [(1, 2), (1, 1), (1, 3), (2, 0), (3, 0)]);
    }

    #[test]
    fn a_requeued_obligation_is_the_newest_of_its_frame() {
        let mut obs = Obligations::new(PoOrder::Newest);
        obs.push(ob(2, 0));
        obs.push(ob(1, 1));
        obs.push(ob(2, 5));
        let first = obs.pop().unwrap();
        assert_eq!(obs.get(first).frame, 1);
        obs.requeue(first, 2);
        assert_eq!(obs.pop(), Some(first));
        assert!(obs.get(first).optional);
    }
}
