//! The AIGER writers.
//!
//! The ASCII writer prints an [`Aiger`] as it is. The binary format leaves no choice of
//! numbering (inputs are variables `1..=I`, latches follow, then gates in topological order,
//! each reading smaller literals), so the binary writer renumbers any valid [`Aiger`] — for
//! instance one read from an ASCII file with gaps and gates in arbitrary order — and remaps
//! the literals of every section accordingly.

use std::io::{self, BufWriter, Write};

use super::checks::topo_order;
use super::parse::MAX_VAR;
use super::var_table::VarTable;
use super::Aiger;

/// Writes `a` in the ASCII format, with its own numbering.
pub fn write_ascii(a: &Aiger, w: &mut impl Write) -> io::Result<()> {
    let mut w = BufWriter::new(w);
    header(&mut w, "aag", a.maxvar, a)?;
    for &lit in &a.inputs {
        writeln!(w, "{lit}")?;
    }
    for l in &a.latches {
        write!(w, "{} {}", l.lit, l.next)?;
        reset(&mut w, l.reset)?;
    }
    properties(&mut w, a, Ok)?;
    for &(lhs, rhs0, rhs1) in &a.ands {
        writeln!(w, "{lhs} {rhs0} {rhs1}")?;
    }
    symbols_and_comments(&mut w, a)?;
    w.flush()
}

/// Writes `a` in the binary format, renumbered canonically. Fails with
/// [`io::ErrorKind::InvalidInput`] when `a` is not a valid circuit (a variable defined twice,
/// an undefined literal, cyclic gates), which [`super::parse`] never returns.
pub fn write_binary(a: &Aiger, w: &mut impl Write) -> io::Result<()> {
    let (map, order) = Renumbering::new(a)?;
    let mut w = BufWriter::new(w);
    let leaves = map.first_and - 1;
    header(&mut w, "aig", leaves + a.ands.len() as u32, a)?;
    for l in &a.latches {
        write!(w, "{}", map.lit(l.next)?)?;
        reset(&mut w, map.lit(l.reset)?)?;
    }
    properties(&mut w, a, |lit| map.lit(lit))?;
    for (position, &gate) in order.iter().enumerate() {
        let (_, rhs0, rhs1) = a.ands[gate];
        let lhs = 2 * (map.first_and + position as u32);
        let (r0, r1) = (map.lit(rhs0)?, map.lit(rhs1)?);
        let (r0, r1) = (r0.max(r1), r0.min(r1));
        // The topological order guarantees r0 < lhs.
        varint(&mut w, lhs - r0)?;
        varint(&mut w, r0 - r1)?;
    }
    symbols_and_comments(&mut w, a)?;
    w.flush()
}

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message)
}

/// The 1.0 header when there are no 1.9 sections, so 1.0-only tools can still read the file.
fn header(w: &mut impl Write, format: &str, maxvar: u32, a: &Aiger) -> io::Result<()> {
    write!(
        w,
        "{format} {maxvar} {} {} {} {}",
        a.inputs.len(),
        a.latches.len(),
        a.outputs.len(),
        a.ands.len()
    )?;
    let extra = [
        a.bad.len(),
        a.constraints.len(),
        a.justice.len(),
        a.fairness.len(),
    ];
    if extra.iter().any(|&n| n > 0) {
        let [b, c, j, f] = extra;
        write!(w, " {b} {c} {j} {f}")?;
    }
    writeln!(w)
}

/// Ends a latch line; a reset of 0 is the default and left out, as in AIGER 1.0.
fn reset(w: &mut impl Write, reset: u32) -> io::Result<()> {
    if reset == 0 {
        writeln!(w)
    } else {
        writeln!(w, " {reset}")
    }
}

/// Outputs, bad, constraints, justice and fairness, with literals mapped by `map`.
fn properties(
    w: &mut impl Write,
    a: &Aiger,
    map: impl Fn(u32) -> io::Result<u32>,
) -> io::Result<()> {
    for &lit in a.outputs.iter().chain(&a.bad).chain(&a.constraints) {
        writeln!(w, "{}", map(lit)?)?;
    }
    for lits in &a.justice {
        writeln!(w, "{}", lits.len())?;
    }
    for &lit in a.justice.iter().flatten().chain(&a.fairness) {
        writeln!(w, "{}", map(lit)?)?;
    }
    Ok(())
}

fn symbols_and_comments(w: &mut impl Write, a: &Aiger) -> io::Result<()> {
    let s = &a.symbols;
    for (kind, names) in [
        ('i', &s.inputs),
        ('l', &s.latches),
        ('o', &s.outputs),
        ('b', &s.bad),
        ('c', &s.constraints),
        ('j', &s.justice),
        ('f', &s.fairness),
    ] {
        for (position, name) in names.iter().enumerate() {
            if let Some(name) = name {
                writeln!(w, "{kind}{position} {name}")?;
            }
        }
    }
    if !a.comments.is_empty() {
        writeln!(w, "c")?;
        for line in &a.comments {
            writeln!(w, "{line}")?;
        }
    }
    Ok(())
}

