//! The tasks of a campaign: read from a task list (`.tsv`), BenchExec task definitions
//! (`.yml`), directories (every model file under them) or model files named one by one.

use std::path::{Path, PathBuf};

use crate::verdict::Verdict;

/// The extensions of the model files a directory contributes.
const MODEL_EXTENSIONS: &[&str] = &["aag", "aig", "btor", "btor2", "c", "i"];

/// One model to check.
#[derive(Clone, Debug)]
pub struct Task {
    /// The task's name in records and reports: the `path` column as written, or the path
    /// given (relative to the directory given); `DESIGN#PROPERTY` for one property of a
    /// split model (`--split-properties`).
    pub key: String,
    /// The model's own key, the same for all the properties split from it: the reports
    /// group them back by it, and its file name gives the family.
    pub design: String,
    /// The model file.
    pub path: PathBuf,
    /// `aag`, `aig`, `btor`, `btor2`, `c`, `i` (the `format` column, else the extension).
    pub format: String,
    pub expected: Verdict,
    /// Extra `warden check` flags of this task alone: the `options` column (split at white
    /// space), and `--data-model lp64` when a `data_model` column says LP64.
    pub options: Vec<String>,
}

impl Task {
    fn of_file(key: String, path: PathBuf, expected: Verdict) -> Task {
        let format = extension(&key);
        Task {
            design: key.clone(),
            key,
            path,
            format,
            expected,
            options: Vec::new(),
        }
    }

    /// The design's file name alone.
    pub fn short_name(&self) -> &str {
        self.design.rsplit('/').next().unwrap_or(&self.design)
    }
}

fn extension(path: &str) -> String {
    path.rsplit_once('.')
        .map(|(_, e)| e.to_owned())
        .unwrap_or_default()
}

/// The tasks of every input in order: a `.tsv` list, a `.yml` BenchExec task definition, a
/// directory (its model files, sorted, recursively) or a model file.
pub fn read_inputs(inputs: &[PathBuf]) -> Result<Vec<Task>, String> {
    let mut tasks = Vec::new();
    for input in inputs {
        let name = input.to_string_lossy();
        if input.is_dir() {
            let mut files = Vec::new();
            walk(input, &mut files).map_err(|e| format!("cannot read {name}: {e}"))?;
            files.sort();
            for f in files {
                let key = f
                    .strip_prefix(input)
                    .unwrap_or(&f)
                    .to_string_lossy()
                    .into_owned();
                tasks.push(Task::of_file(key, f, Verdict::Unknown));
            }
        } else if name.ends_with(".tsv") {
            tasks.extend(read_list(input)?);
        } else if name.ends_with(".yml") || name.ends_with(".yaml") {
            tasks.push(read_benchexec(input)?);
        } else if input.is_file() {
            tasks.push(Task::of_file(
                name.into_owned(),
                input.clone(),
                Verdict::Unknown,
            ));
        } else {
            return Err(format!("{name}: no such file or directory"));
        }
    }
    Ok(tasks)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else if MODEL_EXTENSIONS.contains(&extension(&path.to_string_lossy()).as_str()) {
            out.push(path);
        }
    }
    Ok(())
}

