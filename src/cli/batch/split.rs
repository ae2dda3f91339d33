//! `--split-properties`: a model with several properties becomes one task per property, as
//! the hardware model checking competition splits its multi-property benchmarks: each task's
//! model is a copy of the design with that one property (its constraints, and for a justice
//! property its fairness, kept). So every tool of the campaign, warden or one in the HWMCC
//! calling convention, answers a single-property file, and `warden sim` and `warden certify`
//! check the answer against that property alone. The files are written under `OUT/split/`
//! at every start (a resumed campaign gets them as the models are now).

use std::path::Path;

use super::tasks::Task;
use crate::front::aiger::{self, Aiger};
use crate::verdict::Verdict;

/// The tasks with every multi-property AIGER or BTOR2 model replaced by one task per
/// property, keyed `DESIGN#b<i>` (a bad-state property, or an output of an AIGER 1.0 file)
/// or `DESIGN#j<i>` (a justice property), as the witnesses name them. A model that cannot be
/// read stays one task: its run reports the input error.
pub fn split(tasks: Vec<Task>, dir: &Path) -> Result<Vec<Task>, String> {
    let mut out = Vec::new();
    for (i, task) in tasks.into_iter().enumerate() {
        let models = match task.format.as_str() {
            "aag" | "aig" => std::fs::read(&task.path)
                .ok()
                .and_then(|data| aiger::parse(&data).ok())
                .map(|a| split_aiger(&a, task.format == "aag")),
            "btor" | "btor2" => std::fs::read_to_string(&task.path)
                .ok()
                .map(|text| split_btor2(&text)),
            _ => None,
        };
        let models = match models {
            Some(m) if m.len() > 1 => m,
            _ => {
                out.push(task);
                continue;
            }
        };
        let folder = dir.join(format!("{i}-{}", task.short_name()));
        std::fs::create_dir_all(&folder)
            .map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
        for (property, bytes) in models {
            let path = folder.join(format!("{property}.{}", task.format));
            std::fs::write(&path, bytes)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            out.push(Task {
                key: format!("{}#{property}", task.key),
                path,
                // The design's `unsat` holds for each property; its `sat` for one at least.
                expected: match task.expected {
                    Verdict::Unsat => Verdict::Unsat,
                    _ => Verdict::Unknown,
                },
                ..task.clone()
            });
        }
    }
    Ok(out)
}

/// One file per property of `a`, named as its witness names the property, in `a`'s own
/// format.
fn split_aiger(a: &Aiger, ascii: bool) -> Vec<(String, Vec<u8>)> {
    // AIGER 1.0 files state their properties as outputs (ignored when there are bad or
    // justice properties).
    let outputs = a.bad.is_empty() && a.justice.is_empty();
    let safety = if outputs {
        a.outputs.len()
    } else {
        a.bad.len()
    };
    let mut models = Vec::new();
    for i in 0..safety {
        let mut one = a.clone();
        one.justice.clear();
        one.symbols.justice.clear();
        one.fairness.clear();
        one.symbols.fairness.clear();
        if outputs {
            keep_one(&mut one.outputs, &mut one.symbols.outputs, i);
        } else {
            keep_one(&mut one.bad, &mut one.symbols.bad, i);
        }
        models.push((format!("b{i}"), one));
    }
    for j in 0..a.justice.len() {
        let mut one = a.clone();
        one.bad.clear();
        one.symbols.bad.clear();
        keep_one(&mut one.justice, &mut one.symbols.justice, j);
        models.push((format!("j{j}"), one));
    }
    (models.into_iter())
        .map(|(name, one)| {
            let mut bytes = Vec::new();
            let written = match ascii {
                true => aiger::write_ascii(&one, &mut bytes),
                false => aiger::write_binary(&one, &mut bytes),
            };
            written.expect("a parsed AIGER file writes");
            (name, bytes)
        })
        .collect()
}

/// Keeps entry `i` of a section and of its symbols.
fn keep_one<T>(section: &mut Vec<T>, symbols: &mut Vec<Option<String>>, i: usize) {
    let entry = section.swap_remove(i);
    *section = vec![entry];
    let name = symbols.get(i).cloned().flatten();
    *symbols = vec![name];
}

/// One text per `bad` and per `justice` line of a BTOR2 model: the model without the other
/// property lines (no node refers to a property line, so the rest stands as it is).
fn split_btor2(text: &str) -> Vec<(String, Vec<u8>)> {
    let tag = |line: &str| line.split_whitespace().nth(1).unwrap_or("").to_owned();
    let lines: Vec<&str> = text.lines().collect();
    let mut models = Vec::new();
    for kind in ["bad", "justice"] {
        let of_kind: Vec<usize> = (0..lines.len())
            .filter(|&n| tag(lines[n]) == kind)
            .collect();
        for (i, &keep) in of_kind.iter().enumerate() {
            let mut model = String::new();
            for (n, line) in lines.iter().enumerate() {
                if n == keep || !matches!(tag(line).as_str(), "bad" | "justice") {
                    model.push_str(line);
                    model.push('\n');
                }
            }
            models.push((format!("{}{i}", &kind[..1]), model.into_bytes()));
        }
    }
    models
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_btor2_model_splits_at_its_bad_lines() {
        let text = "1 sort bitvec 1\n2 state 1 s\n3 bad 2 first\n4 bad -2\n5 next 1 2 2\n";
        let models = split_btor2(text);
        let names: Vec<&str> = models.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["b0", "b1"]);
        let second = String::from_utf8(models[1].1.clone()).unwrap();
        assert_eq!(
            second,
            "1 sort bitvec 1\n2 state 1 s\n4 bad -2\n5 next 1 2 2\n"
        );
    }

    #[test]
    fn an_aiger_model_splits_into_one_file_per_bad_property() {
        let a = aiger::parse(b"aag 2 1 1 0 0 2\n2\n4 2\n2\n5\nb1 second\n").unwrap();
        let models = split_aiger(&a, true);
        assert_eq!(models.len(), 2);
        let second = aiger::parse(&models[1].1).unwrap();
        assert_eq!(
            (second.bad.clone(), second.symbols.bad.clone()),
            (vec![5], vec![Some("second".to_owned())])
        );
    }
}
