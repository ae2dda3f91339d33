//! Random AIGER 1.9 circuits (ASCII `.aag`): inputs, latches reset to 0, 1 or uninitialised,
//! AND gates over earlier signals, several bad-state properties and invariant constraints,
//! from a handful of gates to several hundred.
//!
//! [`generate_with_resets`] also gives latches reset functions (HWMCC'25): a literal over the
//! inputs and the latches before it (so the resets are stratified), alone or in an AND gate
//! of its own. ABC reads no reset functions, so such a circuit comes with an equivalent one
//! without them, translated here at the text level, apart from warden's own lowering: the
//! latches become uninitialised, and a new latch `first` (reset 1, next 0) guards one
//! invariant constraint per latch, `first -> latch == reset`.
//!
//! Plain random logic makes most properties fail in frame 0; a property is therefore often a
//! conjunction of several signals (latches in particular), which a trace must first reach,
//! and a constraint is usually a disjunction, which holds in most states, so that sat,
//! unsat and deep answers all occur.

use super::rng::Rng;

/// The size class of a circuit: its largest number of inputs, latches and gates.
#[derive(Clone, Copy)]
pub struct Size {
    pub inputs: usize,
    pub latches: usize,
    pub gates: usize,
}

/// The sizes a campaign draws from: tiny, small, medium (about a hundred gates) and large
/// (several hundred).
pub const SIZES: [Size; 4] = [
    Size {
        inputs: 2,
        latches: 3,
        gates: 6,
    },
    Size {
        inputs: 4,
        latches: 8,
        gates: 30,
    },
    Size {
        inputs: 8,
        latches: 16,
        gates: 120,
    },
    Size {
        inputs: 12,
        latches: 32,
        gates: 400,
    },
];

/// The ASCII AIGER text of a random circuit; the size class is drawn with weights
/// `weights` (one per entry of [`SIZES`]).
pub fn generate(rng: &mut Rng, weights: &[u64; 4]) -> String {
    let (c, parts) = draw(rng, weights, false);
    c.text(&parts)
}

/// A random circuit of [`generate`] whose latches may also have reset functions, and the
/// equivalent circuit without reset functions (see the module doc).
pub fn generate_with_resets(rng: &mut Rng, weights: &[u64; 4]) -> (String, String) {
    let (c, parts) = draw(rng, weights, true);
    (c.text(&parts), c.without_resets(&parts))
}

/// What a circuit's text lists besides its gates: next states, resets, bad states and
/// constraints.
struct Parts {
    nexts: Vec<u32>,
    resets: Vec<u32>,
    bads: Vec<u32>,
    constraints: Vec<u32>,
}

/// A random circuit, with reset functions when `reset_functions`.
fn draw(rng: &mut Rng, weights: &[u64; 4], reset_functions: bool) -> (Circuit, Parts) {
    let total: u64 = weights.iter().sum();
    let mut draw = rng.next_u64() % total.max(1);
    let class = (0..4)
        .find(|&i| {
            let hit = draw < weights[i];
            draw = draw.saturating_sub(weights[i]);
            hit
        })
        .unwrap_or(0);
    let size = SIZES[class];
    let mut c = Circuit::new(
        rng.range(0, size.inputs),
        rng.range(usize::from(class > 0), size.latches),
    );
    for _ in 0..rng.range(1, size.gates) {
        let (a, b) = (c.signal(rng), c.signal(rng));
        c.and(a, b);
    }
    let nexts: Vec<u32> = (0..c.latches).map(|_| c.signal(rng)).collect();
    let resets: Vec<u32> = (0..c.latches)
        .map(
            |i| match rng.range(0, 3 + 2 * usize::from(reset_functions)) {
                0 => 0,
                1 => 1,
                2 => c.latch(i), // uninitialised
                _ => c.reset_function(rng, i),
            },
        )
        .collect();
    let bads: Vec<u32> = (0..rng.range(1, 3))
        .map(|_| {
            let width = if rng.chance(60) { rng.range(2, 4) } else { 1 };
            c.conjunction(rng, width)
        })
        .collect();
    let constraints: Vec<u32> = (0..rng.range(0, 2).saturating_sub(usize::from(rng.chance(40))))
        .map(|_| {
            let width = rng.range(1, 3);
            c.conjunction(rng, width) ^ 1
        })
        .collect();
    let parts = Parts {
        nexts,
        resets,
        bads,
        constraints,
    };
    (c, parts)
}

/// A circuit under construction: variables 1..=I are the inputs, then the latches, then the
/// gates in order.
struct Circuit {
    inputs: usize,
    latches: usize,
    gates: Vec<(u32, u32)>,
}

impl Circuit {
    fn new(inputs: usize, latches: usize) -> Circuit {
        Circuit {
            inputs,
            latches,
            gates: Vec::new(),
        }
    }

    fn latch(&self, i: usize) -> u32 {
        2 * (self.inputs + 1 + i) as u32
    }