/// A tab-separated task list with a header line naming at least the column `path`
/// (relative to the list's directory) and optionally `expected` (`sat`, `unsat`, or
/// SV-COMP's `true` = `unsat` and `false` = `sat`; anything else is unknown), `format`,
/// `data_model` and `options`, as the evaluation sets `eval-*.tsv` and `circuits/manifest.tsv`.
pub fn read_list(list: &Path) -> Result<Vec<Task>, String> {
    let text = std::fs::read_to_string(list)
        .map_err(|e| format!("cannot read {}: {e}", list.display()))?;
    let base = list.parent().unwrap_or(Path::new("."));
    let mut lines = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'));
    let header: Vec<&str> = lines.next().unwrap_or("").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| h.trim() == name);
    let c_path =
        col("path").ok_or_else(|| format!("{}: no column `path` in the header", list.display()))?;
    let (c_format, c_expected) = (col("format"), col("expected"));
    let (c_data_model, c_options) = (col("data_model"), col("options"));
    let mut tasks = Vec::new();
    for (i, line) in lines.enumerate() {
        let cells: Vec<&str> = line.split('\t').map(str::trim).collect();
        let cell = |c: Option<usize>| c.and_then(|c| cells.get(c).copied());
        let key = cell(Some(c_path))
            .filter(|k| !k.is_empty())
            .ok_or_else(|| format!("{}: data line {}: no path", list.display(), i + 1))?;
        let mut task = Task::of_file(
            key.to_owned(),
            base.join(key),
            Verdict::parse(cell(c_expected).unwrap_or("")),
        );
        if let Some(f) = cell(c_format) {
            task.format = f.to_owned();
        }
        if cell(c_data_model).is_some_and(|d| d.to_ascii_uppercase().starts_with("LP64")) {
            task.options
                .extend(["--data-model".to_owned(), "lp64".to_owned()]);
        }
        task.options.extend(
            cell(c_options)
                .unwrap_or("")
                .split_whitespace()
                .map(str::to_owned),
        );
        tasks.push(task);
    }
    Ok(tasks)
}

/// A BenchExec task definition (format 2.0): its `input_files` (one file) and the
/// `expected_verdict` of its first property (`true` = `unsat`, `false` = `sat`). Read line by
/// line: the fields used are plain `key: value` lines in the files BenchExec and
/// `contrib/benchexec/make-tasks.py` write.
fn read_benchexec(def: &Path) -> Result<Task, String> {
    let text =
        std::fs::read_to_string(def).map_err(|e| format!("cannot read {}: {e}", def.display()))?;
    let value = |key: &str| {
        text.lines()
            .filter_map(|l| l.trim().trim_start_matches("- ").strip_prefix(key))
            .map(|v| v.trim().trim_matches(['\'', '"']).to_owned())
            .next()
    };
    let input = value("input_files:")
        .filter(|v| !v.is_empty())
        .ok_or_else(|| format!("{}: no `input_files`", def.display()))?;
    let expected = Verdict::parse(&value("expected_verdict:").unwrap_or_default());
    let base = def.parent().unwrap_or(Path::new("."));
    let key = def.to_string_lossy().into_owned();
    let mut task = Task::of_file(key, base.join(&input), expected);
    task.format = extension(&input);
    Ok(task)
}

/// The family of a task's file name: the part before the first `_`, followed by `_` and the
/// next part when the name has at least three `_`-separated parts. So
/// `h19_wolf-2019C_qspiflash_p081.aig` is `h19_wolf-2019C`, while `tn_latch.aag` (two parts:
/// the second one names the task itself) is `tn`.
pub fn family(name: &str) -> &str {
    let mut parts = name.splitn(3, '_');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(f), Some(s), Some(_)) => &name[..f.len() + 1 + s.len()],
        (Some(f), _, _) => f,
        _ => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families() {
        assert_eq!(
            family("h19_wolf-2019C_qspiflash_p081.aig"),
            "h19_wolf-2019C"
        );
        assert_eq!(family("tn_latch.aag"), "tn");
        assert_eq!(family("counter.aag"), "counter.aag");
    }

    #[test]
    fn a_list_with_options_and_data_models() {
        let dir = std::env::temp_dir().join(format!("warden-batch-tasks-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let list = dir.join("l.tsv");
        let text =
            "path\texpected\tdata_model\toptions\na.c\ttrue\tLP64\t--engine bmc\nb.aag\tsat\t\t\n";
        std::fs::write(&list, text).unwrap();
        let tasks = read_list(&list).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(tasks.len(), 2);
        assert_eq!(
            (tasks[0].expected, tasks[0].format.as_str()),
            (Verdict::Unsat, "c")
        );
        assert_eq!(
            tasks[0].options,
            ["--data-model", "lp64", "--engine", "bmc"]
        );
        assert_eq!(
            (tasks[1].expected, tasks[1].options.len()),
            (Verdict::Sat, 0)
        );
        assert_eq!(tasks[1].path, dir.join("b.aag"));
    }
}
