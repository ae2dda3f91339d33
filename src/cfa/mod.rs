//! Control-flow automata (CFA) of sequential programs, as produced by the C front end.
//!
//! A [`Cfa`] is a graph of locations ([`Loc`]) joined by [`Edge`]s. Its expressions are terms
//! of a [`wl::Model`] used as a hash-consed, sort-checked term store ([`Cfa::terms`]): every
//! program variable is a *state* of that model (its term stands for the variable's current
//! value, see [`Var::term`]) and every nondeterministic value (a `__VERIFIER_nondet_*()` call
//! site, an uninitialised local) is an *input* of it ([`Nondet::term`]). The store has no
//! `init`, `next` or properties: the CFA's edges give the behaviour.
//!
//! Semantics (relied on by [`encode`], [`interp`] and every analysis built on the CFA):
//! - execution starts at [`Cfa::entry`] with every variable zero (bit-vectors 0, arrays all
//!   0): the front end makes initialisation explicit with assignments;
//! - an edge `from -> to` fires when its [`Edge::guard`] (a 1-bit term) is true; then all its
//!   [`Edge::assigns`] happen in parallel. Guard and assigned terms are evaluated over the
//!   variables' values *before* the edge and over fresh values of the edge's nondet inputs
//!   ([`Edge::nondets`]; every firing draws new values);
//! - the outgoing edges of a location have mutually exclusive guards (the program is
//!   deterministic once the nondet values are fixed); a location where no guard holds blocks
//!   (an assumption failed, or the program ended at [`Cfa::exit`]);
//! - the property is that [`Cfa::error`] is unreachable;
//! - a program with recursion is inlined up to a bound: a call deeper than the bound goes to
//!   [`Cfa::unwind`] instead, which either leads on to the error (an over-approximation: the
//!   error unreachable means the program is safe, at every depth) or blocks (an
//!   under-approximation: a path to the error is a real one). In the over-approximation, a
//!   deeper call of a function without effects (one that writes no global, `static` or array
//!   argument and cannot reach the error, nor can any function it calls) returns an
//!   arbitrary value instead ([`Nondet::beyond_bound`]): every value it could return is
//!   covered, and the error stays unreachable only if it is in the program. A run that passes
//!   [`Cfa::unwind`] or draws such a value is never a counterexample ([`path::from_trace`]
//!   rejects it).
//!
//! Transformations: [`lbe::large_blocks`] merges loop-free regions into single edges
//! (large-block encoding; remaining locations keep their indices), [`slice::slice`] removes
//! assignments that cannot influence reaching the error (cone of influence).
//! [`encode::encode`] turns a CFA into a word-level transition system for the engines;
//! [`interp`] executes a CFA concretely and [`path`] turns an engine's counterexample into a
//! replayed error path of the original CFA. [`depth::longest_error_path`] bounds the length of
//! every counterexample of a CFA whose paths to the error do not loop.
//!
//! Layer: word level; imports [`crate::wl`] (its terms) and what that may import.

pub mod depth;
pub mod encode;
pub mod interp;
pub mod lbe;
pub mod narrow;
pub mod path;
pub mod slice;
mod subst;
pub mod wto;

use crate::wl::{self, Sort, TermId};

/// A location (node) of a CFA: an index into [`Cfa::locations`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Loc(pub u32);

