//! Portfolios chosen from single-configuration runs: each column's solved tasks, the virtual
//! best of a set of columns (per task the fastest solved run: what a portfolio with a core
//! per member approaches), the sets that grow it fastest, chosen greedily, and the default
//! portfolio for 1 to 32 cores with the time slices its members take when they outnumber
//! the cores (an estimate: see [`Matrix::sliced`]). The columns
//! come from one run (`--configs a,b,...`) or from the CSV files of several (`--matrix`):
//! the whole configuration matrix takes machine-hours, so it is run in parts and put
//! together here.

use std::collections::HashMap;
use std::path::PathBuf;

use warden::options::configs::PORTFOLIOS;
use warden::options::cores;

/// Per task (rows) and column, the time of a solved run (`None`: not solved).
pub(super) struct Matrix {
    pub(super) columns: Vec<String>,
    pub(super) tasks: Vec<(String, String)>,
    pub(super) solved: Vec<Vec<Option<f64>>>,
    /// Per task, the shortest run of any column, whatever its result: an upper bound on the
    /// loading and preprocessing every run does once before its engines start.
    pub(super) shortest: Vec<f64>,
}

impl Matrix {
    /// The virtual best of `set`: solved tasks and PAR-2 sum (2 `timeout` per unsolved task).
    fn best(&self, set: &[usize], timeout: f64) -> (usize, f64) {
        let own: Vec<(usize, u32)> = set.iter().map(|&c| (c, 1)).collect();
        self.sliced(&own, set.len(), timeout)
    }

    /// The virtual best of `set` when its members take turns on `cores` cores in time slices
    /// of their shares (`(column, share)`): a member gets the cores in proportion to its
    /// share but never more than one ([`rates`]), so a task it solves alone in `t` it solves
    /// here in `s + (t - s) / rate`, where `s` is the task's shortest run of any column (the
    /// loading and preprocessing, done once before the members start; without it, the
    /// members' many fast answers on large models, which are mostly loading, came out
    /// several times too slow). No turns when there are cores enough: then this is the
    /// plain virtual best. An estimate: it leaves out what the members give each other
    /// (shared lemmas), the cost of switching and the set a large system runs instead, and
    /// a member's time alone was measured with a core to itself.
    fn sliced(&self, set: &[(usize, u32)], cores: usize, timeout: f64) -> (usize, f64) {
        let shares: Vec<u32> = set.iter().map(|&(_, s)| s).collect();
        let rates = rates(&shares, cores);
        let mut solved = 0;
        let mut par2 = 0.0;
        for (row, &fixed) in self.solved.iter().zip(&self.shortest) {
            // A run's own time is kept as measured (a solved run may end just past the
            // limit); a slowed one counts only within it. `fixed` is at most any run's time
            // of the row, this one's included.
            let time = |c: usize, rate: f64| match rate {
                r if r >= 1.0 => row[c],
                r => (row[c])
                    .map(|t| fixed + (t - fixed) / r)
                    .filter(|&t| t <= timeout),
            };
            let fastest = (set.iter().zip(&rates))
                .filter_map(|(&(c, _), &rate)| time(c, rate))
                .min_by(f64::total_cmp);
            match fastest {
                Some(t) => {
                    solved += 1;
                    par2 += t;
                }
                None => par2 += 2.0 * timeout,
            }
        }
        (solved, par2)
    }

