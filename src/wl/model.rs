//! The word-level model: a hash-consed DAG of terms plus the inputs, states and properties
//! of a BTOR2 file, in declaration order (BTOR2 witnesses refer to states and inputs by
//! that position).

use std::collections::HashMap;

use super::sort::{BitRole, StateValue};
use super::{eval, BitVec, Op, Sort, SortError, Value};

/// A term of a [`Model`]. Arguments always have smaller ids, so ascending id order is a
/// topological order (simulation and blasting walk it iteratively, never recursively).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TermId(pub u32);

impl TermId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// An operator applied to arguments, with its (checked) result sort.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Term {
    pub op: Op,
    pub args: Vec<TermId>,
    pub sort: Sort,
}

/// A declared input.
#[derive(Clone, Debug)]
pub struct Input {
    pub sort: Sort,
    pub name: Option<String>,
    pub term: TermId,
}

/// A declared state with its optional initial value and next-state function. Without
/// `init` it starts anywhere; without `next` it is free in every frame (an input in
/// disguise, as btorsim treats it).
#[derive(Clone, Debug)]
pub struct State {
    pub sort: Sort,
    pub name: Option<String>,
    pub term: TermId,
    pub init: Option<TermId>,
    pub next: Option<TermId>,
}

/// A one-bit term with an optional name: a bad-state property or an output.
#[derive(Clone, Debug)]
pub struct Property {
    pub term: TermId,
    pub name: Option<String>,
}

/// A word-level transition system. Built only through its methods, which check sorts, fold
/// constants and share structurally equal terms, so every term is well sorted.
#[derive(Clone, Debug, Default)]
pub struct Model {
    terms: Vec<Term>,
    table: HashMap<Term, TermId>,
    inputs: Vec<Input>,
    states: Vec<State>,
    bad: Vec<Property>,
    constraints: Vec<TermId>,
    fairness: Vec<TermId>,
    justice: Vec<Vec<TermId>>,
    outputs: Vec<Property>,
    /// Named terms other than inputs and states (waveforms show them).
    signals: Vec<Property>,
}

impl Model {
    pub fn new() -> Model {
        Model::default()
    }

    pub fn term(&self, t: TermId) -> &Term {
        &self.terms[t.index()]
    }

    pub fn sort(&self, t: TermId) -> Sort {
        self.terms[t.index()].sort
    }

    pub fn num_terms(&self) -> usize {
        self.terms.len()
    }

    pub fn inputs(&self) -> &[Input] {
        &self.inputs
    }

    pub fn states(&self) -> &[State] {
        &self.states
    }

    pub fn bad(&self) -> &[Property] {
        &self.bad
    }

    pub fn constraints(&self) -> &[TermId] {
        &self.constraints
    }

    pub fn fairness(&self) -> &[TermId] {
        &self.fairness
    }

    pub fn justice(&self) -> &[Vec<TermId>] {
        &self.justice
    }

    pub fn outputs(&self) -> &[Property] {
        &self.outputs
    }

    /// Named terms of the file (e.g. the RTL wires a Yosys translation names).
    pub fn signals(&self) -> &[Property] {
        &self.signals
    }

    /// Gives every unnamed state the name of an output that shows exactly that state: Yosys's
    /// `write_btor` names registers only through such outputs, and witnesses and waveforms
    /// should show the RTL names.
    pub fn name_states_from_outputs(&mut self) {
        for out in &self.outputs {
            if let (Some(i), Some(name)) = (self.state_of(out.term), &out.name) {
                self.states[i].name.get_or_insert_with(|| name.clone());
            }
        }
    }

    /// Records a name for `term`, for waveforms.
    pub fn add_signal(&mut self, term: TermId, name: String) {
        self.signals.push(Property {
            term,
            name: Some(name),
        });
    }

    /// The constant value of `t`, if it is a bit-vector constant.
    pub fn constant(&self, t: TermId) -> Option<&BitVec> {
        match &self.term(t).op {
            Op::Const(v) => Some(v),
            _ => None,
        }
    }

    fn intern(&mut self, term: Term) -> TermId {
        if let Some(&id) = self.table.get(&term) {
            return id;
        }
        let id = TermId(self.terms.len() as u32);
        self.terms.push(term.clone());
        self.table.insert(term, id);
        id
    }

    /// The constant `value`.
    pub fn constant_term(&mut self, value: BitVec) -> TermId {
        let sort = Sort::Bv(value.width());
        self.intern(Term {
            op: Op::Const(value),
            args: Vec::new(),
            sort,
        })
    }

