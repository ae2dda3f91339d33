//! The word-level simulator: replays a [`Trace`] on a [`Model`] with exact bit-vector and
//! array values. It shares no code with the blaster, so it independently confirms the
//! counterexamples found on the blasted system.

use super::{eval, Model, Op, TermId, Trace, Value};

/// Why a word-level trace does not replay: the trace does not fit the model, breaks a
/// constraint, or reaches no bad state (states, inputs, properties and frames by index).
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum SimError {
    #[error("bad property {bad} does not exist ({count} bad properties)")]
    NoBad { bad: usize, count: usize },
    #[error("{inputs} input frames and {states} state frames (they must be equal and non-zero)")]
    FrameCount { inputs: usize, states: usize },
    #[error("frame {frame} does not have a value per input and state")]
    FrameShape { frame: usize },
    #[error("frame {frame}: input {input} has a value of the wrong sort")]
    InputSort { frame: usize, input: usize },
    #[error("frame {frame}: state {state} has a value of the wrong sort")]
    StateSort { frame: usize, state: usize },
    #[error("the initial value of state {state} depends on itself")]
    InitCycle { state: usize },
    #[error("state {state} is read before it has a value")]
    Unset { state: usize },
    #[error("the trace gives state {state} an initial value other than its init")]
    InitMismatch { state: usize },
    #[error("the trace gives state {state} in frame {frame} a value other than its next")]
    NextMismatch { state: usize, frame: usize },
    #[error("constraint {constraint} is violated in frame {frame}")]
    Constraint { constraint: usize, frame: usize },
    #[error("bad property {bad} is not reached in {frames} frames")]
    NotReached { bad: usize, frames: usize },
}

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
                Op::State(i) => self.states[i].clone().ok_or(SimError::Unset { state: i })?,
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
        return Err(SimError::NoBad {
            bad: trace.bad,
            count: model.bad().len(),
        });
    }
    if trace.inputs.is_empty() || trace.states.len() != trace.inputs.len() {
        return Err(SimError::FrameCount {
            inputs: trace.inputs.len(),
            states: trace.states.len(),
        });
    }
    for (k, (row, srow)) in trace.inputs.iter().zip(&trace.states).enumerate() {
        if row.len() != model.inputs().len() || srow.len() != model.states().len() {
            return Err(SimError::FrameShape { frame: k });
        }
        if let Some(i) = (0..row.len()).find(|&i| !row[i].has_sort(model.inputs()[i].sort)) {
            return Err(SimError::InputSort { frame: k, input: i });
        }
        let wrong = |s: usize| {
            srow[s]
                .as_ref()
                .is_some_and(|v| !v.has_sort(model.states()[s].sort))
        };
        if let Some(s) = (0..srow.len()).find(|&s| wrong(s)) {
            return Err(SimError::StateSort { frame: k, state: s });
        }
    }
    Ok(())
}

/// The initial state: witness values, zero where not given, `init` where there is one.
fn initial_state(model: &Model, trace: &Trace) -> Result<Vec<Option<Value>>, SimError> {
    let order = model
        .init_order()
        .map_err(|state| SimError::InitCycle { state })?;
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
            return Err(SimError::InitMismatch { state: s });
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
                    return Err(SimError::NextMismatch {
                        state: s,
                        frame: k + 1,
                    });
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
                return Err(SimError::Constraint {
                    constraint: c,
                    frame: k,
                });
            }
        }
        if frame.holds(bad)? {
            return Ok(k);
        }
        states = successor(model, &mut frame, trace, k)?;
    }
    Err(SimError::NotReached {
        bad: trace.bad,
        frames: trace.inputs.len(),
    })
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
