//! Proofs of C programs by constrained Horn clauses over linear integer arithmetic, solved by
//! Z3's Spacer: one predicate per location of the (large-block) CFA, one clause per edge, and
//! the error and every overflow as queries ([`lia`] says how terms become integers and why
//! that is sound).
//!
//! It is there for the loops whose invariant is arithmetic (`i <= n`, `k < i ==> a_k >= k + 2`
//! over an array's cell): the bit-level engines unroll such loops instead of generalising
//! them. It only ever proves: a counterexample of the clauses may be an overflow, a fresh
//! value or a cell abstraction's artefact, so it is `unknown` and left to BMC.
//!
//! Spacer's answer is not trusted: the interpretation of every predicate it returns is
//! checked clause by clause with a fresh solver (initiation, consecution, the error and the
//! overflows excluded) before [`Outcome::Proved`] is returned.

mod layout;
mod lia;
mod live;
mod spacer;
#[cfg(test)]
mod tests;

use std::time::Instant;

use z3::ast::{forall_const, Ast, Bool, Dynamic};
use z3::{Context, FuncDecl, SatResult, Solver, Sort as ZSort};

use crate::cfa::{Cfa, Loc};
use crate::engine::smt::interruptible;
use crate::engine::Stats;
use crate::wl::{Op, Sort, TermId};
use crate::Budget;
use layout::{all, any, Layout, View};
use lia::Frame;
use spacer::Answer;
pub use spacer::{installed_z3, serve, Question, Spacer};

/// The answer of the Horn-clause engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The error is unreachable: Spacer's invariant passed the check.
    Proved,
    /// Not proved, and why.
    Unknown(String),
}

/// What one run cost.
#[derive(Clone, Debug, Default)]
pub struct Horn {
    spacer: Spacer,
    clauses: u64,
    /// Spacer's runs (a configuration on one round's clauses).
    rounds: u64,
    solve_ms: u64,
    check_ms: u64,
}

