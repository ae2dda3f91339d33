//! Concrete execution of a CFA: the independent check that a counterexample reaches the error.
//!
//! The interpreter follows the CFA's own semantics (see [`super`]) with exact bit-vector and
//! array values ([`crate::wl::eval`]); it shares no code with the encoding or the blaster.

use std::collections::{HashMap, VecDeque};

use super::{Cfa, Edge, Loc};
use crate::wl::{eval, BitVec, Op, Sort, TermId, Value};

/// Why a run of the interpreter does not reach the error, went wrong, or could not be set
/// up from an error path's text (lines of that text counted from 1).
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum RunError {
    /// Two edges enabled at once: the CFA breaks its contract.
    #[error("two edges of location {loc} are enabled in step {step}")]
    Ambiguous { loc: usize, step: usize },
    #[error("the counterexample does not reach the error in the CFA interpreter")]
    TraceMisses,
    #[error("replaying the nondet values does not reach the error")]
    ReplayMisses,
    /// The run reaches the error only through a call deeper than the recursion bound
    /// ([`Cfa::unwind`]): not a path of the program.
    #[error("the path exceeds the recursion bound of the inlining")]
    BoundExceeded,
    #[error("line {line}: bad line number")]
    LineNumber { line: usize },
    #[error("line {line}: expected `WHAT = VALUE`")]
    Draw { line: usize },
    #[error("line {line}: no nondet source {what} at line {source_line}")]
    NoSource {
        line: usize,
        what: String,
        source_line: u32,
    },
    #[error("line {line}: bad value {value} for {sort}")]
    Value {
        line: usize,
        value: String,
        sort: Sort,
    },
}

/// Where the values of nondet sources come from.
pub trait Oracle {
    /// The value nondet source `nondet` would give if an edge drawing it as its
    /// `position`-th value fired in step `step` (asked for every candidate edge, so it must
    /// not consume anything).
    fn peek(&mut self, step: usize, nondet: usize, position: usize) -> Value;
    /// `edge` fired in `step` (and drew its nondets).
    fn commit(&mut self, step: usize, edge: &Edge);
    /// Whether the run stops before step `step` (it ends where it is, as if `max_steps` had
    /// run out).
    fn stopped(&mut self, _step: usize) -> bool {
        false
    }
}

/// Values given per call site, consumed in order; a site with no value left gives zero.
pub struct Queues {
    queues: HashMap<usize, VecDeque<Value>>,
    sorts: Vec<Sort>,
}

impl Queues {
    /// `values`: (nondet source, value) in the order the program draws them.
    pub fn new(cfa: &Cfa, values: &[(usize, Value)]) -> Queues {
        let mut queues: HashMap<usize, VecDeque<Value>> = HashMap::new();
        for (n, v) in values {
            queues.entry(*n).or_default().push_back(v.clone());
        }
        Queues {
            queues,
            sorts: nondet_sorts(cfa),
        }
    }
}

impl Oracle for Queues {
    fn peek(&mut self, _step: usize, nondet: usize, _position: usize) -> Value {
        self.queues
            .get(&nondet)
            .and_then(|q| q.front().cloned())
            .unwrap_or_else(|| Value::zero(self.sorts[nondet]))
    }

    fn commit(&mut self, _step: usize, edge: &Edge) {
        for n in &edge.nondets {
            if let Some(q) = self.queues.get_mut(n) {
                q.pop_front();
            }
        }
    }
}

/// One sequence of values consumed in drawing order, whatever their sites (how a printed
/// error path is replayed). A value of the wrong sort, or none left, gives zero.
pub struct Sequence {
    values: Vec<Value>,
    next: usize,
    sorts: Vec<Sort>,
}

impl Sequence {
    pub fn new(cfa: &Cfa, values: Vec<Value>) -> Sequence {
        Sequence {
            values,
            next: 0,
            sorts: nondet_sorts(cfa),
        }
    }
}

impl Oracle for Sequence {
    fn peek(&mut self, _step: usize, nondet: usize, position: usize) -> Value {
        let sort = self.sorts[nondet];
        match self.values.get(self.next + position) {
            Some(v) if v.has_sort(sort) => v.clone(),
            _ => Value::zero(sort),
        }
    }

    fn commit(&mut self, _step: usize, edge: &Edge) {
        self.next += edge.nondets.len();
    }
}

/// One fired edge and the nondet values it drew, in drawing order.
#[derive(Clone, Debug)]
pub struct Step {
    pub edge: usize,
    pub drawn: Vec<(usize, Value)>,
}

/// A finished execution.
#[derive(Clone, Debug)]
pub struct Run {
    pub steps: Vec<Step>,
    /// Where it stopped: the error, the exit, a blocked location, or where `max_steps` ran out.
    pub end: Loc,
}

impl Run {
    pub fn reached(&self, cfa: &Cfa) -> bool {
        self.end == cfa.error
    }

    /// Whether the run passed [`Cfa::unwind`] or drew the value of a call beyond the bound
    /// ([`super::Nondet::beyond_bound`]): a call deeper than the recursion bound.
    pub fn unwound(&self, cfa: &Cfa) -> bool {
        self.steps.iter().any(|s| {
            Some(cfa.edges[s.edge].to) == cfa.unwind
                || s.drawn.iter().any(|&(n, _)| cfa.nondets[n].beyond_bound)
        })
    }
}

