//! The names of a compiled design's properties and clocks, read off what Yosys wrote: its
//! property map, the BTOR2 symbols and comments, and the info file of `write_btor -i`.

use std::collections::HashMap;

use super::{named_back, Renamed};

/// The BTOR2 text with every `bad` line named: by Yosys's property map when there is one
/// (`map`, the `-ywmap` of `write_btor`, see [`names_from_map`]), else by the `bad` symbol
/// (a label) or the `file:line` of the source place in its comment (Yosys 0.23 gives an
/// unlabelled assertion its place `t.sv:36.9-36.50` as symbol or only as comment). A name
/// met before gets `#2`, `#3`, ... (two unlabelled assertions on one line). Source files are
/// named as the user gave them (`renamed`).
pub(super) fn name_properties(
    btor2: &str,
    map: Option<&str>,
    renamed: &Renamed,
) -> Result<String, String> {
    let from_map = map.map(names_from_map).transpose()?.flatten();
    let mut out = String::with_capacity(btor2.len());
    let (mut n, mut seen) = (0, HashMap::<String, usize>::new());
    for line in btor2.lines() {
        let (body, comment) = match line.split_once(';') {
            Some((b, c)) => (b.trim_end(), Some(c.trim())),
            None => (line, None),
        };
        let words: Vec<&str> = body.split_whitespace().collect();
        if words.get(1) != Some(&"bad") || words.len() < 3 {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let name = match (&from_map, words.as_slice(), comment) {
            (Some(names), _, _) => names.get(n).cloned(),
            (None, [_, _, _, symbol], _) => Some(source_line(symbol).to_owned()),
            (None, [_, _, _], Some(src)) if !src.is_empty() => Some(source_line(src).to_owned()),
            _ => None,
        };
        n += 1;
        let (id, node) = (words[0], words[2]);
        match name {
            Some(name) => {
                let name = named_back(&name, renamed).replace(char::is_whitespace, "_");
                let k = seen.entry(name.clone()).or_insert(0);
                *k += 1;
                match *k {
                    1 => out.push_str(&format!("{id} bad {node} {name}\n")),
                    k => out.push_str(&format!("{id} bad {node} {name}#{k}\n")),
                }
            }
            None => out.push_str(&format!("{id} bad {node}\n")),
        }
    }
    match &from_map {
        Some(names) if names.len() != n => Err(format!(
            "Yosys's property map lists {} assertion(s) for {n} bad propert(ies) of its BTOR2",
            names.len()
        )),
        _ => Ok(out),
    }
}

/// The assertion names of a `write_btor -ywmap` map, in the order of the `bad` lines:
/// `None` when the map has no `asserts` list (Yosys versions before it had one). Each entry
/// is a hierarchical path: `["\\u_sub", "\\p_sub"]` is `u_sub.p_sub`; an unlabelled
/// assertion is a cell named by its place, `$assert$top.sv:36$8` (`$flatten\u_sub.` before
/// it in a submodule), which is `top.sv:36` (`u_sub:top.sv:36`).
fn names_from_map(map: &str) -> Result<Option<Vec<String>>, String> {
    let map: serde_json::Value =
        serde_json::from_str(map).map_err(|e| format!("Yosys's property map is not JSON: {e}"))?;
    let Some(asserts) = map.get("asserts") else {
        return Ok(None);
    };
    let malformed = || "Yosys's property map has an `asserts` entry that is not a path".to_owned();
    let asserts = asserts.as_array().ok_or_else(malformed)?;
    asserts
        .iter()
        .map(|path| {
            let parts = path.as_array().filter(|p| !p.is_empty());
            let parts =
                parts.and_then(|p| p.iter().map(|s| s.as_str()).collect::<Option<Vec<_>>>());
            parts.map(|p| name_of_path(&p)).ok_or_else(malformed)
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// The name of one assertion path of the property map (see [`names_from_map`]).
fn name_of_path(parts: &[&str]) -> String {
    let public = |s: &str| s.strip_prefix('\\').unwrap_or(s).to_owned();
    let (last, scope) = parts.split_last().expect("a path has a name");
    let mut scope: Vec<String> = scope.iter().map(|s| public(s)).collect();
    let Some((prefix, cell)) = last.split_once("$assert$") else {
        scope.push(public(last));
        return scope.join(".");
    };
    // `$flatten\u_a.$flatten\u_b.` or `$flatten\u_a.\u_b.`: the instances the cell was in.
    let instances = prefix.replace("$flatten", "");
    scope.extend(instances.split('.').map(public).filter(|s| !s.is_empty()));
    let place = cell.rsplit_once('$').map_or(cell, |(place, _)| place);
    match scope.is_empty() {
        true => place.to_owned(),
        false => format!("{}:{place}", scope.join(".")),
    }
}

/// `file:line` of a Yosys source place `file:L.C-L.C` (the first of `|`-joined ones); any
/// other name as it is.
fn source_line(name: &str) -> &str {
    let first = name.split('|').next().unwrap_or(name);
    match first.rsplit_once(':') {
        Some((file, place)) if place.starts_with(|c: char| c.is_ascii_digit()) => {
            let line_end = place
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(place.len());
            &first[..file.len() + 1 + line_end]
        }
        _ => name,
    }
}

/// The names of the inputs that the info file of `write_btor -i` lists as clocks
/// (`posedge N`/`negedge N` with `N` an `input` node).
pub(super) fn clock_inputs(btor2: &str, info: &str) -> Vec<String> {
    let ids: Vec<&str> = info
        .lines()
        .filter_map(|l| l.strip_prefix("posedge ").or(l.strip_prefix("negedge ")))
        .map(str::trim)
        .collect();
    let mut clocks = Vec::new();
    for line in btor2.lines() {
        let words: Vec<&str> = line
            .split(';')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        if let [id, "input", _, name] = words.as_slice() {
            if ids.contains(id) && !clocks.iter().any(|c: &String| c.as_str() == *name) {
                clocks.push(name.to_string());
            }
        }
    }
    clocks
}
