//! How deep a counterexample of a CFA can be: the completeness threshold of BMC on
//! [`super::encode::encode`] of a CFA in which no path to the error goes round a loop.
//!
//! One step of the encoded system fires one edge, and the bad state is `pc == error`, reached
//! only through an edge into the error location. So a counterexample of `k` steps is a path
//! of `k` edges from the entry to the error. When the part of the CFA that lies on such paths
//! (reachable from the entry and reaching the error) has no cycle, no path there is longer
//! than its longest one, `d` edges: BMC that finds every depth `0..=d` clean has proved the
//! error unreachable. Loop-free programs (straight-line constraint problems, recursion
//! inlined to its bound without loops) are decided this way, where induction may have to
//! prove the same hard query again from an arbitrary state.

use super::{reachable, Cfa};

/// The number of edges of the longest path from the entry to the error, or `None` when a
/// path to the error can go round a cycle (then counterexamples have no bound).
pub fn longest_error_path(cfa: &Cfa) -> Option<usize> {
    let n = cfa.locations.len();
    let (entry, error) = (cfa.entry.index(), cfa.error.index());
    // Edges that can lie on a path to the error: none leaves the error itself (the first
    // arrival is the counterexample).
    let edges: Vec<(usize, usize)> = cfa
        .edges
        .iter()
        .map(|e| (e.from.index(), e.to.index()))
        .filter(|&(from, _)| from != error)
        .collect();
    let mut succ = vec![Vec::new(); n];
    let mut pred = vec![Vec::new(); n];
    for &(from, to) in &edges {
        succ[from].push(to);
        pred[to].push(from);
    }
    let reached = reachable(entry, &succ);
    let reaching = reachable(error, &pred);
    if !reached[error] {
        return Some(0);
    }
    let on_path: Vec<bool> = (0..n).map(|l| reached[l] && reaching[l]).collect();
    // Kahn's order over the locations on paths to the error; the longest path to each
    // location grows along it. A location left unordered lies on a cycle.
    let mut indegree = vec![0usize; n];
    for &(from, to) in &edges {
        if on_path[from] && on_path[to] {
            indegree[to] += 1;
        }
    }
    let mut longest = vec![0usize; n];
    let mut ready: Vec<usize> = (0..n).filter(|&l| on_path[l] && indegree[l] == 0).collect();
    let mut ordered = 0;
    while let Some(l) = ready.pop() {
        ordered += 1;
        for &to in succ[l].iter().filter(|&&to| on_path[to]) {
            longest[to] = longest[to].max(longest[l] + 1);
            indegree[to] -= 1;
            if indegree[to] == 0 {
                ready.push(to);
            }
        }
    }
    (ordered == on_path.iter().filter(|&&p| p).count()).then_some(longest[error])
}

#[cfg(test)]
mod tests {
    use super::super::{Cfa, Edge, Loc};
    use super::longest_error_path;

    /// A CFA of `extra` locations besides entry (0), error (1) and exit (2), with an
    /// always-enabled edge for each pair of `edges`.
    fn graph(extra: usize, edges: &[(u32, u32)]) -> Cfa {
        let mut cfa = Cfa::new();
        for _ in 0..extra {
            cfa.add_location(None);
        }
        let t = cfa.bool_const(true);
        for &(from, to) in edges {
            cfa.edges.push(Edge {
                from: Loc(from),
                to: Loc(to),
                guard: t,
                assigns: vec![],
                nondets: vec![],
                lines: vec![],
            });
        }
        cfa
    }

    #[test]
    fn the_longest_of_the_loop_free_paths_bounds_the_counterexamples() {
        // 0 -> 3 -> 4 -> 1 and a shortcut 0 -> 4; 4 -> 2 ends normally.
        let cfa = graph(2, &[(0, 3), (3, 4), (0, 4), (4, 1), (4, 2)]);
        assert_eq!(longest_error_path(&cfa), Some(3));
    }

    #[test]
    fn a_loop_on_the_way_to_the_error_leaves_no_bound() {
        let cfa = graph(2, &[(0, 3), (3, 4), (4, 3), (4, 1)]);
        assert_eq!(longest_error_path(&cfa), None);
        // A loop back to the entry too.
        let cfa = graph(1, &[(0, 3), (3, 0), (3, 1)]);
        assert_eq!(longest_error_path(&cfa), None);
    }

    #[test]
    fn loops_off_the_paths_to_the_error_do_not_matter() {
        // A loop after the last chance of an error (3 <-> 4 never reaches it), one that the
        // entry never reaches (5 <-> 6), and edges out of the error.
        let cfa = graph(
            4,
            &[
                (0, 1),
                (0, 3),
                (3, 4),
                (4, 3),
                (5, 6),
                (6, 5),
                (6, 1),
                (1, 0),
                (1, 1),
            ],
        );
        assert_eq!(longest_error_path(&cfa), Some(1));
    }

    #[test]
    fn an_error_without_an_edge_to_it_has_bound_zero() {
        let cfa = graph(1, &[(0, 3), (3, 3), (3, 2)]);
        assert_eq!(longest_error_path(&cfa), Some(0));
    }
}
