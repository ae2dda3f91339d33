//! Word-level bounded model checking on an SMT solver (Z3): the model's bit-vectors and
//! arrays go to the solver as they are, unrolled frame by frame, so a memory costs what its
//! reads and writes cost, not what its elements do, and Z3's word-level rewriting runs before
//! any bit-blasting.
//!
//! [`SmtBmc`] checks a [`Model`], not a [`crate::ts::TransitionSystem`]: its counterexample
//! is a word-level [`Trace`]. [`WordWorker`] makes it an [`super::Engine`] of the system
//! blasted from the model, bringing that trace down to it ([`crate::wl::Lowering`]) to be
//! checked and printed like any other engine's.
//!
//! With `--smt-induction` it is k-induction on the words: after the base case of depth `k`
//! (the BMC query), the step case asks whether `k + 1` good frames from any state, under
//! the constraints, can reach a bad one, with the arrays still arrays. A proof at depth `k`
//! has no invariant over words that a checker reads, so the worker builds k-induction's
//! certificate, the k-copy invariant ([`crate::engine::kind::k_copy`]), on the bit-level
//! system and checks it there before answering; a proof whose certificate fails (a blasted
//! system that is not k-inductive where the words are: lazy arrays) is `unknown`.

mod encode;
#[cfg(test)]
mod tests;
mod worker;

pub use worker::{WordContext, WordWorker, Words};

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use z3::ast::{Ast, Bool, Dynamic, BV};
use z3::{Config, Context, FuncDecl, Params, SatResult, Solver};

use super::Stats;
use crate::wl::{ArrayValue, BitVec, Model, Sort, TermId, Trace, Value};
use crate::Budget;
use encode::{sort, truth, Encoder};

/// How often the budget is looked at while Z3 solves (a stop interrupts the solver).
const POLL: Duration = Duration::from_millis(10);

/// The widest array index whose counterexample values are read element by element; the
/// blasted system expands such arrays too (wider ones are encoded lazily there, and this
/// engine's traces of those cannot be lowered to it).
const MAX_ENUMERATED_INDEX: u32 = 12;

/// The configuration of the SMT engine (`--engine smt`).
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, clap::Args)]
#[command(next_help_heading = "Tuning: SMT (--engine smt)")]
pub struct SmtOptions {
    /// k-induction on the words: a step case after each base case, so that the engine can
    /// prove safety as well (its proof is checked as the bit-level k-induction's).
    #[arg(long = "smt-induction")]
    pub induction: bool,
}

/// The answer of the SMT BMC engine.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// A bad state is reachable: the word-level trace reaches it.
    Unsafe(Trace),
    /// No bad state is reachable: no counterexample of `k - 1` transitions or fewer, and
    /// `k` good frames (under the constraints) are never followed by a bad one.
    Safe { k: usize },
    /// No counterexample of `depth` transitions or fewer (`None`: not even frame 0 checked),
    /// with why the search stopped when it was not the budget or the depth bound.
    Unknown {
        depth: Option<usize>,
        note: Option<String>,
    },
}

/// `work` on `ctx`, with Z3 interrupted (within [`POLL`]) once `budget` stops.
pub fn interruptible<T>(ctx: &Context, budget: &Budget, work: impl FnOnce() -> T) -> T {
    let finished = AtomicBool::new(false);
    let handle = ctx.handle();
    std::thread::scope(|s| {
        s.spawn(|| {
            while !finished.load(Ordering::SeqCst) {
                if budget.expired() {
                    handle.interrupt();
                }
                std::thread::sleep(POLL);
            }
        });
        let outcome = work();
        finished.store(true, Ordering::SeqCst);
        outcome
    })
}

/// Bounded model checking of a word-level model on Z3.
pub struct SmtBmc {
    max_depth: Option<usize>,
    /// Whether a step case follows each base case (k-induction).
    induction: bool,
    /// Time (translating and solving) after which the search gives up; each query is
    /// limited to what is left.
    solve_limit: Option<Duration>,
    queries: u64,
    depth: u64,
    solve_ms: u64,
    /// Time spent translating frames into Z3 terms.
    encode_ms: u64,
}

impl SmtBmc {
    /// Checks up to `max_depth` transitions (without bound when `None`).
    pub fn new(max_depth: Option<usize>) -> SmtBmc {
        SmtBmc {
            max_depth,
            induction: false,
            solve_limit: None,
            queries: 0,
            depth: 0,
            solve_ms: 0,
            encode_ms: 0,
        }
    }

