//! Random AIGER 1.9 circuits (ASCII `.aag`): inputs, latches reset to 0, 1 or uninitialised,
//! AND gates over earlier signals, several bad-state properties and invariant constraints,
//! from a handful of gates to several hundred.
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
        .map(|i| match rng.range(0, 2) {
            0 => 0,
            1 => 1,
            _ => c.latch(i), // uninitialised
        })
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
    c.text(&nexts, &resets, &bads, &constraints)
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

    fn text(&self, nexts: &[u32], resets: &[u32], bads: &[u32], constraints: &[u32]) -> String {
        use std::fmt::Write as _;
        let mut s = format!(
            "aag {} {} {} 0 {} {} {}\n",
            self.vars(),
            self.inputs,
            self.latches,
            self.gates.len(),
            bads.len(),
            constraints.len()
        );
        for i in 0..self.inputs {
            let _ = writeln!(s, "{}", 2 * (i + 1));
        }
        for (i, (next, reset)) in nexts.iter().zip(resets).enumerate() {
            let _ = writeln!(s, "{} {next} {reset}", self.latch(i));
        }
        for lit in bads.iter().chain(constraints) {
            let _ = writeln!(s, "{lit}");
        }
        let first = self.inputs + self.latches + 1;
        for (i, (a, b)) in self.gates.iter().enumerate() {
            let _ = writeln!(s, "{} {a} {b}", 2 * (first + i));
        }
        s
    }
}
