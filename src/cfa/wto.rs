//! Bourdoncle's weak topological ordering ("Efficient chaotic iteration strategies with
//! widenings", FMIL 1993) of a graph's vertices reachable from a root: a well-parenthesised
//! order in which every edge goes forward, except the edges back to the head of a component
//! (a parenthesised group, nested as the graph's loops are). UFO (seed 004) unrolls a CFA in
//! this order, innermost loops first.
//!
//! The algorithm is Bourdoncle's depth-first `visit`/`component` pair, run on an explicit
//! stack of frames instead of the call stack: a statement-level CFA has a location per
//! statement, and a chain of them as deep as the program is long.

/// One element of a weak topological ordering.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Wto {
    Vertex(usize),
    /// A component: its head, then its body in order.
    Component(usize, Vec<Wto>),
}

/// An element while the partitions are built (a component's body by its partition index).
enum Raw {
    Vertex(usize),
    Component(usize, usize),
}

/// A suspended call of Bourdoncle's `visit` or `component`.
enum Frame {
    /// `visit(v)`: the next successor to look at, the lowest depth-first number reached, and
    /// whether `v` is on a cycle; elements go to partition `part`.
    Visit {
        v: usize,
        next: usize,
        head: u32,
        looped: bool,
        part: usize,
    },
    /// `component(v)`: its body goes to partition `inner`, the component itself to `part`;
    /// `head` is what the `visit` that started it returns.
    Component {
        v: usize,
        next: usize,
        inner: usize,
        part: usize,
        head: u32,
    },
}

/// The weak topological ordering of the vertices reachable from `root`, `succ[v]` listing
/// the successors of vertex `v`.
pub fn weak_topological_order(succ: &[Vec<usize>], root: usize) -> Vec<Wto> {
    const DONE: u32 = u32::MAX;
    let mut dfn = vec![0u32; succ.len()];
    let mut num = 0u32;
    let mut stack: Vec<usize> = Vec::new();
    // Each partition's elements, last first (Bourdoncle prepends them).
    let mut parts: Vec<Vec<Raw>> = vec![Vec::new()];
    let mut frames: Vec<Frame> = Vec::new();
    let mut start = |v: usize, part: usize, dfn: &mut [u32], stack: &mut Vec<usize>| {
        num += 1;
        dfn[v] = num;
        stack.push(v);
        Frame::Visit {
            v,
            next: 0,
            head: num,
            looped: false,
            part,
        }
    };
    frames.push(start(root, 0, &mut dfn, &mut stack));
    // What the frame just popped returned to the one below it.
    let mut returned: Option<u32> = None;
    while let Some(frame) = frames.last_mut() {
        match frame {
            Frame::Visit {
                v,
                next,
                head,
                looped,
                part,
            } => {
                if let Some(min) = returned.take() {
                    if min <= *head {
                        *head = min;
                        *looped = true;
                    }
                }
                if let Some(&w) = succ[*v].get(*next) {
                    *next += 1;
                    match dfn[w] {
                        0 => {
                            let part = *part;
                            frames.push(start(w, part, &mut dfn, &mut stack));
                        }
                        min if min <= *head => {
                            *head = min;
                            *looped = true;
                        }
                        _ => {}
                    }
                    continue;
                }
                let (v, head, looped, part) = (*v, *head, *looped, *part);
                frames.pop();
                returned = Some(head);
                if head != dfn[v] {
                    continue;
                }
                dfn[v] = DONE;
                let mut top = stack.pop().expect("v is on the stack");
                if !looped {
                    parts[part].push(Raw::Vertex(v));
                    continue;
                }
                while top != v {
                    dfn[top] = 0;
                    top = stack.pop().expect("v is on the stack");
                }
                let inner = parts.len();
                parts.push(Vec::new());
                returned = None;
                frames.push(Frame::Component {
                    v,
                    next: 0,
                    inner,
                    part,
                    head,
                });
            }
            Frame::Component {
                v,
                next,
                inner,
                part,
                head,
            } => {
                returned = None;
                if let Some(&w) = succ[*v].get(*next) {
                    *next += 1;
                    if dfn[w] == 0 {
                        let inner = *inner;
                        frames.push(start(w, inner, &mut dfn, &mut stack));
                    }
                    continue;
                }
                let (v, inner, part, head) = (*v, *inner, *part, *head);
                frames.pop();
                parts[part].push(Raw::Component(v, inner));
                returned = Some(head);
            }
        }
    }
    build(&parts, 0)
}

