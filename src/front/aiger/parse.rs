//! The AIGER reader: a single pass over the byte slice, without per-line allocation.
//!
//! ASCII and binary files share everything except the input and latch literals (implicit in
//! binary files) and the AND section (decimal lines versus delta-encoded varints). Errors name
//! the line in the line-oriented parts, and the byte offset in the binary AND section and
//! everything after it, where line numbers mean nothing.
//!
//! Header counts are never trusted for allocation: vectors are pre-sized by what the remaining
//! bytes could possibly hold, so a lying header yields an error at the end of the data instead
//! of an attempt to allocate gigabytes. (The implicit inputs of a binary file are the one
//! exception: they cost no bytes, so the header alone determines them.)

use std::fmt;

use super::checks::{check_reset_cycles, check_uses, topo_order};
use super::reader::Reader;
use super::var_table::VarTable;
use super::{Aiger, Latch, Symbols};

/// The largest M for which every literal up to `2 * M + 1` fits in a `u32`.
pub(super) const MAX_VAR: u32 = (u32::MAX - 1) / 2;

/// Why a file was rejected, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub message: String,
    /// 1-based line, for the header and the line-oriented sections.
    pub line: Option<usize>,
    /// 0-based byte offset, for the binary AND section and what follows it.
    pub byte: Option<usize>,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.byte) {
            (Some(line), _) => write!(f, "line {line}: {}", self.message),
            (None, Some(byte)) => write!(f, "byte {byte}: {}", self.message),
            (None, None) => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for ParseError {}

pub(super) fn line_error(line: usize, message: String) -> ParseError {
    ParseError {
        message,
        line: Some(line),
        byte: None,
    }
}

pub(super) fn byte_error(byte: usize, message: String) -> ParseError {
    ParseError {
        message,
        line: None,
        byte: Some(byte),
    }
}

/// Parses an AIGER file, ASCII (`aag`) or binary (`aig`) as its header says.
pub fn parse(data: &[u8]) -> Result<Aiger, ParseError> {
    let mut r = Reader {
        data,
        pos: 0,
        line: 1,
        by_line: true,
    };
    let h = header(&mut r)?;
    let max_lit = 2 * h.m + 1;
    let mut aig = Aiger {
        maxvar: h.m,
        ..Aiger::default()
    };
    if h.binary {
        aig.inputs = (1..=h.i).map(|v| 2 * v).collect();
        for k in 0..h.l {
            let line = r.line;
            let lit = 2 * (h.i + k + 1);
            let mut v = [0; 3];
            let n = r.numbers_line(&mut v, 1, "latch")?;
            if n == 3 {
                let message = if v[0] == lit {
                    format!(
                        "latch lines of binary files must omit the implicit latch literal {lit}"
                    )
                } else {
                    format!("latch literal {} is not the implicit literal {lit}", v[0])
                };
                return Err(line_error(line, message));
            }
            let next = check_range(v[0], max_lit, line, "latch next state")?;
            let reset = check_range(if n == 2 { v[1] } else { 0 }, max_lit, line, "latch reset")?;
            aig.latches.push(Latch { lit, next, reset });
        }
        properties(&mut r, &h, &mut aig, max_lit)?;
        binary_ands(&mut r, &h, &mut aig)?;
        let defined = h.i + h.l + h.a;
        check_uses(&aig, 2, |v| v <= defined)?;
        check_reset_cycles(&aig, 2)?;
    } else {
        ascii_body(&mut r, &h, &mut aig, max_lit)?;
        check_reset_cycles(&aig, 2 + h.i as usize)?;
    }
    symbols_and_comments(&mut r, &mut aig)?;
    Ok(aig)
}

/// The header fields; the optional B C J F default to 0.
struct Header {
    binary: bool,
    m: u32,
    i: u32,
    l: u32,
    o: u32,
    a: u32,
    b: u32,
    c: u32,
    j: u32,
    f: u32,
}

fn header(r: &mut Reader) -> Result<Header, ParseError> {
    let binary = match r.data.get(..3) {
        Some(b"aag") => false,
        Some(b"aig") => true,
        _ => {
            return Err(line_error(
                1,
                "invalid header: the file must start with 'aag' (ASCII) or 'aig' (binary)".into(),
            ))
        }
    };
    r.pos = 3;
    if !matches!(r.peek(), Some(b' ' | b'\t')) {
        return Err(r.unexpected("header, expected 'aag|aig M I L O A [B C J F]'"));
    }
    let mut f = [0; 9];
    r.numbers_line(&mut f, 5, "header")?;
    let [m, i, l, o, a, b, c, j, f] = f;
    if m > MAX_VAR {
        return Err(line_error(
            1,
            format!(
                "invalid header: maximum variable index M = {m} is too large (at most {MAX_VAR})"
            ),
        ));
    }
    let defined = u64::from(i) + u64::from(l) + u64::from(a);
    if u64::from(m) < defined {
        return Err(line_error(
            1,
            format!("invalid header: M = {m} is smaller than I + L + A = {defined}"),
        ));
    }
    Ok(Header {
        binary,
        m,
        i,
        l,
        o,
        a,
        b,
        c,
        j,
        f,
    })
}

/// Inputs, latches and ANDs of an ASCII file, then the checks that need all definitions:
/// undefined variables and cycles.
fn ascii_body(r: &mut Reader, h: &Header, aig: &mut Aiger, max_lit: u32) -> Result<(), ParseError> {
    let entries = r.room(h.i.saturating_add(h.l).saturating_add(h.a));
    let mut defs = Definitions {
        table: VarTable::new(h.m, entries),
        max_lit,
        first_and: 1 + h.i + h.l,
        and_line: 0,
    };
    aig.inputs.reserve(r.room(h.i));
    for k in 0..h.i {
        let line = r.line;
        let lit = r.literal_line("input")?;
        aig.inputs.push(defs.define(lit, 1 + k, line, "input")?);
    }
    aig.latches.reserve(r.room(h.l));
    for k in 0..h.l {
        let line = r.line;
        let mut v = [0; 3];
        let n = r.numbers_line(&mut v, 2, "latch")?;
        let lit = defs.define(v[0], 1 + h.i + k, line, "latch")?;
        let next = check_range(v[1], max_lit, line, "latch next state")?;
        let reset = check_range(if n == 3 { v[2] } else { 0 }, max_lit, line, "latch reset")?;
        aig.latches.push(Latch { lit, next, reset });
    }
    properties(r, h, aig, max_lit)?;
    defs.and_line = r.line;
    aig.ands.reserve(r.room(h.a));
    for k in 0..h.a {
        let line = r.line;
        let mut v = [0; 3];
        r.numbers_line(&mut v, 3, "AND gate")?;
        let lhs = defs.define(v[0], defs.first_and + k, line, "AND gate")?;
        let rhs0 = check_range(v[1], max_lit, line, "AND gate input")?;
        let rhs1 = check_range(v[2], max_lit, line, "AND gate input")?;
        aig.ands.push((lhs, rhs0, rhs1));
    }
    check_uses(aig, 2 + h.i as usize, |v| defs.table.get(v) != 0)?;
    topo_order(&aig.ands, |v| defs.and_index(v)).map_err(|g| {
        line_error(
            defs.and_line + g,
            format!(
                "cyclic AND definitions: gate {} depends on itself",
                aig.ands[g].0
            ),
        )
    })?;
    Ok(())
}

/// The variables defined so far in an ASCII file. Codes are 1 + the ordinal of the
/// definition: inputs, latches, then ANDs in file order; so the code also gives the line.
struct Definitions {
    table: VarTable,
    max_lit: u32,
    /// The code of the first AND gate.
    first_and: u32,
    /// The line of the first AND gate, once the AND section has started.
    and_line: usize,
}

impl Definitions {
    /// Defines the variable of `lit`, which must be positive, in range and not yet defined.
    fn define(&mut self, lit: u32, code: u32, line: usize, what: &str) -> Result<u32, ParseError> {
        check_range(lit, self.max_lit, line, what)?;
        if lit < 2 {
            return Err(line_error(
                line,
                format!("{what} literal {lit} is a constant"),
            ));
        }
        if lit & 1 == 1 {
            return Err(line_error(
                line,
                format!("{what} literal {lit} is negated (it must be even)"),
            ));
        }
        let first = self.table.get(lit >> 1);
        if first != 0 {
            let first_line = match self.and_index(lit >> 1) {
                Some(g) => self.and_line + g,
                None => 1 + first as usize,
            };
            return Err(line_error(
                line,
                format!(
                    "variable {} (literal {lit}) is defined twice (first on line {first_line})",
                    lit >> 1
                ),
            ));
        }
        self.table.set(lit >> 1, code);
        Ok(lit)
    }

    fn and_index(&self, var: u32) -> Option<usize> {
        let code = self.table.get(var);
        (code >= self.first_and).then(|| (code - self.first_and) as usize)
    }
}

/// Outputs, bad states, constraints, justice and fairness: the same lines in both formats.
fn properties(r: &mut Reader, h: &Header, aig: &mut Aiger, max_lit: u32) -> Result<(), ParseError> {
    aig.outputs = r.literal_lines(h.o, max_lit, "output")?;
    aig.bad = r.literal_lines(h.b, max_lit, "bad-state property")?;
    aig.constraints = r.literal_lines(h.c, max_lit, "invariant constraint")?;
    let mut sizes = Vec::with_capacity(r.room(h.j));
    for j in 0..h.j {
        let line = r.line;
        let size = r.literal_line("justice property size")?;
        if size == 0 {
            // Without literals the property would be violated by every infinite path: a
            // model generator's mistake rather than a property (HWMCC models never have one).
            let message = format!("justice property {j} has zero literals (expected at least 1)");
            return Err(line_error(line, message));
        }
        sizes.push(size);
    }
    aig.justice = Vec::with_capacity(sizes.len());
    for n in sizes {
        aig.justice
            .push(r.literal_lines(n, max_lit, "justice property")?);
    }
    aig.fairness = r.literal_lines(h.f, max_lit, "fairness constraint")?;
    Ok(())
}

/// The delta-encoded AND gates of a binary file. Gate `k` defines variable `I + L + k + 1`
/// and reads two smaller literals, so the section is acyclic by construction.
fn binary_ands(r: &mut Reader, h: &Header, aig: &mut Aiger) -> Result<(), ParseError> {
    r.by_line = false;
    aig.ands
        .reserve(r.room(h.a).min((r.data.len() - r.pos) / 2));
    for k in 0..h.a {
        let start = r.pos;
        let lhs = 2 * (h.i + h.l + k + 1);
        let delta0 = r.varint(k, h.a)?;
        let delta1 = r.varint(k, h.a)?;
        if delta0 == 0 {
            return Err(byte_error(
                start,
                format!("AND gate {lhs}: delta0 is 0 (rhs0 must be smaller than lhs)"),
            ));
        }
        let Some(rhs0) = lhs.checked_sub(delta0) else {
            return Err(byte_error(
                start,
                format!("AND gate {lhs}: delta0 = {delta0} exceeds lhs (rhs0 would be negative)"),
            ));
        };
        let Some(rhs1) = rhs0.checked_sub(delta1) else {
            return Err(byte_error(
                start,
                format!("AND gate {lhs}: delta1 = {delta1} exceeds rhs0 = {rhs0}"),
            ));
        };
        aig.ands.push((lhs, rhs0, rhs1));
    }
    Ok(())
}

pub(super) fn check_range(
    lit: u32,
    max_lit: u32,
    line: usize,
    what: &str,
) -> Result<u32, ParseError> {
    if lit > max_lit {
        return Err(line_error(
            line,
            format!("{what} literal {lit} is out of range (the largest literal is {max_lit})"),
        ));
    }
    Ok(lit)
}

/// The optional symbol table (`i0 name`, `l3 name`, ...) and comment section (`c` line, then
/// free text to the end of the file).
fn symbols_and_comments(r: &mut Reader, aig: &mut Aiger) -> Result<(), ParseError> {
    aig.symbols = Symbols {
        inputs: vec![None; aig.inputs.len()],
        latches: vec![None; aig.latches.len()],
        outputs: vec![None; aig.outputs.len()],
        bad: vec![None; aig.bad.len()],
        constraints: vec![None; aig.constraints.len()],
        justice: vec![None; aig.justice.len()],
        fairness: vec![None; aig.fairness.len()],
    };
    while let Some(kind) = r.peek() {
        let start = r.pos;
        if r.at_line_end() {
            r.end_line("empty line")?;
            continue;
        }
        if kind == b'c' {
            r.pos += 1;
            if r.at_line_end() {
                r.end_line("comment header")?;
                let rest = &r.data[r.pos..];
                if !rest.is_empty() {
                    let body = rest.strip_suffix(b"\n").unwrap_or(rest);
                    aig.comments = body.split(|&b| b == b'\n').map(text).collect();
                }
                return Ok(());
            }
            r.pos = start;
        }
        let section = match kind {
            b'i' => &mut aig.symbols.inputs,
            b'l' => &mut aig.symbols.latches,
            b'o' => &mut aig.symbols.outputs,
            b'b' => &mut aig.symbols.bad,
            b'c' => &mut aig.symbols.constraints,
            b'j' => &mut aig.symbols.justice,
            b'f' => &mut aig.symbols.fairness,
            _ => {
                return Err(r.error(format!(
                    "invalid symbol table line: expected '[ilobcjf]<position> <name>' or 'c', \
                     found {}",
                    r.describe_here()
                )))
            }
        };
        r.pos += 1;
        let position = r.number("symbol position")?;
        if r.peek() != Some(b' ') {
            return Err(r.unexpected("symbol table entry, expected a space after the position"));
        }
        let end = r.data[r.pos..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(r.data.len(), |n| r.pos + n);
        let name = text(&r.data[r.pos + 1..end]);
        let len = section.len();
        let Some(slot) = section.get_mut(position as usize) else {
            r.pos = start;
            return Err(r.error(format!(
                "symbol position {position} is out of range (the section has {len} entries)"
            )));
        };
        if slot.is_some() {
            r.pos = start;
            return Err(r.error(format!(
                "symbol '{}{position}' is defined twice",
                kind as char
            )));
        }
        *slot = Some(name);
        r.pos = end;
        r.end_line("symbol table entry")?;
    }
    Ok(())
}

/// A name or comment line as text: a trailing `\r` (CRLF files) is dropped, and bytes that
/// are not UTF-8 are replaced rather than rejected, since names never affect the semantics.
fn text(bytes: &[u8]) -> String {
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    String::from_utf8_lossy(bytes).into_owned()
}

#[cfg(test)]
mod tests;
