//! The lazy encoding against the exact semantics: random models around one memory of 2^13
//! elements (encoded lazily) whose addresses come from a few small values, so that reads
//! meet writes and each other often. Each model is checked to a small depth twice: by Z3 on
//! the words (arrays exact, [`SmtBmc`]) and by BMC on the blasted abstraction. The abstraction
//! over-approximates, so it must find every counterexample Z3 finds, at the same depth or
//! sooner; and a counterexample of the abstraction that lifts to the model and replays there
//! is real, so Z3 must find one of that depth.

use super::*;
use crate::engine::bmc::Bmc;
use crate::engine::smt::{Outcome, SmtBmc};
use crate::engine::{Engine, Verdict};
use crate::testing::Rng;
use crate::wl::{replay, Binary, BitVec};

const INDEX: u32 = 13;
const ELEMENT: u32 = 3;
const DEPTH: usize = 5;

/// A model builder drawing from `rng`.
struct Draw<'r> {
    m: Model,
    rng: &'r mut Rng,
}

impl Draw<'_> {
    fn op(&mut self, op: Op, args: &[TermId]) -> TermId {
        self.m.apply(op, args).expect("sort-checked")
    }

    fn constant(&mut self, w: u32) -> TermId {
        let v = self.rng.below(1 << w) as u64;
        self.m.constant_term(BitVec::from_u64(w, v))
    }

    /// A word of width `w` that changes from frame to frame (an input) or stays (a frozen
    /// state, chosen at frame 0), or a constant.
    fn word(&mut self, w: u32) -> TermId {
        match self.rng.below(3) {
            0 => self.m.add_input(Sort::Bv(w), None),
            1 => {
                let s = self.m.add_state(Sort::Bv(w), None);
                let t = self.m.states()[s].term;
                self.m.set_next(s, t).expect("same sort");
                t
            }
            _ => self.constant(w),
        }
    }

    /// An address: a 3-bit word zero-extended to the index width (eight addresses in all,
    /// more than the free slots hold).
    fn address(&mut self) -> TermId {
        let small = self.word(3);
        self.op(
            Op::Extend {
                signed: false,
                by: INDEX - 3,
            },
            &[small],
        )
    }

    /// A comparison of `a` with one of `others` or a constant.
    fn compare(&mut self, a: TermId, others: &[TermId]) -> TermId {
        let n = self.rng.below(others.len() + 1);
        let b = match others.get(n) {
            Some(&o) => o,
            None => self.constant(ELEMENT),
        };
        let cmp = [Binary::Eq, Binary::Neq, Binary::Ult][self.rng.below(3)];
        self.op(Op::Binary(cmp), &[a, b])
    }

    /// One of `a`, `b` by a fresh condition.
    fn choose(&mut self, a: TermId, b: TermId) -> TermId {
        let c = self.word(1);
        self.op(Op::Ite, &[c, a, b])
    }
}

/// A memory written at one or two drawn addresses (under drawn conditions) and read at two,
/// a register that keeps what the first read returned, and a bad state comparing reads,
/// registers and constants.
fn random_model(rng: &mut Rng) -> Model {
    let mut d = Draw {
        m: Model::new(),
        rng,
    };
    let sort = Sort::Array {
        index: INDEX,
        element: ELEMENT,
    };
    assert!(is_lazy(sort));
    let mem = d.m.add_state(sort, Some("mem".into()));
    let now = d.m.states()[mem].term;
    // Constant-initialised, so that Z3's counterexamples need no memory contents (the
    // uninitialised memories are `tests/lazy_arrays.rs`'s).
    let zero = d.constant(ELEMENT);
    let init = d.m.const_array(sort, zero).expect("an array sort");
    d.m.set_init(mem, init).expect("same sort");
    let mut next = now;
    for _ in 0..1 + d.rng.below(3) {
        let (at, value) = (d.address(), d.word(ELEMENT));
        let written = d.op(Op::Write, &[next, at, value]);
        next = d.choose(written, next);
    }
    d.m.set_next(mem, next).expect("same sort");
    let (first, second) = (d.address(), d.address());
    let r1 = d.op(Op::Read, &[now, first]);
    let read_from = if d.rng.below(3) == 0 { next } else { now };
    let r2 = d.op(Op::Read, &[read_from, second]);
    let kept = d.m.add_state(Sort::Bv(ELEMENT), Some("kept".into()));
    let kept_t = d.m.states()[kept].term;
    let zero = d.constant(ELEMENT);
    d.m.set_init(kept, zero).expect("same sort");
    let kept_next = d.choose(r1, kept_t);
    d.m.set_next(kept, kept_next).expect("same sort");
    let mut bad = d.compare(r2, &[kept_t, r1]);
    if d.rng.below(2) == 0 {
        let also = d.compare(r1, &[kept_t, r2]);
        bad = d.op(Op::Binary(Binary::And), &[bad, also]);
    }
    d.m.add_bad(bad, None).expect("one bit");
    d.m
}