/// Partition `at` in order (nesting as deep as the graph's loops).
fn build(parts: &[Vec<Raw>], at: usize) -> Vec<Wto> {
    (parts[at].iter().rev())
        .map(|raw| match *raw {
            Raw::Vertex(v) => Wto::Vertex(v),
            Raw::Component(h, inner) => Wto::Component(h, build(parts, inner)),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(n: usize, edges: &[(usize, usize)]) -> Vec<Vec<usize>> {
        let mut succ = vec![Vec::new(); n];
        for &(a, b) in edges {
            succ[a].push(b);
        }
        succ
    }

    #[test]
    fn bourdoncles_example() {
        // The example of Bourdoncle's paper (vertices 1..8 as 0..7): 1 2 (3 4 (5 6) 7) 8.
        let succ = graph(
            8,
            &[
                (0, 1),
                (1, 2),
                (2, 3),
                (3, 4),
                (4, 5),
                (5, 4),
                (5, 6),
                (6, 2),
                (6, 7),
                (3, 6),
            ],
        );
        use Wto::*;
        let expected = vec![
            Vertex(0),
            Vertex(1),
            Component(2, vec![Vertex(3), Component(4, vec![Vertex(5)]), Vertex(6)]),
            Vertex(7),
        ];
        assert_eq!(weak_topological_order(&succ, 0), expected);
    }

    #[test]
    fn the_seeds_example_and_unreachable_vertices() {
        // Seed 004's `foo`: 1 (2 3 4 5 6) 7 8 9 (as 0..8), with 2's loop exiting to 7;
        // vertex 9 is unreachable and left out.
        let succ = graph(
            10,
            &[
                (0, 1),
                (1, 2),
                (2, 3),
                (2, 4),
                (3, 5),
                (4, 5),
                (5, 1),
                (1, 6),
                (6, 7),
                (7, 8),
                (9, 0),
            ],
        );
        use Wto::*;
        let body = vec![Vertex(2), Vertex(4), Vertex(3), Vertex(5)];
        let order = weak_topological_order(&succ, 0);
        assert_eq!(order.len(), 5);
        assert_eq!(order[0], Vertex(0));
        match &order[1] {
            Component(1, inner) => {
                let mut got = inner.clone();
                let mut want = body;
                got.sort_by_key(|w| format!("{w:?}"));
                want.sort_by_key(|w| format!("{w:?}"));
                assert_eq!(got, want);
                // Every edge inside the body goes forward.
                let at = |v| inner.iter().position(|w| *w == Vertex(v)).unwrap();
                assert!(at(2) < at(3) && at(2) < at(4) && at(3) < at(5) && at(4) < at(5));
            }
            other => panic!("expected the loop at 1, got {other:?}"),
        }
        assert_eq!(&order[2..], &[Vertex(6), Vertex(7), Vertex(8)]);
    }

    /// Each vertex's position in the order and the heads of the components that contain
    /// it (outermost first).
    fn positions(order: &[Wto], heads: &mut Vec<usize>, out: &mut Vec<(usize, Vec<usize>)>) {
        for el in order {
            match el {
                Wto::Vertex(v) => out.push((*v, heads.clone())),
                Wto::Component(h, body) => {
                    heads.push(*h);
                    out.push((*h, heads.clone()));
                    positions(body, heads, out);
                    heads.pop();
                }
            }
        }
    }

    /// On pseudo-random graphs: every reachable vertex appears once, and every edge goes
    /// forward in the order or back to the head of a component that contains its source
    /// (Bourdoncle's definition), so that a walk in this order sees a vertex after all its
    /// predecessors but those along a loop.
    #[test]
    fn every_edge_goes_forward_or_back_to_an_enclosing_head() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for round in 0..300 {
            let n = 2 + round % 25;
            let edges: Vec<(usize, usize)> =
                (0..n + next(2 * n)).map(|_| (next(n), next(n))).collect();
            let succ = graph(n, &edges);
            let mut at = Vec::new();
            positions(&weak_topological_order(&succ, 0), &mut Vec::new(), &mut at);
            let mut reachable = vec![false; n];
            let mut stack = vec![0];
            while let Some(v) = stack.pop() {
                if !std::mem::replace(&mut reachable[v], true) {
                    stack.extend(&succ[v]);
                }
            }
            let mut index = vec![None; n];
            for (i, (v, _)) in at.iter().enumerate() {
                assert!(index[*v].replace(i).is_none(), "{v} twice in {edges:?}");
            }
            for v in 0..n {
                assert_eq!(index[v].is_some(), reachable[v], "{v} in {edges:?}");
            }
            for &(u, v) in &edges {
                let (Some(iu), Some(iv)) = (index[u], index[v]) else {
                    continue;
                };
                let back_to_head = at[iu].1.contains(&v);
                assert!(iu < iv || back_to_head, "edge {u}->{v} in {edges:?}");
            }
        }
    }

    #[test]
    fn a_self_loop_and_a_long_chain() {
        let mut edges: Vec<(usize, usize)> = (0..100_000).map(|i| (i, i + 1)).collect();
        edges.push((50_000, 50_000));
        let order = weak_topological_order(&graph(100_001, &edges), 0);
        assert_eq!(order.len(), 100_001);
        assert_eq!(order[50_000], Wto::Component(50_000, vec![]));
        assert_eq!(order[100_000], Wto::Vertex(100_000));
    }
}
