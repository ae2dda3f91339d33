//! Per-family counts of the corpus runner; the family of a task is `warden batch`'s
//! ([`family`]).

use std::collections::BTreeMap;

use crate::Tool;
use warden::cli::batch::tasks::family;

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
