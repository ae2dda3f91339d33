//! The word-level simulator: replays a [`Trace`] on a [`Model`] with exact bit-vector and
//! array values. It shares no code with the blaster, so it independently confirms the
//! counterexamples found on the blasted system.

use super::{eval, Model, Op, TermId, Trace, Value};

crate::error::message_error!(
    /// Why a word-level trace does not replay (the message says where and what): the trace does
    /// not fit the model, breaks a constraint, or reaches no bad state.
    SimError
);

/// The values of the terms in one frame, computed on demand.
struct Frame<'m> {
    model: &'m Model,
    values: Vec<Option<Value>>,
    states: Vec<Option<Value>>,
    inputs: &'m [Value],
}

impl<'m> Frame<'m> {
    fn new(model: &'m Model, states: Vec<Option<Value>>, inputs: &'m [Value]) -> Frame<'m> {
        Frame {
            model,
            values: vec![None; model.num_terms()],
            states,
            inputs,
        }
    }

    /// Evaluates every term `roots` need, in ascending (topological) order.
    fn eval(&mut self, roots: &[TermId]) -> Result<(), SimError> {
        let mut todo = Vec::new();
        let mut stack = roots.to_vec();
        let mut seen = std::collections::HashSet::new();
        while let Some(t) = stack.pop() {
            if self.values[t.index()].is_none() && seen.insert(t) {
                todo.push(t);
                stack.extend(&self.model.term(t).args);
            }
        }
        todo.sort_unstable();
        for t in todo {
            let term = self.model.term(t);
            let value = match term.op {
                Op::State(i) => self.states[i]
                    .clone()
                    .ok_or_else(|| format!("state {i} is read before it has a value"))?,
                Op::Input(i) => self.inputs[i].clone(),
                _ => {
                    let args: Vec<&Value> = term
                        .args
                        .iter()
                        .map(|a| self.values[a.index()].as_ref().expect("arguments first"))
                        .collect();
                    eval::apply(&term.op, term.sort, &args)
                }
            };
            self.values[t.index()] = Some(value);
        }
        Ok(())
    }

    fn get(&mut self, t: TermId) -> Result<&Value, SimError> {
        self.eval(&[t])?;
        Ok(self.values[t.index()].as_ref().expect("just evaluated"))
    }

    fn holds(&mut self, t: TermId) -> Result<bool, SimError> {
        Ok(self.get(t)?.as_bv().is_some_and(|v| v.is_true()))
    }
}

/// Checks that the trace's vectors have the model's shape and sorts.
fn check_shape(model: &Model, trace: &Trace) -> Result<(), SimError> {
    if trace.bad >= model.bad().len() {
        return Err(SimError(format!(
            "bad property {} does not exist ({} bad properties)",
            trace.bad,
            model.bad().len()
        )));
    }
    if trace.inputs.is_empty() || trace.states.len() != trace.inputs.len() {
        return Err(SimError(format!(
            "{} input frames and {} state frames (they must be equal and non-zero)",
            trace.inputs.len(),
            trace.states.len()
        )));
    }
    for (k, (row, srow)) in trace.inputs.iter().zip(&trace.states).enumerate() {
        if row.len() != model.inputs().len() || srow.len() != model.states().len() {
            return Err(SimError(format!(
                "frame {k} does not have a value per input and state"
            )));
        }
        if let Some(i) = (0..row.len()).find(|&i| !row[i].has_sort(model.inputs()[i].sort)) {
            return Err(SimError(format!(
                "frame {k}: input {i} has a value of the wrong sort"
            )));
        }
        let wrong = |s: usize| {
            srow[s]
                .as_ref()
                .is_some_and(|v| !v.has_sort(model.states()[s].sort))
        };
        if let Some(s) = (0..srow.len()).find(|&s| wrong(s)) {
            return Err(SimError(format!(
                "frame {k}: state {s} has a value of the wrong sort"
            )));
        }
    }
    Ok(())
}