    /// Gives up once translating frames and solving took `limit` in all (`None`: no limit).
    pub fn with_solve_limit(mut self, limit: Option<Duration>) -> SmtBmc {
        self.solve_limit = limit;
        self
    }

    /// Adds the step case after each base case (`opts.induction`).
    pub fn with_options(mut self, opts: SmtOptions) -> SmtBmc {
        self.induction = opts.induction;
        self
    }

    pub fn stats(&self) -> Stats {
        vec![
            ("smt_queries", self.queries),
            ("smt_depth", self.depth),
            ("smt_solve_ms", self.solve_ms),
            ("smt_encode_ms", self.encode_ms),
        ]
    }

    /// Searches for a counterexample of every bad property of `model`, deeper and deeper,
    /// until one is found, `max_depth` is passed or `budget` stops it (Z3 is interrupted
    /// then, within [`POLL`]).
    pub fn check(&mut self, model: &Model, budget: &Budget) -> Outcome {
        if model.bad().is_empty() {
            return Outcome::Unknown {
                depth: None,
                note: Some("the model has no bad-state properties".into()),
            };
        }
        let ctx = Context::new(&Config::new());
        interruptible(&ctx, budget, || self.unroll(&ctx, model, budget))
    }

    fn unroll(&mut self, ctx: &Context, model: &Model, budget: &Budget) -> Outcome {
        let roots = (model.states().iter())
            .flat_map(|s| s.next.into_iter().chain(s.init))
            .chain(model.bad().iter().map(|p| p.term))
            .chain(model.constraints().iter().copied())
            .collect();
        let encoder = Encoder::new(ctx, model, roots);
        // Each depth is a fresh query for Z3's QF_ABV tactic (simplification, then
        // bit-blasting), which is far faster on bit-vectors than its incremental core.
        let arrays = (0..model.num_terms())
            .any(|t| matches!(model.sort(TermId(t as u32)), Sort::Array { .. }));
        let mut logic = Some(if arrays { "QF_ABV" } else { "QF_BV" });
        let mut base = Unrolling::new(ctx, model, true);
        let mut step = Unrolling::new(ctx, model, false);
        let mut frames: Vec<Frame> = Vec::new();
        for k in 0.. {
            if self.max_depth.is_some_and(|d| k > d) || budget.expired() {
                return unknown(k, None);
            }
            let (frame, any) = base.frame(self, &encoder);
            frames.push(frame);
            let mut query = self.query(ctx, logic, &base.facts, &any);
            if query
                .as_ref()
                .is_ok_and(|(r, solver)| incomplete(*r, solver))
            {
                // Z3's QF_ABV tactic does not decide every array formula (constant arrays):
                // this query and the later ones go to its general solver.
                logic = None;
                query = self.query(ctx, logic, &base.facts, &any);
            }
            let (result, solver) = match query {
                Ok(q) => q,
                Err(why) => return unknown(k, Some(why)),
            };
            match result {
                SatResult::Sat => {
                    let found = solver.get_model().expect("a model after sat");
                    return match trace(model, &found, &frames) {
                        Ok(t) => Outcome::Unsafe(t),
                        Err(why) => unknown(k, Some(why)),
                    };
                }
                SatResult::Unsat => {
                    // No bad state in frame `k`: every longer counterexample passes it clean.
                    base.facts.push(any.not());
                    self.depth = k as u64;
                    if self.induction {
                        match self.step_case(&mut step, &encoder, logic) {
                            Ok(true) => return Outcome::Safe { k: k + 1 },
                            Ok(false) => {}
                            Err(why) => return unknown(k + 1, Some(why)),
                        }
                    }
                }
                SatResult::Unknown => {
                    let why = solver.get_reason_unknown().filter(|_| !budget.expired());
                    return unknown(k, why.map(|r| format!("Z3 gave up: {r}")));
                }
            }
        }
        unreachable!("the unrolling returns")
    }
}

