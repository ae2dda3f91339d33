//! Counterexample traces in terms of one transition system's inputs and latches.

/// A finite trace: initial latch values and one input vector per frame.
///
/// `inputs.len()` is the number of frames; the violated property `bad` holds in the last one.
/// Values are two-valued: engines ground don't-cares to `false`, as AIGER witnesses do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// Frame-0 value of every latch (uninitialised latches included).
    pub init: Vec<bool>,
    /// For every frame, the value of every input.
    pub inputs: Vec<Vec<bool>>,
    /// Index of the violated bad property.
    pub bad: usize,
}

impl Trace {
    /// The frame in which the property is violated.
    pub fn depth(&self) -> usize {
        self.inputs.len().saturating_sub(1)
    }
}