/// Executes `cfa` from its entry for at most `max_steps` edges, stopping at the error, where
/// no edge is enabled, or where the oracle says so. Two enabled edges at once break the
/// CFA's contract: an error.
pub fn run(cfa: &Cfa, oracle: &mut dyn Oracle, max_steps: usize) -> Result<Run, RunError> {
    let outgoing = cfa.outgoing();
    let mut vars: Vec<Value> = cfa.vars.iter().map(|v| Value::zero(v.sort)).collect();
    let mut loc = cfa.entry;
    let mut steps = Vec::new();
    while loc != cfa.error && steps.len() < max_steps && !oracle.stopped(steps.len()) {
        let k = steps.len();
        let mut fired = None;
        for &e in &outgoing[loc.index()] {
            let edge = &cfa.edges[e];
            let inputs: HashMap<usize, Value> = edge
                .nondets
                .iter()
                .enumerate()
                .map(|(p, &n)| (n, oracle.peek(k, n, p)))
                .collect();
            let mut eval = Eval::new(cfa, &vars, &inputs);
            if eval.value(edge.guard).as_bv().is_some_and(BitVec::is_true) {
                if fired.is_some() {
                    return Err(RunError::Ambiguous {
                        loc: loc.0 as usize,
                        step: k,
                    });
                }
                let values: Vec<(usize, Value)> = edge
                    .assigns
                    .iter()
                    .map(|&(v, t)| (v.index(), eval.value(t)))
                    .collect();
                let drawn = edge
                    .nondets
                    .iter()
                    .map(|n| (*n, inputs[n].clone()))
                    .collect();
                fired = Some((e, values, drawn));
            }
        }
        let Some((e, values, drawn)) = fired else {
            break;
        };
        for (v, value) in values {
            vars[v] = value;
        }
        oracle.commit(k, &cfa.edges[e]);
        steps.push(Step { edge: e, drawn });
        loc = cfa.edges[e].to;
    }
    Ok(Run { steps, end: loc })
}

/// Term values over one pre-state and one set of nondet values.
struct Eval<'a> {
    cfa: &'a Cfa,
    vars: &'a [Value],
    inputs: &'a HashMap<usize, Value>,
    memo: HashMap<TermId, Value>,
}

impl<'a> Eval<'a> {
    fn new(cfa: &'a Cfa, vars: &'a [Value], inputs: &'a HashMap<usize, Value>) -> Eval<'a> {
        Eval {
            cfa,
            vars,
            inputs,
            memo: HashMap::new(),
        }
    }

    fn value(&mut self, root: TermId) -> Value {
        let mut stack = vec![(root, false)];
        while let Some((t, expanded)) = stack.pop() {
            if self.memo.contains_key(&t) {
                continue;
            }
            let term = &self.cfa.terms.term(t);
            let value = match term.op {
                Op::State(i) => self.vars[i].clone(),
                Op::Input(j) => {
                    (self.inputs.get(&j).cloned()).unwrap_or_else(|| Value::zero(term.sort))
                }
                _ if !expanded => {
                    stack.push((t, true));
                    stack.extend(term.args.iter().map(|&a| (a, false)));
                    continue;
                }
                _ => {
                    let args: Vec<&Value> = term.args.iter().map(|a| &self.memo[a]).collect();
                    eval::apply(&term.op, term.sort, &args)
                }
            };
            self.memo.insert(t, value);
        }
        self.memo[&root].clone()
    }
}

/// Values given per block by a word-level trace of the encoding of a block CFA (input `j` of
/// frame `k` is nondet source `j` in the `k`-th block, see [`super::encode`]), for a run of
/// the original CFA: a block ends whenever the run reaches a location the block CFA kept
/// ([`super::lbe::kept_locations`]).
pub struct BlockInputs<'a> {
    inputs: &'a [Vec<Value>],
    kept: Vec<bool>,
    block: usize,
    sorts: Vec<Sort>,
}

impl<'a> BlockInputs<'a> {
    pub fn new(cfa: &Cfa, kept: Vec<bool>, inputs: &'a [Vec<Value>]) -> BlockInputs<'a> {
        BlockInputs {
            inputs,
            kept,
            block: 0,
            sorts: nondet_sorts(cfa),
        }
    }
}

impl Oracle for BlockInputs<'_> {
    fn peek(&mut self, _step: usize, nondet: usize, _position: usize) -> Value {
        (self
            .inputs
            .get(self.block)
            .and_then(|frame| frame.get(nondet)))
        .cloned()
        .unwrap_or_else(|| Value::zero(self.sorts[nondet]))
    }

    fn commit(&mut self, _step: usize, edge: &Edge) {
        if self.kept[edge.to.index()] {
            self.block += 1;
        }
    }
}

fn nondet_sorts(cfa: &Cfa) -> Vec<Sort> {
    cfa.nondets.iter().map(|n| cfa.terms.sort(n.term)).collect()
}