/// A Horn clause: `from(args) ∧ calls ∧ constraint ⟹ to(args)`, `from` absent for the
/// entry's fact, `to` absent for a query (`false`); `calls` are the states at a callee's end
/// that the edge's summarized calls read (non-linear clauses, [`crate::cfa::Summarized`]).
struct Clause<'c> {
    from: Option<(Loc, Vec<Dynamic<'c>>)>,
    calls: Vec<(Loc, Vec<Dynamic<'c>>)>,
    constraint: Bool<'c>,
    to: Option<(Loc, Vec<Dynamic<'c>>)>,
    /// Every constant the clause is universally quantified over.
    bound: Vec<Dynamic<'c>>,
    /// Whether the clause is an overflow query.
    overflow: bool,
}

impl Horn {
    /// Runs Spacer where `spacer` says.
    pub fn new(spacer: Spacer) -> Horn {
        Horn {
            spacer,
            ..Horn::default()
        }
    }

    /// The number of clauses of the last run.
    pub fn clauses(&self) -> usize {
        self.clauses as usize
    }

    pub fn stats(&self) -> Stats {
        vec![
            ("chc_clauses", self.clauses),
            ("chc_spacer_runs", self.rounds),
            ("chc_solve_ms", self.solve_ms),
            ("chc_check_ms", self.check_ms),
        ]
    }

    /// Tries to prove the error location of `cfa` unreachable.
    pub fn prove(&mut self, cfa: &Cfa, budget: &Budget) -> Outcome {
        // Ranges are computed in `i128`: a wider word (none in C up to `long long`) would get
        // a range narrower than its values, and its fresh values would miss some.
        let wide = (0..cfa.terms.num_terms())
            .any(|t| cfa.terms.sort(TermId(t as u32)).element_width() > layout::MAX_WIDTH);
        if wide {
            return Outcome::Unknown(format!("a word wider than {} bits", layout::MAX_WIDTH));
        }
        let ctx = Context::new(&z3::Config::new());
        interruptible(&ctx, budget, || self.solve(&ctx, cfa, budget))
    }

    /// Spacer on the clauses without the overflow queries first (they make its obligations
    /// harder: a loop over an array's cells, 0.2 s without them, `unknown` after 20 s with
    /// them), its invariant checked against all clauses; then on all clauses when that
    /// invariant allows an overflow; then, when the clauses reach an overflow or the error
    /// or the invariant still allows an overflow, on the exact clauses, which wrap around
    /// as the bit-vectors do ([`lia`]'s exact mode).
    fn solve<'c>(&mut self, ctx: &'c Context, cfa: &Cfa, budget: &Budget) -> Outcome {
        let layout = Layout::new(cfa);
        let mut clauses = clauses(ctx, cfa, &layout, false);
        self.clauses = clauses.len() as u64;
        // The constants the interpretations are read over; their sorts are the predicates'.
        let (params, _) = layout.constants(ctx, cfa, "p");
        // Each location's predicate has an argument per slot it keeps ([`live`]).
        let summaries = cfa.nondets.iter().any(|n| n.summarized.is_some());
        let kept = match summaries {
            true => live::live_slots(cfa, params.len()),
            false => vec![(0..params.len()).collect(); cfa.locations.len()],
        };
        let preds: Vec<FuncDecl> = (kept.iter().enumerate())
            .map(|(l, slots)| {
                let sorts: Vec<ZSort> = slots.iter().map(|&i| params[i].get_sort()).collect();
                let sort_refs: Vec<&ZSort> = sorts.iter().collect();
                FuncDecl::new(ctx, format!("L{l}"), &sort_refs, &ZSort::bool(ctx))
            })
            .collect();
        let pick = |l: usize, args: &[Dynamic<'c>]| -> Vec<Dynamic<'c>> {
            kept[l].iter().map(|&i| args[i].clone()).collect()
        };
        let apply = |l: Loc, args: &[Dynamic<'c>]| -> Bool<'c> {
            let args = pick(l.index(), args);
            let refs: Vec<&dyn Ast> = args.iter().map(|a| a as &dyn Ast).collect();
            preds[l.index()]
                .apply(&refs)
                .as_bool()
                .expect("a predicate")
        };
        // Each predicate applied to the parameters, whose values in Spacer's model are its
        // interpretation; read back by `reader` (which outlives what it parses).
        let mut question = Question {
            constants: declarations(&params),
            predicates: preds.iter().map(|f| format!("{f}\n")).collect(),
            terms: (preds.iter().enumerate())
                .map(|(l, f)| apply_text(f, &pick(l, &params)))
                .collect(),
            ..Question::default()
        };
        let reader = Solver::new(ctx);
        let mut outcome = Outcome::Unknown("no round".into());
        let configs = self.spacer.configs(summaries);
        // (exact, with the overflow queries); an exact clause never overflows.
        let exact_round = (true, false);
        let unsigned = Frame::new(ctx, cfa, &layout, &[], true).computes_unsigned();
        let mut rounds = vec![(false, false), (false, true)];
        rounds.extend(unsigned.then_some(exact_round));
        let mut rounds = rounds.into_iter();
        while let Some((exact, with_overflow)) = rounds.next() {
            if exact {
                clauses = self::clauses(ctx, cfa, &layout, true);
            }
            // A solver that only prints the clauses as SMT-LIB2.
            let script = Solver::new(ctx);
            for c in clauses.iter().filter(|c| with_overflow || !c.overflow) {
                script.assert(&render(ctx, c, &apply));
            }
            question.clauses = script.to_string();
            // Each configuration gets an equal share of the time left to the round's rest.
            let mut answer = Answer::Unknown("no configuration".into());
            for (n, config) in configs.iter().enumerate() {
                let share = budget
                    .remaining()
                    .map(|left| left / (configs.len() - n) as u32);
                let slice = share.map_or_else(|| budget.child(), |d| budget.child_for(d));
                let start = Instant::now();
                answer = self.spacer.solve(&question, config, &slice);
                self.solve_ms += start.elapsed().as_millis() as u64;
                self.rounds += 1;
                match &answer {
                    Answer::Unknown(why) if !budget.expired() => {
                        crate::log::info(2, format_args!("chc: {config:?}: {why}"));
                    }
                    _ => break,
                }
            }
            let model = match answer {
                Answer::Model(model) => model,
                Answer::Refuted if !exact && unsigned => {
                    crate::log::info(2, format_args!("chc: refuted; the exact clauses next"));
                    rounds = vec![exact_round].into_iter();
                    continue;
                }
                Answer::Refuted => {
                    return Outcome::Unknown(
                        "the clauses reach the error or an overflow (maybe only through \
                         the abstraction)"
                            .into(),
                    )
                }
                Answer::Unknown(why) => return Outcome::Unknown(why),
            };
            reader.reset();
            let Some(interps) = interpretations(&reader, &model, &params, preds.len()) else {
                return Outcome::Unknown("Spacer's model does not read back".into());
            };
            let start = Instant::now();
            let checked = check(ctx, &clauses, &interps, &params);
            self.check_ms += start.elapsed().as_millis() as u64;
            outcome = match checked {
                Ok(()) => return Outcome::Proved,
                Err(why) => {
                    crate::log::info(1, format_args!("chc: {why}"));
                    Outcome::Unknown(why)
                }
            };
        }
        outcome
    }
}

/// SMT-LIB2 declarations of the constants `params`.
fn declarations(params: &[Dynamic]) -> String {
    (params.iter())
        .map(|p| format!("(declare-fun {p} () {})\n", p.get_sort()))
        .collect()
}

/// `f` applied to `params` in SMT-LIB2.
fn apply_text(f: &FuncDecl, params: &[Dynamic]) -> String {
    match params.is_empty() {
        true => f.name(),
        false => {
            let args: Vec<String> = params.iter().map(|p| p.to_string()).collect();
            format!("({} {})", f.name(), args.join(" "))
        }
    }
}

/// The interpretations of the `count` predicates over `params` that Spacer's `model` gives
/// ([`Answer::Model`]), parsed by `reader`; `None` when the text does not parse into as many
/// formulas.
fn interpretations<'c>(
    reader: &'c Solver,
    model: &str,
    params: &[Dynamic],
    count: usize,
) -> Option<Vec<Bool<'c>>> {
    reader.from_string(declarations(params) + model);
    let read = reader.get_assertions();
    (read.len() == count).then_some(read)
}

/// `from ∧ constraint ⟹ to` with the predicates applied by `apply`, quantified.
fn render<'c>(
    ctx: &'c Context,
    c: &Clause<'c>,
    apply: &dyn Fn(Loc, &[Dynamic<'c>]) -> Bool<'c>,
) -> Bool<'c> {
    let mut body = vec![c.constraint.clone()];
    for (l, args) in c.from.iter().chain(&c.calls) {
        body.push(apply(*l, args));
    }
    let refs: Vec<&Bool> = body.iter().collect();
    let head = match &c.to {
        Some((l, args)) => apply(*l, args),
        None => Bool::from_bool(ctx, false),
    };
    let clause = all(ctx, &refs).implies(&head);
    let bound: Vec<&dyn Ast> = c.bound.iter().map(|a| a as &dyn Ast).collect();
    forall_const(ctx, &bound, &[], &clause)
}

/// Whether every clause holds with the predicates interpreted (`interps`, over `params`):
/// its body and the negation of its head unsatisfiable, each in a fresh solver.
fn check<'c>(
    ctx: &'c Context,
    clauses: &[Clause<'c>],
    interps: &[Bool<'c>],
    params: &[Dynamic<'c>],
) -> Result<(), String> {
    // The interpretation of `l` over `args` instead of `params`.
    let interpret = |l: Loc, args: &[Dynamic<'c>]| -> Bool<'c> {
        let pairs: Vec<(&Dynamic, &Dynamic)> = params.iter().zip(args).collect();
        interps[l.index()].substitute(&pairs)
    };
    for (i, c) in clauses.iter().enumerate() {
        let solver = Solver::new(ctx);
        solver.assert(&c.constraint);
        for (l, args) in c.from.iter().chain(&c.calls) {
            solver.assert(&interpret(*l, args));
        }
        if let Some((l, args)) = &c.to {
            solver.assert(&interpret(*l, args).not());
        }
        match solver.check() {
            SatResult::Unsat => {}
            SatResult::Sat => return Err(format!("Spacer's invariant fails clause {i}")),
            SatResult::Unknown => return Err(format!("the check of clause {i} gave up")),
        }
    }
    Ok(())
}

/// The clauses of `cfa`: the entry with every variable zero, one per edge (to `false` into
/// the error), and one per edge whose guard, or whose assignments when it fires, may
/// overflow (none may when `exact`: [`Frame`]'s exact mode).
///
/// The overflow queries read a state whose variables that the edge reads are in their
/// ranges. That is sound by induction over a run: the entry's state is in range, and a step
/// that does not overflow (the overflow query of its edge, from a state in range) computes
/// every value in range. So no invariant has to carry those ranges itself: Spacer's for
/// `array_init_pair_symmetr2` left a loop counter and a length unbounded, and the final
/// loop's index failed its conversion to the cell index at 2^32. (The ranges of every
/// variable, read or not, doubled Spacer's time on `Ackermann03`; in the error query too,
/// they kept the linked Z3's Spacer from proving `s == 3 * n` after a counting loop.)
fn clauses<'c>(ctx: &'c Context, cfa: &Cfa, layout: &Layout, exact: bool) -> Vec<Clause<'c>> {
    let mut out = Vec::new();
    // Only the cell indices are free at the entry (a constant quantified for nothing makes
    // Spacer's interpretation of the entry existential, which the check cannot decide).
    let (ks, ranges) = layout.cell_indices(ctx, "e");
    let range_refs: Vec<&Bool> = ranges.iter().collect();
    out.push(Clause {
        from: None,
        calls: Vec::new(),
        constraint: all(ctx, &range_refs),
        to: Some((cfa.entry, layout.entry(ctx, cfa, &ks))),
        bound: ks,
        overflow: false,
    });
    for (n, e) in cfa.edges.iter().enumerate() {
        if e.from == cfa.error || e.from == cfa.exit {
            continue;
        }
        let (state, _) = layout.constants(ctx, cfa, &format!("x{n}_"));
        let mut frame = Frame::new(ctx, cfa, layout, &state, exact);
        let guard = frame.bit(e.guard);
        let mut fires = vec![guard.value.clone()];
        let mut next = state.clone();
        let mut assign_overflow = Vec::new();
        // What the edge reads: the guard, and the assignments unless it ends the run.
        let mut read = vec![e.guard];
        if e.to != cfa.error && e.to != cfa.exit {
            read.extend(e.assigns.iter().map(|&(_, t)| t));
        }
        let read = cfa.terms.cone(read);
        if e.to == cfa.error {
            // A read in the guard at one index term: its cell index is that index (sound
            // for every term, see `cell_conditions`), so the read is the exact cell.
            fires.extend(cell_conditions(&mut frame, cfa, &read));
        } else if e.to != cfa.exit {
            for &(v, t) in &e.assigns {
                let i = v.index();
                let value = frame.value(t, frame.var_view(i));
                next[i] = value.value;
                assign_overflow.push(value.overflow);
            }
        }
        // An overflow is an error too: one whose operands read an array at one index term
        // is asked where that term is the cell index (`cell_conditions`), so that the
        // fresh values read elsewhere (`c[i] = a[i] + b[i]`, each an arbitrary `int` off
        // the cell) do not overflow for the abstraction alone.
        let at_cell = cell_conditions(&mut frame, cfa, &read);
        let calls = summaries(ctx, cfa, layout, &mut frame, &state, e, n);
        assign_overflow.extend(calls.overflow);
        let side: Vec<Bool> = [frame.side.clone(), calls.constraint].concat();
        let mut bound = state.clone();
        bound.extend(frame.drawn.iter().cloned());
        bound.extend(calls.bound);
        let and = |parts: &[Bool<'c>]| all(ctx, &parts.iter().collect::<Vec<_>>());
        let ranges = read_ranges(ctx, cfa, layout, &state, &read);
        let fires_all = and(&[side.clone(), fires].concat());
        let assigns_overflow = any(ctx, &assign_overflow.iter().collect::<Vec<_>>());
        let overflow = any(
            ctx,
            &[
                &guard.overflow,
                &all(ctx, &[&guard.value, &assigns_overflow]),
            ],
        );
        let known = layout.lifted_values(ctx, &state);
        out.push(Clause {
            from: Some((e.from, state.clone())),
            calls: calls.states.clone(),
            constraint: and(&[side, known, ranges, at_cell, vec![overflow]].concat()),
            to: None,
            bound: bound.clone(),
            overflow: true,
        });
        if e.to != cfa.exit {
            let to = (e.to != cfa.error).then_some((e.to, next));
            out.push(Clause {
                from: Some((e.from, state)),
                calls: calls.states,
                constraint: fires_all,
                to,
                bound,
                overflow: false,
            });
        }
    }
    out
}

/// The ranges of the variables (over `state`) that the terms of `cone` (marked by term
/// number) read.
fn read_ranges<'c>(
    ctx: &'c Context,
    cfa: &Cfa,
    layout: &Layout,
    state: &[Dynamic<'c>],
    cone: &[bool],
) -> Vec<Bool<'c>> {
    let read = (cone.iter().enumerate()).filter(|(_, &c)| c);
    read.filter_map(|(t, _)| match cfa.terms.term(TermId(t as u32)).op {
        Op::State(i) => Some(i),
        _ => None,
    })
    .filter_map(|i| {
        let x = state[i].as_int()?;
        Some(layout::in_range(
            ctx,
            &x,
            layout.views[i],
            cfa.vars[i].sort.element_width(),
        ))
    })
    .collect()
}

/// What the summarized calls of an edge add to its clauses ([`crate::cfa::Summarized`]).
struct Calls<'c> {
    /// The state at the callee's end that each call reads.
    states: Vec<(Loc, Vec<Dynamic<'c>>)>,
    /// Those states' ranges and invariant slots, the call's equalities and its value.
    constraint: Vec<Bool<'c>>,
    /// When computing the arguments overflows.
    overflow: Vec<Bool<'c>>,
    /// The constants of those states.
    bound: Vec<Dynamic<'c>>,
}

/// The summarized calls that edge `e` (number `n`, read over `state` by `frame`) draws:
/// each reads a state at its callee's end (fresh constants) whose variables of
/// [`crate::cfa::Summarized::equal`] hold the terms given, whose outputs are the call's
/// values, and whose cell indices and lifted constants are the edge's.
fn summaries<'c>(
    ctx: &'c Context,
    cfa: &Cfa,
    layout: &Layout,
    frame: &mut Frame<'c, '_>,
    state: &[Dynamic<'c>],
    e: &crate::cfa::Edge,
    n: usize,
) -> Calls<'c> {
    let mut calls = Calls {
        states: Vec::new(),
        constraint: Vec::new(),
        overflow: Vec::new(),
        bound: Vec::new(),
    };
    let summarized = (e.nondets.iter()).filter_map(|&j| cfa.nondets[j].summarized.as_ref());
    for (k, call) in summarized.enumerate() {
        let (w, ranges) = layout.constants(ctx, cfa, &format!("s{n}_{k}_"));
        calls.constraint.extend(ranges);
        calls.constraint.extend(layout.lifted_values(ctx, &w));
        for &width in &layout.index_widths {
            let slot = layout.index_slot(width);
            calls.constraint.push(w[slot]._eq(&state[slot]));
        }
        // The outputs are the call's nondet values, which never overflow.
        for &(v, t) in call.equal.iter().chain(&call.outputs) {
            let value = frame.value(t, frame.var_view(v.index()));
            calls.constraint.push(w[v.index()]._eq(&value.value));
            calls.overflow.push(value.overflow);
        }
        calls.bound.extend(w.iter().cloned());
        calls.states.push((call.returns, w));
    }
    calls
}

/// For each array index width that the reads among the terms of `cone` (marked by term
/// number: what an edge into the error, or an overflow, reads) use with one index term `t`
/// only: `t` equals the cell index.
///
/// Sound for any term `t`: the abstraction has, for every choice of the cell indices, a run
/// that follows the program's run step by step (each fresh value taking the program's), so
/// a run of the program that reaches the error (or overflows) is matched by the run whose
/// cell index is the value `t` has when the edge fires; the condition only drops the others.
fn cell_conditions<'c>(frame: &mut Frame<'c, '_>, cfa: &Cfa, cone: &[bool]) -> Vec<Bool<'c>> {
    let mut index_terms: Vec<(u32, Option<TermId>)> = Vec::new();
    for (t, _) in cone.iter().enumerate().filter(|(_, &c)| c) {
        let term = cfa.terms.term(TermId(t as u32));
        if term.op != Op::Read {
            continue;
        }
        let width = match cfa.terms.sort(term.args[0]) {
            Sort::Array { index, .. } => index,
            Sort::Bv(_) => continue,
        };
        let at = term.args[1];
        match index_terms.iter_mut().find(|(w, _)| *w == width) {
            Some((_, seen)) if *seen != Some(at) => *seen = None,
            Some(_) => {}
            None => index_terms.push((width, Some(at))),
        }
    }
    (index_terms.into_iter())
        .filter_map(|(width, at)| {
            let at = at?;
            let index = frame.num(at, View::Unsigned);
            let k = frame.cell_index(width);
            Some(index.value._eq(&k))
        })
        .collect()
}
