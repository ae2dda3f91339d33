//! One SAT solver per frame (CaDiCaL or [`sat::Cdcl`], `--ic3-sat`), holding the part of the transition relation its queries
//! have touched, and the queries IC3 asks it.
//!
//! Encoding is lazy (an [`Unroller`] with frame 0 = current state, frame 1 = next state): a
//! query encodes the cones of the latches it mentions, so on a large design each solver
//! holds, and CaDiCaL assigns, only the logic the proof has needed so far (as ABC's `pdr`
//! does). Every variable is frozen: cones keep growing under existing gates, lemmas and
//! assumptions name latches at any time, and IC3's thousands of tiny queries gain nothing
//! from eliminating variables that would have to be restored.
//!
//! A query's temporary clause (the negated cube of relative induction, the negated target of
//! lifting) hangs on a fresh activation literal that is switched off by a unit clause at the
//! start of the next call, so the last model and core stay readable until then.

mod domain;
mod lazy_cst;

use super::cube::{Cube, Init};
use super::options::Ic3Sat;
use super::Interrupted;
use crate::aig;
use crate::sat::{self, Cadical, Cdcl, SatResult, Solver};
use crate::ts::TransitionSystem;
use crate::unroll::{Start, Unroller};
use crate::Budget;
use lazy_cst::LazyConstraints;

/// What a query is about: the part of the transition relation it can need, besides the
/// state variables and the constraints (see [`FrameSolver::domain`]).
#[derive(Copy, Clone, Debug)]
pub(super) enum Target<'c> {
    /// The successor lies in this cube (for lifting: must lie in it).
    Cube(&'c [aig::Lit]),
    /// Some bad literal holds in the state itself.
    Bad,
}

/// What a solver asserts besides the transition relation.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub(super) enum Role {
    /// F_0: the reset values and the constraints.
    Init,
    /// F_i, i >= 1, or F_inf: the constraints, plus the lemmas its owner adds.
    Frame,
    /// Lifting: nothing; every query brings its own state and inputs.
    Lift,
}

pub(super) struct FrameSolver<'a> {
    sat: Backend,
    un: Unroller<'a>,
    budget: Budget,
    /// The activation literal of the last query's temporary clause.
    temp: Option<sat::Lit>,
    /// Implies that some bad literal holds (and is implied by each), once encoded.
    bad: Option<sat::Lit>,
    /// Implied by the current-state constraints, once encoded.
    valid: Option<sat::Lit>,
    /// Implies the constraints in the next state, once encoded. Only the check of F_inf's
    /// candidates assumes it ([`Self::implies_next`]); see [`Self::relative_induction`].
    next_valid: Option<sat::Lit>,
    /// The state signals (`--ic3-inn`) that lemmas or queries name in the current state:
    /// roots of every domain, as lemmas over them are clauses of the frame.
    signals: Vec<aig::Var>,
    signals_seen: rustc_hash::FxHashSet<u32>,
    /// The solver variables that clauses added through [`Self::add_clause`] name (lemmas,
    /// shared candidates and their guards), in the order first named: part of every
    /// domain, so that those clauses are made of domain variables (see [`domain`]).
    named: Vec<sat::Var>,
    /// Per solver variable: whether it is in `named`.
    is_named: Vec<bool>,
    /// The variables of the last query's temporary clause (part of its domain).
    temp_vars: Vec<sat::Var>,
    /// The marks of [`Self::domain`]'s traversal (per variable and frame, `stamp` meaning
    /// visited by the current one; allocated by the first traversal, so only with cdcl).
    visited: Vec<u32>,
    stamp: u32,
    /// The current-state constraints, kept out of the domain until a model breaks them
    /// (frame solvers on the CDCL back end; see [`lazy_cst`]).
    lazy: Option<LazyConstraints>,
}