    fn vars(&self) -> usize {
        self.inputs + self.latches + self.gates.len()
    }

    /// A random literal of an existing signal (rarely a constant), newer gates more likely.
    fn signal(&self, rng: &mut Rng) -> u32 {
        let n = self.vars();
        if n == 0 || rng.chance(3) {
            return rng.range(0, 1) as u32;
        }
        let var = if !self.gates.is_empty() && rng.chance(50) {
            let first = self.inputs + self.latches + 1;
            rng.range(first.max(n.saturating_sub(8)), n)
        } else {
            rng.range(1, n)
        };
        2 * var as u32 + rng.range(0, 1) as u32
    }

    fn and(&mut self, a: u32, b: u32) -> u32 {
        self.gates.push((a, b));
        2 * self.vars() as u32
    }

    /// The conjunction of `width` random signals, latches preferred.
    fn conjunction(&mut self, rng: &mut Rng, width: usize) -> u32 {
        let mut acc = self.signal(rng);
        for _ in 1..width {
            let next = if self.latches > 0 && rng.chance(60) {
                self.latch(rng.range(0, self.latches - 1)) + rng.range(0, 1) as u32
            } else {
                self.signal(rng)
            };
            acc = self.and(acc, next);
        }
        acc
    }

    /// A reset function for latch `i`: an input or an earlier latch, or the AND of two of
    /// them (signs random), in a gate of its own.
    fn reset_function(&mut self, rng: &mut Rng, i: usize) -> u32 {
        let sources = self.inputs + i;
        if sources == 0 {
            return rng.range(0, 1) as u32;
        }
        let source = |rng: &mut Rng| 2 * rng.range(1, sources) as u32 + rng.range(0, 1) as u32;
        let a = source(rng);
        match rng.chance(50) {
            true => a,
            false => {
                let b = source(rng);
                self.and(a, b) ^ rng.range(0, 1) as u32
            }
        }
    }

    /// The text of the circuit.
    fn text(&self, p: &Parts) -> String {
        let latches: Vec<(u32, u32, u32)> = (0..self.latches)
            .map(|i| (self.latch(i), p.nexts[i], p.resets[i]))
            .collect();
        write(
            self.inputs,
            &latches,
            &p.bads,
            &p.constraints,
            &self.numbered_gates(),
        )
    }

    /// The text of the equivalent circuit without reset functions (see the module doc): the
    /// new latch and gates take the variables after the circuit's.
    fn without_resets(&self, p: &Parts) -> String {
        let mut gates = self.numbered_gates();
        let first = 2 * (self.vars() as u32 + 1);
        let mut and = |a: u32, b: u32| {
            let lhs = first + 2 * (gates.len() - self.gates.len() + 1) as u32;
            gates.push((lhs, a, b));
            lhs
        };
        let mut latches = Vec::new();
        let mut constraints = p.constraints.clone();
        for i in 0..self.latches {
            let (l, r) = (self.latch(i), p.resets[i]);
            if r <= 1 || r == l {
                latches.push((l, p.nexts[i], r));
                continue;
            }
            latches.push((l, p.nexts[i], l));
            let above = and(l, r ^ 1);
            let below = and(l ^ 1, r);
            let same = and(above ^ 1, below ^ 1);
            constraints.push(and(first, same ^ 1) ^ 1);
        }
        latches.push((first, 0, 1));
        write(self.inputs, &latches, &p.bads, &constraints, &gates)
    }

    /// The gates as `(lhs, rhs0, rhs1)`.
    fn numbered_gates(&self) -> Vec<(u32, u32, u32)> {
        let first = self.inputs + self.latches + 1;
        (self.gates.iter().enumerate())
            .map(|(i, &(a, b))| (2 * (first + i) as u32, a, b))
            .collect()
    }
}

/// The ASCII AIGER text of a circuit with inputs `2..=2 * inputs` and the given latches
/// `(lit, next, reset)`, bad states, constraints and gates `(lhs, rhs0, rhs1)`.
fn write(
    inputs: usize,
    latches: &[(u32, u32, u32)],
    bads: &[u32],
    constraints: &[u32],
    gates: &[(u32, u32, u32)],
) -> String {
    use std::fmt::Write as _;
    let vars = inputs + latches.len() + gates.len();
    let mut s = format!(
        "aag {vars} {inputs} {} 0 {} {} {}\n",
        latches.len(),
        gates.len(),
        bads.len(),
        constraints.len()
    );
    for i in 0..inputs {
        let _ = writeln!(s, "{}", 2 * (i + 1));
    }
    for (lit, next, reset) in latches {
        let _ = writeln!(s, "{lit} {next} {reset}");
    }
    for lit in bads.iter().chain(constraints) {
        let _ = writeln!(s, "{lit}");
    }
    for (lhs, a, b) in gates {
        let _ = writeln!(s, "{lhs} {a} {b}");
    }
    s
}
