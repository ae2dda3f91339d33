//! Per-family counts of the corpus runner.
//!
//! The family of a task is read from its file name (without the directory): the part before
//! the first `_`, followed by `_` and the next part when the name has at least three
//! `_`-separated parts. So `h19_wolf-2019C_qspiflash_p081.aig` is `h19_wolf-2019C`,
//! `b2s_beem_at.2.prop1-back-serstep.btor2` is `b2s_beem`, `h20ar_wolf-2019B_x.aig` is
//! `h20ar_wolf-2019B`, while `tn_latch.aag` and `avr_issue15.btor2` (two parts: the second
//! one names the task itself) are `tn` and `avr`.

use std::collections::BTreeMap;

use crate::Tool;

/// The family of a task's file name (see the module doc).
pub fn family(name: &str) -> &str {
    let mut parts = name.splitn(3, '_');
    let (first, second, rest) = (parts.next(), parts.next(), parts.next());
    match (first, second, rest) {
        (Some(f), Some(s), Some(_)) => &name[..f.len() + 1 + s.len()],
        (Some(f), _, _) => f,
        _ => name,
    }
}

/// Prints one line per family: its number of tasks and, per tool, how many it solved
/// (`solved(task, tool)` with indices into `names` and `tools`).
pub fn print_table(names: &[&str], tools: &[Tool], solved: impl Fn(usize, usize) -> bool) {
    let mut families: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, name) in names.iter().enumerate() {
        families.entry(family(name)).or_default().push(i);
    }
    println!("Solved per family (family = name up to the second `_` when there are three parts):");
    let header: Vec<String> = tools.iter().map(|t| format!("{:>14}", t.name())).collect();
    println!("  {:<32} {:>5} {}", "family", "tasks", header.join(" "));
    for (fam, members) in &families {
        let cells: Vec<String> = (0..tools.len())
            .map(|t| format!("{:>14}", members.iter().filter(|&&i| solved(i, t)).count()))
            .collect();
        println!("  {fam:<32} {:>5} {}", members.len(), cells.join(" "));
    }
    println!();
}