#[test]
fn the_abstraction_finds_every_real_counterexample_and_its_replayed_ones_are_real() {
    let mut rng = Rng(0x1a2b_0fc0_de01);
    let (mut real, mut spurious, mut safe) = (0, 0, 0);
    for n in 0..120 {
        let model = random_model(&mut rng);
        let budget = Budget::new(None);
        let exact = match SmtBmc::new(Some(DEPTH)).check(&model, &budget) {
            Outcome::Unsafe(t) => Some(t.states.len() - 1),
            Outcome::Unknown { depth, note } => {
                assert_eq!((depth, note), (Some(DEPTH), None), "model {n}");
                None
            }
            Outcome::Safe { .. } => unreachable!("BMC proves nothing"),
        };
        // Without free slots half of the time: then every read of an address the model
        // computes goes through the caches (with them, the free slots can hold every address
        // a short run uses, and would hide a wrong cache).
        let free = [0, lazy::FREE_SLOTS][n % 2];
        let (ts, map) = blast_with(&model, &budget, free).expect("blasts");
        let found = match Bmc::new(Some(DEPTH)).check(&ts, &budget) {
            Verdict::Unsafe(t) => Some(t),
            Verdict::Unknown { depth } => {
                assert_eq!(depth, Some(DEPTH), "model {n}");
                None
            }
            Verdict::Safe(_) => unreachable!("BMC proves nothing"),
        };
        let abstract_depth = found.as_ref().map(|t| t.depth());
        if let Some(e) = exact {
            assert!(
                abstract_depth.is_some_and(|a| a <= e),
                "model {n}: Z3 finds a counterexample at depth {e}, the abstraction at {abstract_depth:?}"
            );
        }
        match found {
            None => safe += 1,
            Some(t) => match replay(&model, &lift_trace(&model, &map, &ts, &t)) {
                Ok(_) => {
                    assert_eq!(
                        exact,
                        Some(t.depth()),
                        "model {n}: a replayed trace Z3 misses"
                    );
                    real += 1;
                }
                Err(_) => spurious += 1,
            },
        }
    }
    // The draw must give each kind of outcome.
    assert!(
        real >= 10 && safe >= 10,
        "{real} real, {safe} safe, {spurious} spurious"
    );
}

/// A cache moves on with its read, so a write to the address it holds must dirty a clean
/// memory: a zero memory is read at `x` (frame 0), written 5 at `x` while it reads `y`
/// (frame 1, the cache holds `x`), and read at `x` again (frame 2, the cache holds `y`). The
/// third read is 5 (`x` and `y` differ by a constraint), so the bad state `read == 5` in
/// frame 2 is reachable; an abstraction that kept the memory clean would read the zero there.
#[test]
fn a_write_under_a_cache_that_moves_on_dirties_the_memory() {
    let mut m = Model::new();
    let sort = Sort::Array {
        index: INDEX,
        element: ELEMENT,
    };
    let word = |m: &mut Model, w: u32, v: u64| m.constant_term(BitVec::from_u64(w, v));
    let op = |m: &mut Model, op: Op, args: &[TermId]| m.apply(op, args).expect("sort-checked");
    let mem = m.add_state(sort, Some("mem".into()));
    let now = m.states()[mem].term;
    let zero = word(&mut m, ELEMENT, 0);
    let init = m.const_array(sort, zero).expect("an array sort");
    m.set_init(mem, init).expect("same sort");
    let phase = m.add_state(Sort::Bv(2), Some("phase".into()));
    let phase_t = m.states()[phase].term;
    let start = word(&mut m, 2, 0);
    m.set_init(phase, start).expect("same sort");
    let step = op(&mut m, Op::Unary(crate::wl::Unary::Inc), &[phase_t]);
    m.set_next(phase, step).expect("same sort");
    let [x, y] = ["x", "y"].map(|n| {
        let s = m.add_state(Sort::Bv(INDEX), Some(n.into()));
        let t = m.states()[s].term;
        m.set_next(s, t).expect("same sort");
        t
    });
    let apart = op(&mut m, Op::Binary(Binary::Neq), &[x, y]);
    m.add_constraint(apart).expect("one bit");
    let one = word(&mut m, 2, 1);
    let second = op(&mut m, Op::Binary(Binary::Eq), &[phase_t, one]);
    let at = op(&mut m, Op::Ite, &[second, y, x]);
    let read = op(&mut m, Op::Read, &[now, at]);
    let five = word(&mut m, ELEMENT, 5);
    let written = op(&mut m, Op::Write, &[now, x, five]);
    let next = op(&mut m, Op::Ite, &[second, written, now]);
    m.set_next(mem, next).expect("same sort");
    let two = word(&mut m, 2, 2);
    let third = op(&mut m, Op::Binary(Binary::Eq), &[phase_t, two]);
    let is_five = op(&mut m, Op::Binary(Binary::Eq), &[read, five]);
    let bad = op(&mut m, Op::Binary(Binary::And), &[third, is_five]);
    m.add_bad(bad, None).expect("one bit");
    let budget = Budget::new(None);
    let (ts, map) = blast_with(&m, &budget, 0).expect("blasts");
    let Verdict::Unsafe(t) = Bmc::new(Some(2)).check(&ts, &budget) else {
        panic!("the abstraction misses the run that reads the write");
    };
    assert_eq!(replay(&m, &lift_trace(&m, &map, &ts, &t)), Ok(2));
}