/// The 7-bit little-endian encoding of the binary AND section.
fn varint(w: &mut impl Write, mut x: u32) -> io::Result<()> {
    let mut buf = [0u8; 5];
    let mut n = 0;
    while x >= 0x80 {
        buf[n] = (x & 0x7f) as u8 | 0x80;
        x >>= 7;
        n += 1;
    }
    buf[n] = x as u8;
    w.write_all(&buf[..=n])
}

/// The canonical numbering of a circuit: inputs `1..=I`, latches `I+1..=I+L`, then gates
/// in topological order.
struct Renumbering {
    /// Definition codes by old variable: 1 + the ordinal of the definition (inputs, latches,
    /// gates in `ands` order). For inputs and latches the code is the new variable.
    table: VarTable,
    /// The code, and the new variable, of the first gate.
    first_and: u32,
    /// The topological position of each gate, by index in `ands`.
    position: Vec<u32>,
}

impl Renumbering {
    /// The numbering of `a`, and its gates (indices into `a.ands`) in topological order.
    fn new(a: &Aiger) -> io::Result<(Renumbering, Vec<usize>)> {
        let leaves = a.inputs.len() + a.latches.len();
        let total = leaves + a.ands.len();
        if total > MAX_VAR as usize {
            return Err(invalid(format!("{total} variables are too many for AIGER")));
        }
        let defined = || {
            a.inputs
                .iter()
                .copied()
                .chain(a.latches.iter().map(|l| l.lit))
                .chain(a.ands.iter().map(|g| g.0))
        };
        let max_var = defined().map(|lit| lit >> 1).max().unwrap_or(0);
        let mut table = VarTable::new(max_var, total);
        for (ordinal, lit) in defined().enumerate() {
            if lit < 2 || lit & 1 == 1 {
                return Err(invalid(format!(
                    "literal {lit} cannot be defined: inputs, latches and gates need positive \
                     non-constant literals"
                )));
            }
            if table.get(lit >> 1) != 0 {
                return Err(invalid(format!("variable {} is defined twice", lit >> 1)));
            }
            table.set(lit >> 1, ordinal as u32 + 1);
        }
        let first_and = leaves as u32 + 1;
        let order = topo_order(&a.ands, |v| {
            let code = table.get(v);
            (code >= first_and).then(|| (code - first_and) as usize)
        })
        .map_err(|g| invalid(format!("AND gate {} is on a cycle", a.ands[g].0)))?;
        let mut position = vec![0; order.len()];
        for (p, &gate) in order.iter().enumerate() {
            position[gate] = p as u32;
        }
        let map = Renumbering {
            table,
            first_and,
            position,
        };
        Ok((map, order))
    }