/// The initial state: witness values, zero where not given, `init` where there is one.
fn initial_state(model: &Model, trace: &Trace) -> Result<Vec<Option<Value>>, SimError> {
    let order = model
        .init_order()
        .map_err(|s| format!("the initial value of state {s} depends on itself"))?;
    let given = &trace.states[0];
    let states: Vec<Option<Value>> = model
        .states()
        .iter()
        .zip(given)
        .map(|(s, g)| match s.init {
            Some(_) => None,
            None => Some(g.clone().unwrap_or_else(|| Value::zero(s.sort))),
        })
        .collect();
    // One frame for all initial values: a memoised term only reads states set before it.
    let mut frame = Frame::new(model, states, &trace.inputs[0]);
    for s in order {
        let Some(init) = model.states()[s].init else {
            continue;
        };
        let value = frame.get(init)?.clone();
        if given[s].as_ref().is_some_and(|g| !g.equals(&value)) {
            return Err(SimError(format!(
                "the trace gives state {s} an initial value other than its init"
            )));
        }
        frame.states[s] = Some(value);
    }
    Ok(frame.states)
}

/// The states of frame `k + 1`: next-state values, or for free states the trace's value
/// (zero when it gives none); a value the trace gives for a state with `next` must agree.
fn successor(
    model: &Model,
    frame: &mut Frame,
    trace: &Trace,
    k: usize,
) -> Result<Vec<Option<Value>>, SimError> {
    let following = trace.states.get(k + 1);
    let mut states = Vec::with_capacity(model.states().len());
    for (s, state) in model.states().iter().enumerate() {
        let given = following.and_then(|row| row[s].clone());
        let value = match state.next {
            Some(next) => {
                let v = frame.get(next)?.clone();
                if given.as_ref().is_some_and(|g| !g.equals(&v)) {
                    return Err(SimError(format!(
                        "the trace gives state {s} in frame {} a value other than its next",
                        k + 1
                    )));
                }
                v
            }
            None => given.unwrap_or_else(|| Value::zero(state.sort)),
        };
        states.push(Some(value));
    }
    Ok(states)
}

/// Simulates `trace` on `model`. Returns the first frame in which `trace.bad` holds while
/// every constraint has held in every frame so far.
pub fn replay(model: &Model, trace: &Trace) -> Result<usize, SimError> {
    check_shape(model, trace)?;
    let mut states = initial_state(model, trace)?;
    let bad = model.bad()[trace.bad].term;
    for (k, inputs) in trace.inputs.iter().enumerate() {
        let mut frame = Frame::new(model, states, inputs);
        for (c, &t) in model.constraints().iter().enumerate() {
            if !frame.holds(t)? {
                return Err(SimError(format!("constraint {c} is violated in frame {k}")));
            }
        }
        if frame.holds(bad)? {
            return Ok(k);
        }
        states = successor(model, &mut frame, trace, k)?;
    }
    Err(SimError(format!(
        "bad property {} is not reached in {} frames",
        trace.bad,
        trace.inputs.len()
    )))
}

/// The values of `terms` in every frame of `trace` (for waveforms: constraints and properties
/// are not checked, and every frame is simulated).
pub fn waveform(
    model: &Model,
    trace: &Trace,
    terms: &[TermId],
) -> Result<Vec<Vec<Value>>, SimError> {
    check_shape(model, trace)?;
    let mut states = initial_state(model, trace)?;
    let mut out = Vec::with_capacity(trace.inputs.len());
    for (k, inputs) in trace.inputs.iter().enumerate() {
        let mut frame = Frame::new(model, states, inputs);
        let row: Result<Vec<Value>, SimError> =
            terms.iter().map(|&t| frame.get(t).cloned()).collect();
        out.push(row?);
        states = successor(model, &mut frame, trace, k)?;
    }
    Ok(out)
}