    /// The default portfolio per core count, as `--jobs N` picks it
    /// ([`cores::members`], leaving out configurations with no column here, as a run leaves
    /// out those with nothing to check): the virtual best of its configurations, and the
    /// same with its members sharing the cores in time slices while they outnumber them.
    fn print_cores(&self, timeout: f64) {
        let default = &PORTFOLIOS[0];
        let column = |name: &str| self.columns.iter().position(|c| c == name);
        let missing: Vec<&str> = (default.configs.iter())
            .filter(|d| column(d).is_none())
            .copied()
            .collect();
        println!(
            "\nThe default on N cores (its configurations with a column here; members without \
             one: {}):",
            if missing.is_empty() {
                "none".to_owned()
            } else {
                missing.join(", ")
            }
        );
        for n in [1, 2, 4, 8, 16, 32] {
            // No system at hand: every member with a column counts. (A run leaves out a
            // twin, `ic3-abs-cst` on a model without constraints; the columns do not say
            // which tasks have constraints, so this model keeps it everywhere.)
            let chosen = cores::members(default, n, |name, row| {
                column(name).is_some().then(|| row.clone())
            });
            let set: Vec<(usize, u32)> = (chosen.iter())
                .map(|&(name, share)| (column(name).expect("kept by members"), share))
                .collect();
            let columns: Vec<usize> = set.iter().map(|&(c, _)| c).collect();
            let (solved, par2) = self.best(&columns, timeout);
            let (sliced, sliced_par2) = self.sliced(&set, n, timeout);
            println!(
                "  {n:>2} cores: {:>2} configurations, virtual best {solved:>4} solved, PAR-2 sum \
                 {par2:>8.1}; in time slices {sliced:>4} solved, PAR-2 sum {sliced_par2:>8.1}",
                set.len()
            );
        }
    }

    /// The columns in greedy order after `base`: each the one that makes the virtual best
    /// solve most (ties: the lower PAR-2 sum), with the virtual best after it.
    fn greedy(&self, base: &[usize], timeout: f64) -> Vec<(usize, usize, f64)> {
        let mut set = base.to_vec();
        let mut order = Vec::new();
        while set.len() < self.columns.len() {
            let next = (0..self.columns.len())
                .filter(|c| !set.contains(c))
                .map(|c| {
                    let mut with = set.clone();
                    with.push(c);
                    let (solved, par2) = self.best(&with, timeout);
                    (c, solved, par2)
                })
                .min_by(|a, b| b.1.cmp(&a.1).then(a.2.total_cmp(&b.2)))
                .expect("a column is left");
            set.push(next.0);
            order.push(next);
        }
        order
    }

    /// Each column's solved count, the virtual best of the default portfolio's members
    /// among the columns, the greedy order from those and from none, and the per-task times.
    pub(super) fn print(&self, timeout: f64) {
        println!(
            "\nConfigurations alone on {} tasks (timeout {timeout} s); virtual best = per \
             task the fastest solved run of a set:",
            self.tasks.len()
        );
        for (c, name) in self.columns.iter().enumerate() {
            let (solved, par2) = self.best(&[c], timeout);
            println!("  [{c:>2}] {name:<18} {solved:>4} solved, PAR-2 sum {par2:>8.1}");
        }
        let default: Vec<usize> = (PORTFOLIOS[0].configs.iter())
            .filter_map(|d| self.columns.iter().position(|c| c == d))
            .collect();
        let bases: [(&str, &[usize]); 2] = [("the default's members", &default), ("none", &[])];
        for (title, base) in bases {
            if title != "none" && base.is_empty() {
                continue;
            }
            let (solved, par2) = self.best(base, timeout);
            println!(
                "Greedy from {title} ({} columns: {solved} solved, PAR-2 sum {par2:.1}):",
                base.len()
            );
            for (k, (c, solved, par2)) in self.greedy(base, timeout).into_iter().enumerate() {
                let size = base.len() + k + 1;
                let name = &self.columns[c];
                println!("  {size:>2}: +{name:<18} {solved:>4} solved, PAR-2 sum {par2:>8.1}");
            }
        }
        self.print_cores(timeout);
        println!("\nPer task, each column's time when solved (- unsolved):");
        let header: Vec<String> = (0..self.columns.len()).map(|c| format!("[{c}]")).collect();
        println!("task\texpected\t{}", header.join("\t"));
        for ((task, expected), row) in self.tasks.iter().zip(&self.solved) {
            let cells: Vec<String> = (row.iter())
                .map(|t| t.map_or("-".to_owned(), |t| format!("{t:.1}")))
                .collect();
            println!("{task}\t{expected}\t{}", cells.join("\t"));
        }
    }
}