impl SmtBmc {
    /// The next step case on `step`, which holds the frames of the last one (none at first):
    /// one frame more, whether it cannot be bad after the good ones. Called after the base
    /// case of depth `k`, it is the step case of depth `k + 1`. `Err`: Z3 did not decide.
    fn step_case<'c>(
        &mut self,
        step: &mut Unrolling<'c, '_>,
        encoder: &Encoder<'c, '_>,
        logic: Option<&str>,
    ) -> Result<bool, String> {
        if step.k == 0 {
            // Frame 0 of the step case: any state under the constraints, not bad.
            let (_, any) = step.frame(self, encoder);
            step.facts.push(any.not());
        }
        let (_, any) = step.frame(self, encoder);
        let asked = self.query(step.ctx, logic, &step.facts, &any);
        step.facts.push(any.not());
        let (result, solver) = asked?;
        match result {
            SatResult::Unsat => Ok(true),
            SatResult::Sat => Ok(false),
            SatResult::Unknown => Err(format!(
                "Z3 did not decide the step case: {}",
                solver.get_reason_unknown().unwrap_or_default()
            )),
        }
    }

    /// One query: the `facts` and `bad` in a fresh solver for `logic` (Z3's tactic for it;
    /// `None`: its general solver), limited to the Z3 time left; the result and the solver,
    /// or why it was not asked (no time left).
    fn query<'c>(
        &mut self,
        ctx: &'c Context,
        logic: Option<&str>,
        facts: &[Bool<'c>],
        bad: &Bool<'c>,
    ) -> Result<(SatResult, Solver<'c>), String> {
        let solver =
            (logic.and_then(|l| Solver::new_for_logic(ctx, l))).unwrap_or_else(|| Solver::new(ctx));
        if let Some(limit) = self.solve_limit {
            let used = Duration::from_millis(self.solve_ms + self.encode_ms);
            let Some(left) = limit.checked_sub(used) else {
                return Err("its solving time is used up".into());
            };
            let mut params = Params::new(ctx);
            params.set_u32("timeout", left.as_millis().max(1) as u32);
            solver.set_params(&params);
        }
        let start = Instant::now();
        for f in facts {
            solver.assert(f);
        }
        solver.assert(bad);
        let result = solver.check();
        self.solve_ms += start.elapsed().as_millis() as u64;
        self.queries += 1;
        Ok((result, solver))
    }
}

/// Whether `solver` gave up on its query for a theory it does not decide (not a limit).
fn incomplete(result: SatResult, solver: &Solver) -> bool {
    result == SatResult::Unknown
        && solver
            .get_reason_unknown()
            .is_some_and(|r| r.contains("incomplete"))
}

/// `Unknown` after frames `0..k` were found clean.
fn unknown(k: usize, note: Option<String>) -> Outcome {
    Outcome::Unknown {
        depth: k.checked_sub(1),
        note,
    }
}

/// An unrolling of the model frame by frame: the states of the next frame to encode, and
/// the facts gathered on its frames so far (every frame's constraints, the inits of an
/// unrolling from the initial states, and the frames found clean).
struct Unrolling<'c, 'm> {
    ctx: &'c Context,
    model: &'m Model,
    /// Whether frame 0 is initial (the base case); the step case's starts anywhere.
    from_init: bool,
    states: Vec<Dynamic<'c>>,
    /// Frames encoded so far.
    k: usize,
    facts: Vec<Bool<'c>>,
}

impl<'c, 'm> Unrolling<'c, 'm> {
    fn new(ctx: &'c Context, model: &'m Model, from_init: bool) -> Unrolling<'c, 'm> {
        let mut u = Unrolling {
            ctx,
            model,
            from_init,
            states: Vec::new(),
            k: 0,
            facts: Vec::new(),
        };
        u.states = (model.states().iter().enumerate())
            .map(|(i, s)| u.leaf("s", i, 0, s.sort))
            .collect();
        u
    }