impl<'a> FrameSolver<'a> {
    pub(super) fn new(
        ts: &'a TransitionSystem,
        role: Role,
        budget: &Budget,
        backend: Ic3Sat,
    ) -> FrameSolver<'a> {
        let start = if role == Role::Init {
            Start::Init
        } else {
            Start::Free
        };
        let mut s = FrameSolver {
            sat: match backend {
                Ic3Sat::Cadical => Backend::Cadical(Cadical::for_small_queries(budget).freezing()),
                Ic3Sat::Cdcl => Backend::Cdcl(Box::new(Cdcl::new(budget))),
            },
            un: Unroller::new(ts, start).merging_gates(),
            budget: budget.clone(),
            temp: None,
            bad: None,
            valid: None,
            next_valid: None,
            signals: Vec::new(),
            signals_seen: Default::default(),
            named: Vec::new(),
            is_named: Vec::new(),
            temp_vars: Vec::new(),
            visited: Vec::new(),
            stamp: 0,
            lazy: None,
        };
        if role != Role::Lift {
            for &c in &ts.constraints {
                let l = s.un.lit(&mut s.sat, c, 0);
                s.sat.add_clause(&[l]);
            }
            if backend == Ic3Sat::Cdcl && !ts.constraints.is_empty() {
                s.lazy = Some(LazyConstraints::new(&ts.aig, &ts.constraints));
            }
        }
        s
    }

    pub(super) fn ts(&self) -> &'a TransitionSystem {
        self.un.ts()
    }

    /// The solver literal of latch (or state signal) literal `l` in the current state.
    pub(super) fn cur(&mut self, l: aig::Lit) -> sat::Lit {
        if let aig::Node::And(..) = self.ts().aig.node(l.var()) {
            if self.signals_seen.insert(l.var().index() as u32) {
                self.signals.push(l.var());
            }
        }
        self.un.lit(&mut self.sat, l, 0)
    }

    /// The solver literal of latch literal `l` in the next state.
    pub(super) fn next(&mut self, l: aig::Lit) -> sat::Lit {
        self.un.lit(&mut self.sat, l, 1)
    }

    pub(super) fn add_clause(&mut self, clause: &[sat::Lit]) {
        self.retire();
        for l in clause {
            let v = l.var();
            if self.is_named.len() <= v.idx() {
                self.is_named.resize(v.idx() + 1, false);
            }
            if !self.is_named[v.idx()] {
                self.is_named[v.idx()] = true;
                self.named.push(v);
            }
        }
        self.sat.add_clause(clause);
    }

    /// Asserts the lemma that excludes `cube`.
    pub(super) fn block(&mut self, cube: &[aig::Lit]) {
        let clause: Vec<sat::Lit> = cube.iter().map(|&l| self.cur(!l)).collect();
        self.add_clause(&clause);
    }

    /// A fresh literal to guard clauses with (switched off by adding its negation).
    pub(super) fn guard(&mut self) -> sat::Lit {
        self.sat.new_var().pos_lit()
    }

    /// Solves under `assumptions` with `temp` (if any) added for this call only; the
    /// query is about `target`. `Ok(true)`: satisfiable.
    pub(super) fn solve(
        &mut self,
        temp: Option<&[sat::Lit]>,
        assumptions: &[sat::Lit],
        target: Target,
    ) -> Result<bool, Interrupted> {
        self.retire();
        if self.budget.expired() {
            return Err(Interrupted);
        }
        let mut all = Vec::with_capacity(assumptions.len() + 1);
        self.temp_vars.clear();
        if let Some(temp) = temp {
            self.temp_vars.extend(temp.iter().map(|l| l.var()));
            let act = self.guard();
            let mut clause = Vec::with_capacity(temp.len() + 1);
            clause.push(!act);
            clause.extend_from_slice(temp);
            self.sat.add_clause(&clause);
            self.temp = Some(act);
            all.push(act);
        }
        all.extend_from_slice(assumptions);
        let result = match self.sat {
            Backend::Cadical(ref mut s) => s.solve(&all),
            Backend::Cdcl(_) => loop {
                let domain = self.domain(target, &all);
                let Backend::Cdcl(ref mut s) = self.sat else {
                    unreachable!("matched above")
                };
                let result = s.solve_in(&all, &domain);
                if result != SatResult::Sat || !self.activate_broken() {
                    break result;
                }
            },
        };
        match result {
            SatResult::Sat => Ok(true),
            SatResult::Unsat => Ok(false),
            SatResult::Interrupted => Err(Interrupted),
        }
    }

    /// Whether `cube` fails to be blocked relative to this frame: some state of the frame
    /// outside the cube (satisfying the constraints) has a successor inside it. `Ok(true)`
    /// leaves that predecessor in the model.
    ///
    /// The successor need not satisfy the constraints: the query is weaker than
    /// `F ∧ C ∧ ¬c ∧ T ∧ C' ∧ c'`, so a lemma it yields holds all the more, and a chain of
    /// predecessors stays a real trace because lifting keeps every state of a lifted cube
    /// within the constraints. Leaving `C'` out takes the next state's constraint cones out
    /// of the query's domain (see [`domain`]): on designs with many constraints they were
    /// most of it (zipcpu_piped-p163: 1.86 ms per query with them, 0.30 ms without; on 24
    /// dev-set unsat tasks with constraints, IC3 alone solved 15 instead of 14, PAR-2 384
    /// instead of 423).
    pub(super) fn relative_induction(&mut self, cube: &[aig::Lit]) -> Result<bool, Interrupted> {
        let negated: Vec<sat::Lit> = cube.iter().map(|&l| self.cur(!l)).collect();
        let assumptions: Vec<sat::Lit> = cube.iter().map(|&l| self.next(l)).collect();
        self.solve(Some(&negated), &assumptions, Target::Cube(cube))
    }

    /// Like [`Self::relative_induction`] without the negated cube, the cube's clause being
    /// among those `guard` switches on.
    pub(super) fn implies_next(
        &mut self,
        guard: sat::Lit,
        cube: &[aig::Lit],
    ) -> Result<bool, Interrupted> {
        let mut assumptions = vec![guard];
        assumptions.extend(cube.iter().map(|&l| self.next(l)));
        assumptions.extend(self.next_valid());
        self.solve(None, &assumptions, Target::Cube(cube))
    }

    /// After a blocked [`Self::relative_induction`] of `cube`: the literals of `cube` the proof
    /// used, plus one that excludes the initial states if the proof used none.
    pub(super) fn core(&self, init: &Init, cube: &[aig::Lit]) -> Cube {
        let mut core: Cube = (cube.iter().copied())
            .filter(|&l| self.un.encoded(l, 1).is_some_and(|n| self.sat.failed(n)))
            .collect();
        if !init.excludes(&core) {
            core.extend(init.excluding(cube));
            core.sort();
        }
        core
    }

    /// Whether some state of this frame is bad. `Ok(true)` leaves it in the model.
    pub(super) fn bad_state(&mut self) -> Result<bool, Interrupted> {
        let bad = self.bad();
        self.solve(None, &[bad], Target::Bad)
    }

    /// After a satisfiable query: the current state (every latch) and the input values.
    /// Latches and inputs the query did not encode or decide (outside its domain, with the
    /// CDCL back end) cannot matter and read as false.
    pub(super) fn state(&self) -> (Cube, Vec<bool>) {
        let ts = self.un.ts();
        let state = (ts.latches.iter())
            .map(|l| {
                let lit = l.var.lit();
                lit.xor_sign(!self.un.value(&self.sat, lit, 0))
            })
            .collect();
        let inputs = (ts.inputs.iter())
            .map(|i| self.un.value(&self.sat, i.lit(), 0))
            .collect();
        (state, inputs)
    }

    /// After a satisfiable query: whether cube literal `l` holds in the current state (an
    /// unencoded variable reads as false, as in [`Self::state`]).
    pub(super) fn holds(&self, l: aig::Lit) -> bool {
        self.un.value(&self.sat, l.var().lit(), 0) ^ l.is_negated()
    }

    /// The literal of latch or input literal `l` in the current state, if a query encoded it.
    pub(super) fn encoded(&self, l: aig::Lit) -> Option<sat::Lit> {
        self.un.encoded(l, 0)
    }

    /// After an unsatisfiable query: whether assumption `lit` took part in the refutation.
    pub(super) fn failed(&self, lit: sat::Lit) -> bool {
        self.sat.failed(lit)
    }

    /// A literal implied by "some bad literal holds" and implying it.
    pub(super) fn bad(&mut self) -> sat::Lit {
        if let Some(b) = self.bad {
            return b;
        }
        let ts = self.un.ts();
        let bads: Vec<sat::Lit> = ts
            .bad
            .iter()
            .map(|&b| self.un.lit(&mut self.sat, b, 0))
            .collect();
        let any = self.sat.new_var().pos_lit();
        let mut clause = vec![!any];
        clause.extend_from_slice(&bads);
        self.sat.add_clause(&clause);
        for b in bads {
            self.sat.add_clause(&[any, !b]);
        }
        *self.bad.insert(any)
    }

    /// A literal implied by the conjunction of the current-state constraints (lifting
    /// negates it: a lifted cube must satisfy them). `None`: no constraints.
    pub(super) fn valid(&mut self) -> Option<sat::Lit> {
        if self.un.ts().constraints.is_empty() {
            return None;
        }
        if self.valid.is_none() {
            let v = self.sat.new_var().pos_lit();
            let mut clause = vec![v];
            for &c in &self.un.ts().constraints {
                clause.push(!self.un.lit(&mut self.sat, c, 0));
            }
            self.sat.add_clause(&clause);
            self.valid = Some(v);
        }
        self.valid
    }

    /// A literal that implies the constraints in the next state. `None`: no constraints.
    fn next_valid(&mut self) -> Option<sat::Lit> {
        if self.un.ts().constraints.is_empty() {
            return None;
        }
        if self.next_valid.is_none() {
            let v = self.sat.new_var().pos_lit();
            for &c in &self.un.ts().constraints {
                let l = self.un.lit(&mut self.sat, c, 1);
                self.sat.add_clause(&[!v, l]);
            }
            self.next_valid = Some(v);
        }
        self.next_valid
    }

    fn retire(&mut self) {
        if let Some(act) = self.temp.take() {
            self.sat.add_clause(&[!act]);
        }
    }
}