impl Loc {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A program variable: an index into [`Cfa::vars`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);

impl VarId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What a location stands for in the source, for traces and diagnostics.
#[derive(Clone, Debug, Default)]
pub struct Location {
    /// The source line of the statement the location precedes, if any.
    pub line: Option<u32>,
}

/// A program variable (globals, locals, parameters, return values and the front end's
/// temporaries alike).
#[derive(Clone, Debug)]
pub struct Var {
    /// The source name, made unique (e.g. `f::x`, `main::tmp#3`).
    pub name: String,
    /// Bit-vector (integers, `_Bool` as 1 bit) or array sort.
    pub sort: Sort,
    /// Whether values print as signed numbers (array elements for arrays).
    pub signed: bool,
    /// The state term of [`Cfa::terms`] that stands for the variable's current value.
    pub term: TermId,
}

/// A source of nondeterministic values: an input term of [`Cfa::terms`] that takes a fresh
/// value every time an edge listing it fires.
#[derive(Clone, Debug)]
pub struct Nondet {
    pub term: TermId,
    /// What produced it, for traces (e.g. `__VERIFIER_nondet_int()`).
    pub what: String,
    /// The source line of the call.
    pub line: u32,
    /// For a call, the (1-based) column of its closing parenthesis on `line`: where an
    /// SV-COMP witness places the value the call returns.
    pub column: Option<u32>,
    /// Whether the value prints as a signed number.
    pub signed: bool,
    /// The value of a call deeper than the recursion bound of a function without effects
    /// (see [`Cfa::unwind`]): a run that draws it is not a run of the program.
    pub beyond_bound: bool,
    /// The value of a call answered by its callee's summary (only in a CFA translated with
    /// procedure summaries, see [`Summarized`]).
    pub summarized: Option<Summarized>,
}

/// A call of a recursive function in a CFA translated with procedure summaries
/// ([`crate::front::c::translate_summarized`]), which only [`crate::engine::chc`] reads: the
/// call's results are the values of some state at `returns` (the end of the callee's body,
/// where every run of it ends) in which the variables of `equal` hold the given terms (the
/// callee's parameters, or the copies of their entry values where the body assigns them,
/// and the copies of the written globals' entry values are the arguments and the globals'
/// values at the call, every other global has its value at the call): each
/// variable of `outputs` there is the given nondet value (the return value, and the value
/// of each global the call writes). Terms are evaluated like the edge's that draws the
/// nondet this is attached to.
///
/// The body's states are those of every run of the callee, each started by an edge from a
/// call into the body; none goes on into its caller, which goes on with the call's results.
/// Such a CFA is no CFA of the program for the other analyses: the edges into the body fork
/// a run.
#[derive(Clone, Debug)]
pub struct Summarized {
    pub returns: Loc,
    pub equal: Vec<(VarId, TermId)>,
    pub outputs: Vec<(VarId, TermId)>,
}

/// A transition between two locations (see the module documentation for its semantics).
#[derive(Clone, Debug)]
pub struct Edge {
    pub from: Loc,
    pub to: Loc,
    /// A 1-bit term over variable and nondet terms.
    pub guard: TermId,
    /// Parallel assignments, at most one per variable; the term has the variable's sort.
    pub assigns: Vec<(VarId, TermId)>,
    /// The nondet sources (indices into [`Cfa::nondets`]) drawn when the edge fires, in the
    /// order the program draws them.
    pub nondets: Vec<usize>,
    /// The source lines the edge executes: in order as the front end makes them; as a sorted
    /// set once [`lbe::large_blocks`] merged edges (paths are printed from the unmerged CFA).
    pub lines: Vec<u32>,
}

/// The head of a `while` or `for` loop as the source writes it: the location before every
/// test of the loop condition, where SV-COMP's loop invariants hold
/// ([`crate::witness::loop_invariants`]).
#[derive(Clone, Debug)]
pub struct LoopHead {
    pub loc: Loc,
    /// Where the loop statement starts (1-based line and column).
    pub line: u32,
    pub column: u32,
    /// The function whose body has the loop (inlined: one head per copy).
    pub function: String,
    /// The scalar variables in scope at the loop, by the names the source uses there.
    pub visible: Vec<(String, VarId)>,
}

/// A control-flow automaton with its term store (see the module documentation).
#[derive(Clone, Debug)]
pub struct Cfa {
    pub terms: wl::Model,
    pub vars: Vec<Var>,
    pub nondets: Vec<Nondet>,
    pub locations: Vec<Location>,
    pub edges: Vec<Edge>,
    pub entry: Loc,
    pub error: Loc,
    /// Where the program ends normally (return from `main`, `exit`, `abort`).
    pub exit: Loc,
    /// Where calls deeper than the recursion bound of the inlining go, if any was cut (see
    /// the module documentation).
    pub unwind: Option<Loc>,
    /// The heads of the program's `while` and `for` loops.
    pub loop_heads: Vec<LoopHead>,
}

impl Default for Cfa {
    fn default() -> Cfa {
        Cfa::new()
    }
}

impl Cfa {
    /// A CFA with only its entry, error and exit locations and no edges.
    pub fn new() -> Cfa {
        Cfa {
            terms: wl::Model::new(),
            vars: Vec::new(),
            nondets: Vec::new(),
            locations: vec![Location::default(); 3],
            edges: Vec::new(),
            entry: Loc(0),
            error: Loc(1),
            exit: Loc(2),
            unwind: None,
            loop_heads: Vec::new(),
        }
    }

