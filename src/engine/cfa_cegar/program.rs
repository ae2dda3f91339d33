//! A CFA's edges as circuits: every guard and assignment bit-blasted once into one AIG whose
//! leaves stand for the bits of the program variables (before the edge) and of the nondet
//! values, so that a path or an abstract post puts one copy of an edge's circuit per firing
//! into a SAT solver (fresh nondet bits each time) and predicates are AIG functions over the
//! same variable leaves.

use crate::aig::{self, Aig};
use crate::cfa::Cfa;
use crate::sat::{self, Solver};
use crate::ts::TransitionSystem;
use crate::unroll::{Start, Unroller};
use crate::wl;
use crate::Budget;

/// One edge's circuit.
pub(super) struct EdgeBits {
    /// When the edge fires.
    pub guard: aig::Lit,
    /// Every variable's bits after the edge (its own leaves when the edge does not assign it).
    pub next: Vec<Vec<aig::Lit>>,
}

/// The circuits of a CFA's edges and its predicates.
pub(super) struct Program<'a> {
    pub cfa: &'a Cfa,
    /// The circuits (only `aig` is used: a system without latches, so that [`Unroller`]
    /// Tseitin-encodes copies of them with leaves bound to solver literals).
    pub circuits: TransitionSystem,
    /// The leaves of each variable's bits (arrays flattened element by element).
    pub vars: Vec<Vec<aig::Lit>>,
    /// The leaves of each nondet source's bits.
    pub nondets: Vec<Vec<aig::Lit>>,
    /// The input of the term store (and of the encoded model) of each nondet source.
    pub nondet_inputs: Vec<usize>,
    pub edges: Vec<EdgeBits>,
}

impl<'a> Program<'a> {
    /// Blasts every edge of `cfa`, or says why it could not: what the blaster does not
    /// support (arrays too large), or `budget` expiring during the blasting.
    pub fn new(cfa: &'a Cfa, budget: &Budget) -> Result<Program<'a>, wl::blast::BlastError> {
        let mut aig = Aig::new();
        let var_bits: Vec<wl::Bits> = (cfa.vars.iter())
            .map(|v| wl::blast::leaf_bits(&mut aig, v.sort))
            .collect();
        let nondet_bits: Vec<wl::Bits> = (cfa.terms.inputs().iter())
            .map(|i| wl::blast::leaf_bits(&mut aig, i.sort))
            .collect();
        let mut roots = Vec::new();
        for e in &cfa.edges {
            roots.push(e.guard);
            roots.extend(e.assigns.iter().map(|&(_, t)| t));
        }
        let blasted = wl::blast::blast_terms(
            &cfa.terms,
            &mut aig,
            &nondet_bits,
            &var_bits,
            &roots,
            budget,
        )?;
        let vars: Vec<Vec<aig::Lit>> = var_bits.iter().map(wl::Bits::flat).collect();
        let mut at = 0;
        let mut edges = Vec::with_capacity(cfa.edges.len());
        for e in &cfa.edges {
            let guard = blasted[at].flat()[0];
            at += 1;
            let mut next = vars.clone();
            for &(v, _) in &e.assigns {
                next[v.index()] = blasted[at].flat();
                at += 1;
            }
            edges.push(EdgeBits { guard, next });
        }
        // The translator makes every nondet source an input term; anything else is its bug
        // (a panic: `unknown`, exit 3).
        let nondet_inputs: Vec<usize> = (cfa.nondets.iter())
            .map(|n| match cfa.terms.term(n.term).op {
                wl::Op::Input(j) => j,
                _ => panic!("nondet source {} is not an input term", n.what),
            })
            .collect();
        let nondets = nondet_inputs
            .iter()
            .map(|&j| nondet_bits[j].flat())
            .collect();
        Ok(Program {
            cfa,
            circuits: TransitionSystem {
                aig,
                ..TransitionSystem::default()
            },
            vars,
            nondets,
            nondet_inputs,
            edges,
        })
    }

    pub fn aig(&self) -> &Aig {
        &self.circuits.aig
    }

    /// A view of the circuits in which the variable leaves are `state` (solver literals, per
    /// variable and bit); other leaves get fresh variables as they are reached.
    pub fn view(&self, state: &[Vec<sat::Lit>]) -> Unroller<'_> {
        let mut un = Unroller::new(&self.circuits, Start::Free);
        for (leaves, lits) in self.vars.iter().zip(state) {
            for (l, &s) in leaves.iter().zip(lits) {
                un.bind(l.var(), 0, s);
            }
        }
        un
    }

    /// Fresh solver variables for every variable bit.
    pub fn fresh_state(&self, s: &mut impl Solver) -> Vec<Vec<sat::Lit>> {
        (self.vars.iter())
            .map(|bits| bits.iter().map(|_| s.new_var().pos_lit()).collect())
            .collect()
    }
}
