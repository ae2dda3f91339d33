//! One incremental SAT solver for all of a search's queries (is a path condition
//! satisfiable, is a state covered), over AIG cones encoded as they are first asked about.
//!
//! The lazy unroller of the other engines holds the graph for its lifetime; symbolic
//! execution adds gates between two queries, so this encoder keeps only its map from AIG
//! variables to solver literals and is handed the graph at each call. Every leaf is one
//! solver variable for the whole search: a query is a conjunction over the variable leaves
//! (or over a post's identifiers), and the gate definitions it leaves behind constrain
//! nothing.

use std::collections::HashMap;

use crate::aig::{self, Aig, Node};
use crate::sat::tseitin::Gates;
use crate::sat::{self, Cadical, SatResult, Solver as _};
use crate::Budget;

pub(super) struct Solver {
    solver: Cadical,
    gates: Gates,
    map: HashMap<aig::Var, sat::Lit>,
    pub queries: u64,
}

impl Solver {
    pub fn new(budget: &Budget) -> Solver {
        Solver {
            // Many small queries on a formula that grows between them.
            solver: Cadical::for_small_queries(budget).freezing(),
            gates: Gates::default(),
            map: HashMap::new(),
            queries: 0,
        }
    }

    /// The solver literal of `l`, its cone encoded where it is not yet.
    fn lit(&mut self, aig: &Aig, l: aig::Lit) -> sat::Lit {
        let mut stack = vec![(l.var(), false)];
        while let Some((v, expanded)) = stack.pop() {
            if self.map.contains_key(&v) {
                continue;
            }
            let x = match aig.node(v) {
                Node::False => self.gates.false_lit(&mut self.solver),
                Node::Leaf => self.solver.new_var().pos_lit(),
                Node::And(a, b) if expanded => {
                    let la = self.map[&a.var()];
                    let lb = self.map[&b.var()];
                    let la = if a.is_negated() { !la } else { la };
                    let lb = if b.is_negated() { !lb } else { lb };
                    self.gates.and(&mut self.solver, la, lb)
                }
                Node::And(a, b) => {
                    stack.extend([(v, true), (a.var(), false), (b.var(), false)]);
                    continue;
                }
            };
            self.map.insert(v, x);
        }
        let x = self.map[&l.var()];
        if l.is_negated() {
            !x
        } else {
            x
        }
    }

    /// Whether the conjunction of `lits` and the negations of `nots` is satisfiable
    /// (`None`: interrupted).
    pub fn satisfiable_with(
        &mut self,
        aig: &Aig,
        lits: &[aig::Lit],
        nots: &[aig::Lit],
    ) -> Option<bool> {
        let mut assumed: Vec<sat::Lit> = lits.iter().map(|&l| self.lit(aig, l)).collect();
        assumed.extend(nots.iter().map(|&l| !self.lit(aig, l)));
        self.queries += 1;
        match self.solver.solve(&assumed) {
            SatResult::Sat => Some(true),
            SatResult::Unsat => Some(false),
            SatResult::Interrupted => None,
        }
    }

    /// Whether the conjunction of `lits` is satisfiable (`None`: interrupted).
    pub fn satisfiable(&mut self, aig: &Aig, lits: &[aig::Lit]) -> Option<bool> {
        self.satisfiable_with(aig, lits, &[])
    }
}