    pub fn add_location(&mut self, line: Option<u32>) -> Loc {
        self.locations.push(Location { line });
        Loc(self.locations.len() as u32 - 1)
    }

    /// A new variable (its state term is created in the store).
    pub fn add_var(&mut self, name: String, sort: Sort, signed: bool) -> VarId {
        let state = self.terms.add_state(sort, Some(name.clone()));
        let term = self.terms.states()[state].term;
        self.vars.push(Var {
            name,
            sort,
            signed,
            term,
        });
        VarId(self.vars.len() as u32 - 1)
    }

    /// A new nondet source of sort `sort` (a bit-vector, or an array for an uninitialised
    /// array variable).
    pub fn add_nondet(&mut self, sort: Sort, what: String, line: u32, signed: bool) -> usize {
        let term = self.terms.add_input(sort, Some(what.clone()));
        self.nondets.push(Nondet {
            term,
            what,
            line,
            column: None,
            signed,
            beyond_bound: false,
            summarized: None,
        });
        self.nondets.len() - 1
    }

    /// Whether recursion was cut at the inlining bound: a call went to [`Cfa::unwind`] or
    /// returns a value [`Nondet::beyond_bound`].
    pub fn cuts_recursion(&self) -> bool {
        self.unwind.is_some() || self.nondets.iter().any(|n| n.beyond_bound)
    }

    /// The variable whose state term is `t`, if any.
    pub fn var_of_term(&self, t: TermId) -> Option<VarId> {
        self.terms.state_of(t).map(|s| VarId(s as u32))
    }

    /// The constant 1-bit term `value`.
    pub fn bool_const(&mut self, value: bool) -> TermId {
        self.terms
            .constant_term(wl::BitVec::from_u64(1, u64::from(value)))
    }

    /// The locations each location has an edge to.
    pub(crate) fn successors(&self) -> Vec<Vec<usize>> {
        let mut succ = vec![Vec::new(); self.locations.len()];
        for e in &self.edges {
            succ[e.from.index()].push(e.to.index());
        }
        succ
    }

    /// The indices of the edges leaving each location.
    pub fn outgoing(&self) -> Vec<Vec<usize>> {
        let mut out = vec![Vec::new(); self.locations.len()];
        for (i, e) in self.edges.iter().enumerate() {
            out[e.from.index()].push(i);
        }
        out
    }

    /// The variables a term reads (its state leaves).
    pub fn vars_in(&self, t: TermId) -> Vec<VarId> {
        let cone = self.terms.cone([t]);
        self.vars
            .iter()
            .enumerate()
            .filter(|(_, v)| cone[v.term.index()])
            .map(|(i, _)| VarId(i as u32))
            .collect()
    }
}

/// The locations reachable from `start` along `next` (each location's successors).
pub(crate) fn reachable(start: usize, next: &[Vec<usize>]) -> Vec<bool> {
    let mut seen = vec![false; next.len()];
    let mut stack = vec![start];
    while let Some(l) = stack.pop() {
        if !std::mem::replace(&mut seen[l], true) {
            stack.extend(&next[l]);
        }
    }
    seen
}

#[cfg(test)]
mod tests;