    /// The new literal of `lit`.
    fn lit(&self, lit: u32) -> io::Result<u32> {
        if lit < 2 {
            return Ok(lit);
        }
        let var = match self.table.get(lit >> 1) {
            0 => return Err(invalid(format!("literal {lit} is undefined"))),
            code if code < self.first_and => code,
            code => self.first_and + self.position[(code - self.first_and) as usize],
        };
        Ok((var << 1) | (lit & 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::aiger::{parse, Latch};
    use std::collections::HashMap;

    const HALF_ADDER: &str = "aag 7 2 0 2 3\n2\n4\n6\n12\n6 13 15\n12 2 4\n14 3 5\n\
                              i0 x\ni1 y\no0 s\no1 c\nc\nhalf adder\n";

    /// An ASCII 1.9 file with gaps in the numbering, gates out of order, all three kinds of
    /// latch reset and every property section.
    const SCRAMBLED: &str = "aag 20 2 3 2 4 1 1 1 1\n40\n6\n10 31\n14 12 1\n18 19 18\n31\n24\n\
                             34\n35\n2\n30\n25\n18\n30 12 41\n12 10 7\n34 31 19\n24 15 40\n\
                             i0 a\nl2 toggle\nb0 bad\nc\na comment\n";

    fn ascii(a: &Aiger) -> String {
        let mut out = Vec::new();
        write_ascii(a, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn binary(a: &Aiger) -> Vec<u8> {
        let mut out = Vec::new();
        write_binary(a, &mut out).unwrap();
        out
    }

    #[test]
    fn ascii_writer_reproduces_the_file() {
        for text in [HALF_ADDER, SCRAMBLED] {
            assert_eq!(ascii(&parse(text.as_bytes()).unwrap()), text);
        }
    }

    #[test]
    fn binary_writer_matches_the_specification_example() {
        let a = parse(HALF_ADDER.as_bytes()).unwrap();
        let expected: &[u8] = b"aig 5 2 0 2 3\n10\n6\n\x02\x02\x03\x02\x01\x02\
                                i0 x\ni1 y\no0 s\no1 c\nc\nhalf adder\n";
        assert_eq!(binary(&a), expected);
        // Canonical files are written back unchanged.
        assert_eq!(binary(&parse(expected).unwrap()), expected);
    }

    #[test]
    fn headers_1_0_and_1_9() {
        // A toggle flip-flop: 1.0 header, latch without reset field.
        let a = parse(b"aag 1 0 1 2 0\n2 3\n2\n3\n").unwrap();
        assert_eq!(binary(&a), b"aig 1 0 1 2 0\n3\n2\n3\n");
        // The same as a bad-state property: all four 1.9 fields.
        let a = parse(b"aag 1 0 1 0 0 1\n2 3\n2\n").unwrap();
        assert_eq!(ascii(&a), "aag 1 0 1 0 0 1 0 0 0\n2 3\n2\n");
        assert_eq!(binary(&a), b"aig 1 0 1 0 0 1 0 0 0\n3\n2\n");
    }

    #[test]
    fn uninitialised_latches_are_renumbered_with_their_latch() {
        let a = parse(b"aag 9 1 2 0 0 1\n18\n4 5 4\n2 2 1\n4\n").unwrap();
        assert_eq!(binary(&a), b"aig 3 1 2 0 0 1 0 0 0\n5 4\n6 1\n4\n");
        let b = parse(&binary(&a)).unwrap();
        assert_eq!(
            b.latches,
            vec![
                Latch {
                    lit: 4,
                    next: 5,
                    reset: 4
                },
                Latch {
                    lit: 6,
                    next: 6,
                    reset: 1
                }
            ]
        );
    }

    /// Simulates `steps` cycles from the reset state (uninitialised latches start at 0) with
    /// pseudo-random inputs; returns the values of all property literals in each cycle.
    fn simulate(a: &Aiger, steps: usize) -> Vec<Vec<bool>> {
        let mut rng = 0x2545_f491_4f6c_dd1d_u64;
        let mut latches: Vec<bool> = a.latches.iter().map(|l| l.reset == 1).collect();
        let mut trace = Vec::new();
        for _ in 0..steps {
            let mut value = HashMap::from([(0, false)]);
            for &input in &a.inputs {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                value.insert(input >> 1, rng & 1 == 1);
            }
            for (l, &v) in a.latches.iter().zip(&latches) {
                value.insert(l.lit >> 1, v);
            }
            let lit =
                |value: &HashMap<u32, bool>, l: u32| value.get(&(l >> 1)).map(|v| v ^ (l & 1 == 1));
            let mut pending = a.ands.clone();
            while !pending.is_empty() {
                pending.retain(|&(lhs, r0, r1)| match (lit(&value, r0), lit(&value, r1)) {
                    (Some(x), Some(y)) => {
                        value.insert(lhs >> 1, x && y);
                        false
                    }
                    _ => true,
                });
            }
            let props = a.outputs.iter().chain(&a.bad).chain(&a.constraints);
            let props = props.chain(a.justice.iter().flatten()).chain(&a.fairness);
            trace.push(props.map(|&l| lit(&value, l).unwrap()).collect());
            latches = a
                .latches
                .iter()
                .map(|l| lit(&value, l.next).unwrap())
                .collect();
        }
        trace
    }

    #[test]
    fn binary_round_trip_preserves_behaviour() {
        for text in [HALF_ADDER, SCRAMBLED] {
            let a = parse(text.as_bytes()).unwrap();
            let b = parse(&binary(&a)).unwrap();
            assert_eq!(
                b.maxvar as usize,
                a.inputs.len() + a.latches.len() + a.ands.len()
            );
            assert_eq!(b.symbols, a.symbols);
            assert_eq!(b.comments, a.comments);
            assert_eq!(b.justice.len(), a.justice.len());
            let uninit = |x: &Aiger| {
                x.latches
                    .iter()
                    .map(|l| l.reset == l.lit)
                    .collect::<Vec<_>>()
            };
            assert_eq!(uninit(&b), uninit(&a));
            assert_eq!(simulate(&b, 20), simulate(&a, 20));
            // Binary to ASCII and back is the identity.
            assert_eq!(parse(ascii(&b).as_bytes()).unwrap(), b);
        }
    }

    #[test]
    fn invalid_circuits_are_refused_not_written() {
        let mut a = parse(HALF_ADDER.as_bytes()).unwrap();
        a.ands[1].1 = 6; // gate 12 now reads gate 6, which reads gate 12
        let e = write_binary(&a, &mut Vec::new()).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        assert!(e.to_string().contains("cycle"), "{e}");
        let mut a = parse(HALF_ADDER.as_bytes()).unwrap();
        a.outputs[0] = 16;
        let e = write_binary(&a, &mut Vec::new()).unwrap_err();
        assert!(e.to_string().contains("literal 16 is undefined"), "{e}");
        let mut a = parse(HALF_ADDER.as_bytes()).unwrap();
        a.inputs[1] = 2;
        let e = write_binary(&a, &mut Vec::new()).unwrap_err();
        assert!(e.to_string().contains("defined twice"), "{e}");
    }
}