    /// The leaf `kind` `i` of frame `k` (the step case's leaves are named apart).
    fn leaf(&self, kind: &str, i: usize, k: usize, s: Sort) -> Dynamic<'c> {
        let prefix = if self.from_init { "" } else { "step." };
        let name = format!("{prefix}{kind}{i}@{k}");
        FuncDecl::new(self.ctx, name, &[], &sort(self.ctx, s)).apply(&[])
    }

    /// Encodes the next frame: its constraints (and in frame 0 from the initial states, the
    /// inits) go to the facts; returns the frame's leaves and whether a bad property holds.
    fn frame(&mut self, smt: &mut SmtBmc, encoder: &Encoder<'c, '_>) -> (Frame<'c>, Bool<'c>) {
        let (model, k) = (self.model, self.k);
        let inputs: Vec<Dynamic> = (model.inputs().iter().enumerate())
            .map(|(i, input)| self.leaf("i", i, k, input.sort))
            .collect();
        let start = Instant::now();
        let values = encoder.frame(&self.states, &inputs);
        smt.encode_ms += start.elapsed().as_millis() as u64;
        let value = |t: TermId| values[t.index()].as_ref().expect("in the cone");
        if self.from_init && k == 0 {
            for (i, s) in model.states().iter().enumerate() {
                if let Some(init) = s.init {
                    self.facts.push(self.states[i]._eq(value(init)));
                }
            }
        }
        (self.facts).extend(model.constraints().iter().map(|&c| truth(value(c))));
        let bad: Vec<Bool> = model.bad().iter().map(|p| truth(value(p.term))).collect();
        let any = Bool::or(self.ctx, &bad.iter().collect::<Vec<_>>());
        let next: Vec<Dynamic> = (model.states().iter().enumerate())
            .map(|(i, s)| match s.next {
                Some(n) => value(n).clone(),
                None => self.leaf("s", i, k + 1, s.sort),
            })
            .collect();
        self.k += 1;
        let frame = Frame {
            states: std::mem::replace(&mut self.states, next),
            inputs,
            bad,
        };
        (frame, any)
    }
}

/// The Z3 leaves of one frame of the unrolling, kept to read a counterexample off the model.
struct Frame<'c> {
    states: Vec<Dynamic<'c>>,
    inputs: Vec<Dynamic<'c>>,
    bad: Vec<Bool<'c>>,
}

/// The word-level trace of the satisfying assignment `found` of the unrolling `frames`: the
/// initial states without `init`, the free states of later frames and every input, as a
/// BTOR2 witness gives them.
fn trace(model: &Model, found: &z3::Model, frames: &[Frame]) -> Result<Trace, String> {
    let last = frames.last().expect("a frame was checked");
    let bad = (last.bad.iter())
        .position(|b| found.eval(b, true).and_then(|v| v.as_bool()) == Some(true))
        .ok_or("no bad property holds in the model Z3 gave")?;
    let mut states = Vec::with_capacity(frames.len());
    let mut inputs = Vec::with_capacity(frames.len());
    for (k, frame) in frames.iter().enumerate() {
        let mut row = Vec::with_capacity(model.inputs().len());
        for (input, ast) in model.inputs().iter().zip(&frame.inputs) {
            row.push(value(found, ast, input.sort)?);
        }
        inputs.push(row);
        let mut row = Vec::with_capacity(model.states().len());
        for (s, ast) in model.states().iter().zip(&frame.states) {
            let given = match k {
                0 => s.init.is_none(),
                _ => s.next.is_none(),
            };
            row.push(match given {
                true => Some(value(found, ast, s.sort)?),
                false => None,
            });
        }
        states.push(row);
    }
    Ok(Trace {
        bad,
        states,
        inputs,
    })
}

/// The value of `ast` (of sort `s`) in `found`.
fn value(found: &z3::Model, ast: &Dynamic, s: Sort) -> Result<Value, String> {
    let word = |bv: &BV| -> Result<BitVec, String> {
        let w = bv.get_size();
        let mut bits = Vec::with_capacity(w as usize);
        for low in (0..w).step_by(64) {
            let high = (low + 63).min(w - 1);
            let piece = found
                .eval(&bv.extract(high, low), true)
                .and_then(|v| v.as_u64());
            let piece = piece.ok_or("Z3 gave no numeral for a bit-vector")?;
            bits.extend((0..=high - low).map(|i| piece >> i & 1 == 1));
        }
        Ok(BitVec::from_bits(&bits))
    };
    match s {
        Sort::Bv(_) => word(&ast.as_bv().expect("sort-checked bit-vector leaf")).map(Value::Bv),
        Sort::Array { index, element } if index <= MAX_ENUMERATED_INDEX => {
            let array = ast.as_array().expect("sort-checked array leaf");
            let mut a = ArrayValue::constant(index, BitVec::zero(element));
            for j in 0..1u64 << index {
                let at = BitVec::from_u64(index, j);
                let e = array.select(&encode::constant(ast.get_ctx(), &at));
                a.set(&at, &word(&e.as_bv().expect("bit-vector elements"))?);
            }
            Ok(Value::Array(a))
        }
        Sort::Array { index, .. } => Err(format!(
            "the counterexample sets an array with a {index}-bit index, whose contents this \
             engine does not read back"
        )),
    }
}