/// The cores each of the workers of time-slice `shares` gets when they take turns on `cores`
/// cores: in proportion to their shares, but a worker runs on one core at a time, so one
/// whose part would be more than a core gets one and the rest is shared out among the
/// others the same way (each worker a core when there are cores enough).
fn rates(shares: &[u32], cores: usize) -> Vec<f64> {
    let mut rates = vec![0.0; shares.len()];
    let mut order: Vec<usize> = (0..shares.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(shares[i]));
    let (mut left, mut total) = (cores as f64, shares.iter().sum::<u32>() as f64);
    for i in order {
        let share = shares[i] as f64;
        rates[i] = (left * share / total).min(1.0);
        left -= rates[i];
        total -= share;
    }
    rates
}

/// The matrix of the runner's CSV files (`--csv`), one column per tool but the virtual
/// best, tasks and columns in their first order of appearance. The columns are found by the
/// header: `task`, `tool`, `expected`, `time_s`, and `result` (`solved`; `warden batch`'s
/// format, written since the runner runs it) or `correct` (`true`; the runner's own format
/// before). A task and tool in two files is an error: the parts of a matrix do not overlap.
pub(super) fn read_csvs(files: &[PathBuf]) -> Result<Matrix, String> {
    let mut matrix = Matrix {
        columns: Vec::new(),
        tasks: Vec::new(),
        solved: Vec::new(),
        shortest: Vec::new(),
    };
    let mut seen: HashMap<(usize, usize), PathBuf> = HashMap::new();
    for file in files {
        let text = std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        let mut lines = text.lines().enumerate();
        let header = fields(lines.next().map_or("", |(_, l)| l));
        let col = |name: &str| header.iter().position(|h| h == name);
        let (solved_col, solved_value) = match (col("result"), col("correct")) {
            (Some(c), _) => (c, "solved"),
            (None, Some(c)) => (c, "true"),
            (None, None) => return Err(format!("{}: not a --csv file", file.display())),
        };
        let named = [col("task"), col("tool"), col("expected"), col("time_s")];
        let [Some(c_task), Some(c_tool), Some(c_expected), Some(c_time)] = named else {
            return Err(format!("{}: not a --csv file", file.display()));
        };
        for (n, line) in lines {
            let cells = fields(line);
            let cell = |c: usize| cells.get(c).map_or("", String::as_str);
            let (task, tool, time) = (cell(c_task), cell(c_tool), cell(c_time));
            if tool == "virtual-best" {
                continue;
            }
            let c = index(&mut matrix.columns, tool);
            let t = match matrix.tasks.iter().position(|(k, _)| k == task) {
                Some(t) => t,
                None => {
                    matrix
                        .tasks
                        .push((task.to_owned(), cell(c_expected).to_owned()));
                    matrix.tasks.len() - 1
                }
            };
            if let Some(other) = seen.insert((t, c), file.clone()) {
                return Err(format!(
                    "{}: {tool} on {task} again (also in {})",
                    file.display(),
                    other.display()
                ));
            }
            let solved = cell(solved_col) == solved_value;
            let parsed: Option<f64> = time.parse().ok();
            if solved && parsed.is_none() {
                return Err(format!("{}:{}: time {time}", file.display(), n + 1));
            }
            matrix.solved.resize(matrix.tasks.len(), Vec::new());
            matrix.shortest.resize(matrix.tasks.len(), f64::INFINITY);
            let row = &mut matrix.solved[t];
            row.resize(matrix.columns.len(), None);
            row[c] = parsed.filter(|_| solved);
            if let Some(took) = parsed {
                matrix.shortest[t] = matrix.shortest[t].min(took);
            }
        }
    }
    for shortest in &mut matrix.shortest {
        if shortest.is_infinite() {
            *shortest = 0.0;
        }
    }
    for row in &mut matrix.solved {
        row.resize(matrix.columns.len(), None);
    }
    Ok(matrix)
}

/// The fields of a CSV line: separated by `,`, each possibly in double quotes (with `""`
/// for a quote inside).
fn fields(line: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let (mut quoted, mut chars) = (false, line.chars().peekable());
    while let Some(ch) = chars.next() {
        match (ch, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                out.last_mut().unwrap().push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(String::new()),
            (ch, _) => out.last_mut().unwrap().push(ch),
        }
    }
    out
}

fn index(names: &mut Vec<String>, name: &str) -> usize {
    names.iter().position(|n| n == name).unwrap_or_else(|| {
        names.push(name.to_owned());
        names.len() - 1
    })
}
