//! ABC's inductive invariants, checked with warden's own invariant check.
//!
//! `pdr -d -I FILE` writes the invariant of a proof as a PLA: `.ilb` names the latches it
//! reads, and each cube line (`-11 1`) is a set of states the invariant excludes, so the
//! invariant is the conjunction of the clauses that negate the cubes. `pdr -d` requires
//! every initial value to be 0, which [`super::PREPARE`]'s `zero` makes so.
//!
//! The invariant speaks of the network ABC checked, not of the model: its latches are ABC's
//! (see [`super`]). It is therefore checked on that network, as `write_aiger -s` writes it
//! just before the engine runs (AIGER 1.0: the properties are its outputs): initiation,
//! consecution and safety with a fresh SAT solver ([`crate::cert::check`]). This shows that
//! ABC's proof is sound for the network it built; that the network means what the model
//! means rests on ABC's `undc`/`fold`/`zero` (whose counterexamples [`super::cex`] maps
//! back and replays on the model).

use crate::aig::Lit;
use crate::cert::{self, Invariant};
use crate::front::aiger::{self, Aiger};
use crate::Budget;

/// Checks the PLA invariant `pla` on ABC's network `network` (read from ABC's
/// `write_aiger -s`). `Err` says what failed.
pub fn check(network: &Aiger, pla: &str, budget: &Budget) -> Result<(), String> {
    let ts = aiger::to_transition_system(network);
    let pla = read_pla(pla)?;
    let latches: Result<Vec<Lit>, String> = (pla.names.iter())
        .map(|name| {
            let i = (network.symbols.latches.iter())
                .position(|s| s.as_deref() == Some(name))
                .ok_or_else(|| {
                    format!("the invariant reads '{name}', no latch of ABC's network")
                })?;
            Ok(ts.latches[i].var.lit())
        })
        .collect();
    let latches = latches?;
    let clauses: Vec<Vec<Lit>> = (pla.cubes.iter())
        .map(|cube| {
            (cube.iter().zip(&latches))
                .filter_map(|(v, &l)| v.map(|one| if one { !l } else { l }))
                .collect()
        })
        .collect();
    let inv = Invariant::from_clauses(&ts, &clauses);
    cert::check(&ts, &inv, budget).map_err(|e| e.to_string())
}

/// ABC's PLA: the latch names, and the cubes (`Some(value)` per latch a cube constrains).
struct Pla {
    names: Vec<String>,
    cubes: Vec<Vec<Option<bool>>>,
}

fn read_pla(pla: &str) -> Result<Pla, String> {
    let mut names = None;
    let mut cubes = Vec::new();
    for (n, line) in pla.lines().enumerate().map(|(i, l)| (i + 1, l.trim())) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        match fields.as_slice() {
            [] => {}
            [f, ..] if f.starts_with('#') => {}
            [".ilb", rest @ ..] => names = Some(rest.iter().map(|s| s.to_string()).collect()),
            [f, ..] if f.starts_with('.') => {}
            [cube, "1"] => {
                let values: Result<Vec<Option<bool>>, String> = (cube.chars())
                    .map(|c| match c {
                        '0' => Ok(Some(false)),
                        '1' => Ok(Some(true)),
                        '-' => Ok(None),
                        c => Err(format!("line {n}: expected 0, 1 or -, found '{c}'")),
                    })
                    .collect();
                cubes.push(values?);
            }
            _ => return Err(format!("line {n}: expected a cube and '1', found '{line}'")),
        }
    }
    let names: Vec<String> = names.ok_or("the invariant has no .ilb line")?;
    if let Some(c) = cubes.iter().find(|c| c.len() != names.len()) {
        return Err(format!(
            "a cube of {} values for {} latches",
            c.len(),
            names.len()
        ));
    }
    Ok(Pla { names, cubes })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ABC's network of `circuits/counter3_mod6_unsat.aag` (`write_aiger -s` after
    /// `PREPARE`, converted to ASCII): a mod-6 counter, output `c == 7`.
    const NETWORK: &str = "aag 15 0 3 1 12\n2 16\n4 22\n6 30\n10\n8 4 2\n10 8 6\n12 5 2\n\
        14 12 6\n16 15 3\n18 4 3\n20 19 13\n22 21 15\n24 9 6\n26 8 7\n28 27 25\n30 29 15\n\
        l0 c[0]\nl1 c[1]\nl2 c[2]\no0 c_eq_7\n";

    /// The invariant ABC's `pdr -d` wrote for it: "not (c[1] and c[2])".
    const PLA: &str =
        "# Inductive invariant\n.i 2\n.o 1\n.p 1\n.ilb c[1] c[2]\n.ob inv\n11 1\n.e\n";

    #[test]
    fn abc_s_own_invariant_passes_and_a_weakened_one_fails() {
        let network = aiger::parse(NETWORK.as_bytes()).unwrap();
        let budget = Budget::new(None);
        assert_eq!(check(&network, PLA, &budget), Ok(()));
        let weak = PLA
            .replace("11 1", "111 1")
            .replace("c[1] c[2]", "c[0] c[1] c[2]");
        assert_eq!(
            check(&network, &weak, &budget),
            Err("the invariant is not inductive".to_owned())
        );
        let unknown = PLA.replace("c[1] c[2]", "c[1] q");
        assert!(check(&network, &unknown, &budget)
            .unwrap_err()
            .contains("'q'"));
    }
}