    /// `op` applied to `args`, after checking the sorts. Constant operands are folded and a
    /// few trivial identities (`ite` on a constant, double negation) are applied.
    pub fn apply(&mut self, op: Op, args: &[TermId]) -> Result<TermId, SortError> {
        if let Op::Const(v) = op {
            return Ok(self.constant_term(v));
        }
        let sorts: Vec<Sort> = args.iter().map(|&a| self.sort(a)).collect();
        let sort = op.result_sort(&sorts)?;
        if let Some(t) = self.simplify(&op, args) {
            return Ok(t);
        }
        Ok(self.intern(Term {
            op,
            args: args.to_vec(),
            sort,
        }))
    }

    /// A term equal to `op(args)` that already exists, if one is easy to see.
    fn simplify(&mut self, op: &Op, args: &[TermId]) -> Option<TermId> {
        if *op == Op::Ite {
            return match self.constant(args[0]) {
                Some(c) => Some(if c.is_true() { args[1] } else { args[2] }),
                None => (args[1] == args[2]).then_some(args[1]),
            };
        }
        if let Op::Extend { by: 0, .. } = op {
            return Some(args[0]);
        }
        if *op == Op::Unary(super::Unary::Not) {
            let inner = self.term(args[0]);
            if inner.op == Op::Unary(super::Unary::Not) {
                return Some(inner.args[0]);
            }
        }
        let values: Option<Vec<Value>> = args
            .iter()
            .map(|&a| self.constant(a).map(|v| Value::Bv(v.clone())))
            .collect();
        let values = values?;
        let sorts: Vec<Sort> = args.iter().map(|&a| self.sort(a)).collect();
        let sort = op.result_sort(&sorts).ok()?;
        let refs: Vec<&Value> = values.iter().collect();
        match eval::apply(op, sort, &refs) {
            Value::Bv(v) => Some(self.constant_term(v)),
            Value::Array(_) => None,
        }
    }

    /// The array of sort `sort` holding `element` everywhere.
    pub fn const_array(&mut self, sort: Sort, element: TermId) -> Result<TermId, SortError> {
        match sort {
            Sort::Array { element: w, .. } if self.sort(element) == Sort::Bv(w) => {
                Ok(self.intern(Term {
                    op: Op::ConstArray,
                    args: vec![element],
                    sort,
                }))
            }
            _ => Err(SortError::ArrayInit {
                element: self.sort(element),
                array: sort,
            }),
        }
    }

    pub fn add_input(&mut self, sort: Sort, name: Option<String>) -> TermId {
        let term = self.intern(Term {
            op: Op::Input(self.inputs.len()),
            args: Vec::new(),
            sort,
        });
        self.inputs.push(Input { sort, name, term });
        term
    }

    /// Declares a state; returns its index (its term is `states()[i].term`).
    pub fn add_state(&mut self, sort: Sort, name: Option<String>) -> usize {
        let term = self.intern(Term {
            op: Op::State(self.states.len()),
            args: Vec::new(),
            sort,
        });
        self.states.push(State {
            sort,
            name,
            term,
            init: None,
            next: None,
        });
        self.states.len() - 1
    }

    /// The state index of a term, if the term is a state.
    pub fn state_of(&self, t: TermId) -> Option<usize> {
        match self.term(t).op {
            Op::State(i) => Some(i),
            _ => None,
        }
    }

    fn check_state_value(
        &self,
        state: usize,
        value: TermId,
        of: StateValue,
    ) -> Result<(), SortError> {
        let s = self.states.get(state).ok_or(SortError::NoState(state))?;
        if self.sort(value) != s.sort {
            return Err(SortError::StateValue {
                of,
                expected: s.sort,
                found: self.sort(value),
            });
        }
        Ok(())
    }

    /// Sets the initial value of `state` (an array state may take a bit-vector element, which
    /// initialises every index).
    pub fn set_init(&mut self, state: usize, value: TermId) -> Result<(), SortError> {
        let value = match self.states.get(state).map(|s| s.sort) {
            Some(sort @ Sort::Array { .. }) if !self.sort(value).is_array() => {
                self.const_array(sort, value)?
            }
            _ => value,
        };
        self.check_state_value(state, value, StateValue::Init)?;
        if self.states[state].init.replace(value).is_some() {
            return Err(SortError::Duplicate(StateValue::Init));
        }
        Ok(())
    }