/// The SAT solver of a frame. CaDiCaL's variables are frozen at birth ([`Cadical::freezing`],
/// see the module documentation); the CDCL solver eliminates none.
enum Backend {
    Cadical(Cadical),
    Cdcl(Box<Cdcl>),
}

impl Backend {
    fn solver(&mut self) -> &mut dyn Solver {
        match self {
            Backend::Cadical(s) => s,
            Backend::Cdcl(s) => s.as_mut(),
        }
    }
}

impl Solver for Backend {
    fn new_var(&mut self) -> sat::Var {
        self.solver().new_var()
    }
    fn add_clause(&mut self, lits: &[sat::Lit]) {
        self.solver().add_clause(lits)
    }
    fn solve(&mut self, assumptions: &[sat::Lit]) -> SatResult {
        self.solver().solve(assumptions)
    }
    fn value(&self, lit: sat::Lit) -> Option<bool> {
        match self {
            Backend::Cadical(s) => s.value(lit),
            Backend::Cdcl(s) => s.value(lit),
        }
    }
    fn failed(&self, lit: sat::Lit) -> bool {
        match self {
            Backend::Cadical(s) => s.failed(lit),
            Backend::Cdcl(s) => s.failed(lit),
        }
    }
    fn set_frozen(&mut self, var: sat::Var, frozen: bool) {
        self.solver().set_frozen(var, frozen)
    }
}
