//! Word-level counterexample traces: what a BTOR2 witness says.

use super::Value;

/// A finite trace of a word-level model, as in a BTOR2 witness.
///
/// `inputs.len()` is the number of frames and `states.len()` must equal it. Frame 0 of
/// `states` is the initial state: a value for every state the witness assigns (`None`: not
/// given, so zero unless the state has an `init`). In later frames only the states without
/// `next` read their entry (they are free in every frame); the others follow their next-state
/// function, and an entry given for them must agree with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// Index of the violated bad property.
    pub bad: usize,
    /// Per frame, the value the trace assigns to each state, if any.
    pub states: Vec<Vec<Option<Value>>>,
    /// Per frame, the value of each input.
    pub inputs: Vec<Vec<Value>>,
}