    pub fn set_next(&mut self, state: usize, value: TermId) -> Result<(), SortError> {
        self.check_state_value(state, value, StateValue::Next)?;
        if self.states[state].next.replace(value).is_some() {
            return Err(SortError::Duplicate(StateValue::Next));
        }
        Ok(())
    }

    fn check_bit(&self, t: TermId, role: BitRole) -> Result<(), SortError> {
        if self.sort(t) != Sort::Bv(1) {
            return Err(SortError::NotBit {
                role,
                found: self.sort(t),
            });
        }
        Ok(())
    }

    pub fn add_bad(&mut self, term: TermId, name: Option<String>) -> Result<(), SortError> {
        self.check_bit(term, BitRole::Bad)?;
        self.bad.push(Property { term, name });
        Ok(())
    }

    pub fn add_constraint(&mut self, term: TermId) -> Result<(), SortError> {
        self.check_bit(term, BitRole::Constraint)?;
        self.constraints.push(term);
        Ok(())
    }

    pub fn add_fairness(&mut self, term: TermId) -> Result<(), SortError> {
        self.check_bit(term, BitRole::Fairness)?;
        self.fairness.push(term);
        Ok(())
    }

    pub fn add_justice(&mut self, terms: Vec<TermId>) -> Result<(), SortError> {
        for &t in &terms {
            self.check_bit(t, BitRole::Justice)?;
        }
        self.justice.push(terms);
        Ok(())
    }

    /// Outputs may have any sort; they are kept for names only.
    pub fn add_output(&mut self, term: TermId, name: Option<String>) {
        self.outputs.push(Property { term, name });
    }

    /// Marks every term in the transitive fan-in of `roots`.
    pub fn cone(&self, roots: impl IntoIterator<Item = TermId>) -> Vec<bool> {
        let mut mark = vec![false; self.terms.len()];
        let mut stack: Vec<TermId> = roots.into_iter().collect();
        while let Some(t) = stack.pop() {
            if !std::mem::replace(&mut mark[t.index()], true) {
                stack.extend(&self.term(t).args);
            }
        }
        mark
    }

    /// An order of the states in which every initial value only reads states that come
    /// earlier, or `Err(state)` for a state whose initial value depends on itself.
    pub fn init_order(&self) -> Result<Vec<usize>, usize> {
        #[derive(Copy, Clone, PartialEq)]
        enum Mark {
            New,
            Active,
            Done,
        }
        let deps = |s: usize| -> Vec<usize> {
            let Some(init) = self.states[s].init else {
                return Vec::new();
            };
            // Initial values are mostly constants: walk only the small cone, not all terms.
            let mut seen = std::collections::HashSet::new();
            let mut stack = vec![init];
            let mut states = Vec::new();
            while let Some(t) = stack.pop() {
                if seen.insert(t) {
                    states.extend(self.state_of(t));
                    stack.extend(&self.term(t).args);
                }
            }
            states
        };
        let mut mark = vec![Mark::New; self.states.len()];
        let mut order = Vec::with_capacity(self.states.len());
        for root in 0..self.states.len() {
            if mark[root] != Mark::New {
                continue;
            }
            mark[root] = Mark::Active;
            let mut stack = vec![(root, deps(root), 0usize)];
            while let Some((s, ds, i)) = stack.last_mut() {
                if let Some(&d) = ds.get(*i) {
                    *i += 1;
                    match mark[d] {
                        Mark::Active => return Err(d),
                        Mark::Done => {}
                        Mark::New => {
                            mark[d] = Mark::Active;
                            let dd = deps(d);
                            stack.push((d, dd, 0));
                        }
                    }
                } else {
                    mark[*s] = Mark::Done;
                    order.push(*s);
                    stack.pop();
                }
            }
        }
        Ok(order)
    }

    /// A name for input `i` usable in waveforms and bit names: its symbol with whitespace
    /// replaced, or `input<i>`.
    pub fn input_name(&self, i: usize) -> String {
        word_name(self.inputs[i].name.as_deref(), "input", i)
    }

    /// A name for state `i`: its symbol with whitespace replaced, or `state<i>`.
    pub fn state_name(&self, i: usize) -> String {
        word_name(self.states[i].name.as_deref(), "state", i)
    }
}

fn word_name(symbol: Option<&str>, kind: &str, i: usize) -> String {
    symbol
        .filter(|s| !s.is_empty())
        .map(|s| s.replace(char::is_whitespace, "_"))
        .unwrap_or_else(|| format!("{kind}{i}"))
}
