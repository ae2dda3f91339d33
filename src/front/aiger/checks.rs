//! The structural checks of a parsed circuit, which the reader runs before it accepts a
//! file: every literal used is defined, the AND gates have an order (ASCII files may list
//! them in any order; the writer needs one), and the reset functions are stratified. Kept
//! apart from the reader's byte-level parsing because they walk the whole circuit, not the
//! input.

use super::parse::{line_error, ParseError};
use super::var_table::VarTable;
use super::Aiger;

/// Checks that every literal read by the circuit refers to a defined variable. Walks the
/// sections in file order from the first latch line, so the first offending line is named.
pub(super) fn check_uses(
    aig: &Aiger,
    first_latch_line: usize,
    defined: impl Fn(u32) -> bool,
) -> Result<(), ParseError> {
    let check = |lit: u32, line: usize, what: &str| {
        if lit < 2 || defined(lit >> 1) {
            Ok(())
        } else {
            Err(line_error(
                line,
                format!(
                    "{what} uses the undefined literal {lit} (variable {} is neither an input, \
                     a latch nor an AND gate)",
                    lit >> 1
                ),
            ))
        }
    };
    let mut line = first_latch_line;
    for l in &aig.latches {
        check(l.next, line, "latch next state")?;
        check(l.reset, line, "latch reset")?;
        line += 1;
    }
    for (lits, what) in [
        (&aig.outputs, "output"),
        (&aig.bad, "bad-state property"),
        (&aig.constraints, "invariant constraint"),
    ] {
        for &lit in lits {
            check(lit, line, what)?;
            line += 1;
        }
    }
    line += aig.justice.len();
    for &lit in aig.justice.iter().flatten() {
        check(lit, line, "justice property")?;
        line += 1;
    }
    for &lit in &aig.fairness {
        check(lit, line, "fairness constraint")?;
        line += 1;
    }
    for &(_, rhs0, rhs1) in &aig.ands {
        check(rhs0, line, "AND gate")?;
        check(rhs1, line, "AND gate")?;
        line += 1;
    }
    Ok(())
}

/// Checks that the reset functions are stratified, as Certifaiger requires of a model and
/// of a witness circuit: no latch's reset depends, through AND gates and the resets of the
/// latches it reads, on the latch itself. (A reset may read another latch: it then reads that
/// latch's initial value, which its own reset defines.) Without a cycle the initial state is a
/// function of frame 0's inputs and the uninitialised latches; with one it may have no value
/// or several, and the file is rejected, naming the line of a latch on the cycle.
pub(super) fn check_reset_cycles(aig: &Aiger, first_latch_line: usize) -> Result<(), ParseError> {
    if aig.latches.iter().all(|l| l.reset_function().is_none()) {
        return Ok(());
    }
    // Codes: 1 + latch index, then 1 + latches + AND index.
    let n = aig.latches.len();
    let mut code = VarTable::new(aig.maxvar, n + aig.ands.len());
    for (i, l) in aig.latches.iter().enumerate() {
        code.set(l.lit >> 1, 1 + i as u32);
    }
    for (k, &(lhs, _, _)) in aig.ands.iter().enumerate() {
        code.set(lhs >> 1, (1 + n + k) as u32);
    }
    // The variables a variable's initial value reads.
    let reads = |var: u32| -> Vec<u32> {
        match code.get(var) as usize {
            0 => vec![],
            c if c <= n => (aig.latches[c - 1].reset_function()).map_or(vec![], |r| vec![r >> 1]),
            c => {
                let (_, r0, r1) = aig.ands[c - 1 - n];
                vec![r0 >> 1, r1 >> 1]
            }
        }
    };
    const ACTIVE: u8 = 1;
    const DONE: u8 = 2;
    let mut state: std::collections::HashMap<u32, u8> = std::collections::HashMap::new();
    for root in aig.latches.iter().filter(|l| l.reset_function().is_some()) {
        if state.contains_key(&(root.lit >> 1)) {
            continue;
        }
        // (variable, the variables it reads not yet visited)
        let mut stack = vec![(root.lit >> 1, reads(root.lit >> 1))];
        state.insert(root.lit >> 1, ACTIVE);
        while let Some((var, pending)) = stack.last_mut() {
            let Some(child) = pending.pop() else {
                state.insert(*var, DONE);
                stack.pop();
                continue;
            };
            match state.get(&child) {
                None => {
                    state.insert(child, ACTIVE);
                    let grand = reads(child);
                    stack.push((child, grand));
                }
                Some(&ACTIVE) => {
                    let on_cycle = stack.iter().map(|&(v, _)| v).skip_while(|&v| v != child);
                    let latch = on_cycle
                        .filter_map(|v| (code.get(v) as usize).checked_sub(1))
                        .find(|&c| c < n)
                        .expect("a cycle of AND gates alone is rejected before");
                    let l = aig.latches[latch];
                    return Err(line_error(
                        first_latch_line + latch,
                        format!(
                            "the reset function {} of latch {} depends on the latch itself \
                             (reset functions must not form a cycle)",
                            l.reset, l.lit
                        ),
                    ));
                }
                Some(_) => {}
            }
        }
    }
    Ok(())
}

/// Orders AND gates so that every gate comes after the gates it reads; on a cycle, returns
/// the index of a gate on it. `and_index(var)` is the index in `ands` of the gate defining
/// `var`, if any. Iterative (files have millions of gates, far beyond the stack), with a fast
/// path for the usual case of a file that is already in order.
pub(super) fn topo_order(
    ands: &[(u32, u32, u32)],
    and_index: impl Fn(u32) -> Option<usize>,
) -> Result<Vec<usize>, usize> {
    let reads_earlier = |i: usize, lit: u32| and_index(lit >> 1).is_none_or(|j| j < i);
    if ands
        .iter()
        .enumerate()
        .all(|(i, &(_, r0, r1))| reads_earlier(i, r0) && reads_earlier(i, r1))
    {
        return Ok((0..ands.len()).collect());
    }
    const NEW: u8 = 0;
    const ACTIVE: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; ands.len()];
    let mut order = Vec::with_capacity(ands.len());
    // (gate, how many of its two inputs have been visited)
    let mut stack: Vec<(usize, u8)> = Vec::new();
    for root in 0..ands.len() {
        if state[root] != NEW {
            continue;
        }
        state[root] = ACTIVE;
        stack.push((root, 0));
        while let Some(top) = stack.last_mut() {
            let (gate, visited) = *top;
            if visited == 2 {
                state[gate] = DONE;
                order.push(gate);
                stack.pop();
                continue;
            }
            top.1 += 1;
            let (_, r0, r1) = ands[gate];
            let input = if visited == 0 { r0 } else { r1 };
            if let Some(child) = and_index(input >> 1) {
                match state[child] {
                    NEW => {
                        state[child] = ACTIVE;
                        stack.push((child, 0));
                    }
                    ACTIVE => return Err(gate),
                    _ => {}
                }
            }
        }
    }
    Ok(order)
}
