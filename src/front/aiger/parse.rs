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

use std::collections::HashMap;
use std::fmt;

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

fn line_error(line: usize, message: String) -> ParseError {
    ParseError {
        message,
        line: Some(line),
        byte: None,
    }
}

fn byte_error(byte: usize, message: String) -> ParseError {
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
    } else {
        ascii_body(&mut r, &h, &mut aig, max_lit)?;
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
    for _ in 0..h.j {
        sizes.push(r.literal_line("justice property size")?);
    }
    aig.justice = Vec::with_capacity(sizes.len());
    for n in sizes {
        aig.justice
            .push(r.literal_lines(n, max_lit, "justice property literal")?);
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

fn check_range(lit: u32, max_lit: u32, line: usize, what: &str) -> Result<u32, ParseError> {
    if lit > max_lit {
        return Err(line_error(
            line,
            format!("{what} literal {lit} is out of range (the largest literal is {max_lit})"),
        ));
    }
    Ok(lit)
}

/// Checks that every literal read by the circuit refers to a defined variable. Walks the
/// sections in file order from the first latch line, so the first offending line is named.
fn check_uses(
    aig: &Aiger,
    first_latch_line: usize,
    defined: impl Fn(u32) -> bool,
) -> Result<(), ParseError> {
    let check = |lit: u32, line: usize, what: &str| {
        if lit < 2 || defined(lit >> 1) {
            Ok(())
        } else {
            Err(line_error(
                line,
                format!(
                    "{what} uses the undefined literal {lit} (variable {} is neither an input, \
                     a latch nor an AND gate)",
                    lit >> 1
                ),
            ))
        }
    };
    let mut line = first_latch_line;
    for l in &aig.latches {
        check(l.next, line, "latch next state")?;
        check(l.reset, line, "latch reset")?;
        line += 1;
    }
    for (lits, what) in [
        (&aig.outputs, "output"),
        (&aig.bad, "bad-state property"),
        (&aig.constraints, "invariant constraint"),
    ] {
        for &lit in lits {
            check(lit, line, what)?;
            line += 1;
        }
    }
    line += aig.justice.len();
    for &lit in aig.justice.iter().flatten() {
        check(lit, line, "justice property")?;
        line += 1;
    }
    for &lit in &aig.fairness {
        check(lit, line, "fairness constraint")?;
        line += 1;
    }
    for &(_, rhs0, rhs1) in &aig.ands {
        check(rhs0, line, "AND gate")?;
        check(rhs1, line, "AND gate")?;
        line += 1;
    }
    Ok(())
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

/// A cursor over the file with the line bookkeeping for error positions.
struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    /// 1-based number of the line `pos` is on.
    line: usize,
    /// Whether errors are located by line (else by byte offset).
    by_line: bool,
}

impl Reader<'_> {
    fn error(&self, message: String) -> ParseError {
        if self.by_line {
            line_error(self.line, message)
        } else {
            byte_error(self.pos, message)
        }
    }

    fn peek(&self) -> Option<u8> {
        self.data.get(self.pos).copied()
    }

    /// How many entries of at least one byte each the rest of the data can hold, at most `n`:
    /// the capacity to reserve for a section announced to have `n` entries.
    fn room(&self, n: u32) -> usize {
        (n as usize).min(self.data.len() - self.pos)
    }

    fn describe_here(&self) -> String {
        match self.peek() {
            None => "end of file".into(),
            Some(b'\n' | b'\r') => "end of line".into(),
            Some(c) if c.is_ascii_graphic() || c == b' ' => format!("'{}'", c as char),
            Some(c) => format!("byte 0x{c:02x}"),
        }
    }

    fn unexpected(&self, what: &str) -> ParseError {
        self.error(format!("unexpected {} in {what}", self.describe_here()))
    }

    fn skip_blanks(&mut self) -> bool {
        let start = self.pos;
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
        self.pos > start
    }

    /// At `\n`, `\r\n` or the end of the data.
    fn at_line_end(&self) -> bool {
        match self.peek() {
            None | Some(b'\n') => true,
            Some(b'\r') => matches!(self.data.get(self.pos + 1), None | Some(b'\n')),
            Some(_) => false,
        }
    }

    /// Consumes trailing blanks and the line terminator; a missing final newline is fine.
    fn end_line(&mut self, what: &str) -> Result<(), ParseError> {
        self.skip_blanks();
        if !self.at_line_end() {
            return Err(self.unexpected(what));
        }
        if self.peek() == Some(b'\r') {
            self.pos += 1;
        }
        if self.peek() == Some(b'\n') {
            self.pos += 1;
        }
        self.line += 1;
        Ok(())
    }

    /// An unsigned decimal number that fits in a `u32`.
    fn number(&mut self, what: &str) -> Result<u32, ParseError> {
        let start = self.pos;
        let mut value: u32 = 0;
        while let Some(d @ b'0'..=b'9') = self.peek() {
            value = value
                .checked_mul(10)
                .and_then(|v| v.checked_add(u32::from(d - b'0')))
                .ok_or_else(|| self.error(format!("number too large in {what}")))?;
            self.pos += 1;
        }
        if self.pos == start {
            return Err(self.error(format!("expected {what}, found {}", self.describe_here())));
        }
        Ok(value)
    }

    /// One line of `min..=out.len()` numbers separated by blanks; returns how many were read.
    fn numbers_line(
        &mut self,
        out: &mut [u32],
        min: usize,
        what: &str,
    ) -> Result<usize, ParseError> {
        let mut n = 0;
        loop {
            let blank = self.skip_blanks();
            if n > 0 && self.at_line_end() {
                break;
            }
            if n > 0 && !(blank && matches!(self.peek(), Some(b'0'..=b'9'))) {
                return Err(self.unexpected(what));
            }
            if n == out.len() {
                return Err(self.error(format!(
                    "too many numbers in {what} (at most {})",
                    out.len()
                )));
            }
            out[n] = self.number(what)?;
            n += 1;
        }
        if n < min {
            return Err(self.error(format!(
                "expected at least {min} numbers in {what}, found {n}"
            )));
        }
        self.end_line(what)?;
        Ok(n)
    }

    fn literal_line(&mut self, what: &str) -> Result<u32, ParseError> {
        let mut v = [0];
        self.numbers_line(&mut v, 1, what)?;
        Ok(v[0])
    }

    /// `n` lines of one literal each, range-checked.
    fn literal_lines(&mut self, n: u32, max_lit: u32, what: &str) -> Result<Vec<u32>, ParseError> {
        let mut lits = Vec::with_capacity(self.room(n));
        for _ in 0..n {
            let line = self.line;
            let lit = self.literal_line(what)?;
            lits.push(check_range(lit, max_lit, line, what)?);
        }
        Ok(lits)
    }

    /// A 7-bit little-endian varint of the binary AND section (of gate `gate`, 0-based).
    fn varint(&mut self, gate: u32, gates: u32) -> Result<u32, ParseError> {
        let start = self.pos;
        let mut value: u32 = 0;
        let mut shift = 0;
        loop {
            let Some(b) = self.peek() else {
                return Err(self.error(format!(
                    "unexpected end of file in the binary AND section (gate {} of {gates} is \
                     truncated)",
                    gate + 1
                )));
            };
            self.pos += 1;
            let bits = u32::from(b & 0x7f);
            if shift > 28 || (shift == 28 && bits > 0xf) {
                return Err(byte_error(
                    start,
                    "varint in the binary AND section overflows 32 bits".into(),
                ));
            }
            value |= bits << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
            shift += 7;
        }
    }
}

/// Maps variable indices to small nonzero codes (0 = absent). A dense vector when the
/// variable range is comparable to the number of entries, else a hash map, so that a header
/// announcing M = 2^31 for a handful of gates costs no gigabytes.
pub(super) enum VarTable {
    Dense(Vec<u32>),
    Sparse(HashMap<u32, u32>),
}

impl VarTable {
    /// A table for variables `0..=max_var`, about `entries` of them set.
    pub(super) fn new(max_var: u32, entries: usize) -> VarTable {
        if max_var as usize <= 4 * entries + 4096 {
            VarTable::Dense(vec![0; max_var as usize + 1])
        } else {
            VarTable::Sparse(HashMap::with_capacity(entries))
        }
    }

    pub(super) fn get(&self, var: u32) -> u32 {
        match self {
            VarTable::Dense(v) => v.get(var as usize).copied().unwrap_or(0),
            VarTable::Sparse(m) => m.get(&var).copied().unwrap_or(0),
        }
    }

    /// Sets the code of `var`, which must be at most the `max_var` of [`VarTable::new`].
    pub(super) fn set(&mut self, var: u32, code: u32) {
        match self {
            VarTable::Dense(v) => v[var as usize] = code,
            VarTable::Sparse(m) => {
                m.insert(var, code);
            }
        }
    }
}

/// Orders AND gates so that every gate comes after the gates it reads; on a cycle, returns
/// the index of a gate on it. `and_index(var)` is the index in `ands` of the gate defining
/// `var`, if any. Iterative (files have millions of gates, far beyond the stack), with a fast
/// path for the usual case of a file that is already in order.
pub(super) fn topo_order(
    ands: &[(u32, u32, u32)],
    and_index: impl Fn(u32) -> Option<usize>,
) -> Result<Vec<usize>, usize> {
    let reads_earlier = |i: usize, lit: u32| and_index(lit >> 1).is_none_or(|j| j < i);
    if ands
        .iter()
        .enumerate()
        .all(|(i, &(_, r0, r1))| reads_earlier(i, r0) && reads_earlier(i, r1))
    {
        return Ok((0..ands.len()).collect());
    }
    const NEW: u8 = 0;
    const ACTIVE: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; ands.len()];
    let mut order = Vec::with_capacity(ands.len());
    // (gate, how many of its two inputs have been visited)
    let mut stack: Vec<(usize, u8)> = Vec::new();
    for root in 0..ands.len() {
        if state[root] != NEW {
            continue;
        }
        state[root] = ACTIVE;
        stack.push((root, 0));
        while let Some(top) = stack.last_mut() {
            let (gate, visited) = *top;
            if visited == 2 {
                state[gate] = DONE;
                order.push(gate);
                stack.pop();
                continue;
            }
            top.1 += 1;
            let (_, r0, r1) = ands[gate];
            let input = if visited == 0 { r0 } else { r1 };
            if let Some(child) = and_index(input >> 1) {
                match state[child] {
                    NEW => {
                        state[child] = ACTIVE;
                        stack.push((child, 0));
                    }
                    ACTIVE => return Err(gate),
                    _ => {}
                }
            }
        }
    }
    Ok(order)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HALF_ADDER: &str = "aag 7 2 0 2 3\n2\n4\n6\n12\n6 13 15\n12 2 4\n14 3 5\n\
                              i0 x\ni1 y\no0 s\no1 c\nc\nhalf adder\n";

    /// The half adder of the AIGER specification, in its binary form.
    const HALF_ADDER_BINARY: &[u8] =
        b"aig 5 2 0 2 3\n10\n6\n\x02\x02\x03\x02\x01\x02i0 x\ni1 y\no0 s\no1 c\nc\nhalf adder\n";

    fn names(names: &[&str]) -> Vec<Option<String>> {
        names.iter().map(|n| Some(n.to_string())).collect()
    }

    #[test]
    fn ascii_1_0_with_symbols_and_comments() {
        let a = parse(HALF_ADDER.as_bytes()).unwrap();
        assert_eq!(a.maxvar, 7);
        assert_eq!(a.inputs, vec![2, 4]);
        assert!(a.latches.is_empty());
        assert_eq!(a.outputs, vec![6, 12]);
        assert!(a.bad.is_empty() && a.constraints.is_empty());
        assert!(a.justice.is_empty() && a.fairness.is_empty());
        // Gates are kept in file order, even when not topological.
        assert_eq!(a.ands, vec![(6, 13, 15), (12, 2, 4), (14, 3, 5)]);
        assert_eq!(a.symbols.inputs, names(&["x", "y"]));
        assert_eq!(a.symbols.outputs, names(&["s", "c"]));
        assert!(a.symbols.latches.is_empty());
        assert_eq!(a.comments, vec!["half adder".to_string()]);
    }

    #[test]
    fn binary_1_0_from_the_specification() {
        let a = parse(HALF_ADDER_BINARY).unwrap();
        assert_eq!(a.maxvar, 5);
        assert_eq!(a.inputs, vec![2, 4]);
        assert_eq!(a.outputs, vec![10, 6]);
        assert_eq!(a.ands, vec![(6, 4, 2), (8, 5, 3), (10, 9, 7)]);
        assert_eq!(a.symbols.outputs, names(&["s", "c"]));
        assert_eq!(a.comments, vec!["half adder".to_string()]);
    }

    #[test]
    fn ascii_1_9_sections() {
        let text = "aag 5 1 1 1 2 1 1 2 1\n2\n4 10 1\n4\n10\n11\n2\n0\n2\n5\n3\n6 2 4\n10 6 3\n\
                    b0 never\nj1 live\nf0 fair\n";
        let a = parse(text.as_bytes()).unwrap();
        assert_eq!(
            a.latches,
            vec![Latch {
                lit: 4,
                next: 10,
                reset: 1
            }]
        );
        assert_eq!(a.outputs, vec![4]);
        assert_eq!(a.bad, vec![10]);
        assert_eq!(a.constraints, vec![11]);
        assert_eq!(a.justice, vec![vec![2, 5], vec![]]);
        assert_eq!(a.fairness, vec![3]);
        assert_eq!(a.ands, vec![(6, 2, 4), (10, 6, 3)]);
        assert_eq!(a.symbols.bad, names(&["never"]));
        assert_eq!(a.symbols.justice, vec![None, Some("live".into())]);
        assert_eq!(a.symbols.fairness, names(&["fair"]));
        assert!(a.comments.is_empty());
    }

    #[test]
    fn binary_1_9_with_m_equal_to_i_plus_l_and_bad() {
        // The header that flussab-aiger rejects: M = I + L and B > 0.
        let a = parse(b"aig 2 1 1 0 0 1\n3 2\n4\n").unwrap();
        assert_eq!(a.inputs, vec![2]);
        assert_eq!(
            a.latches,
            vec![Latch {
                lit: 4,
                next: 3,
                reset: 2
            }]
        );
        assert_eq!(a.bad, vec![4]);
        assert_eq!(a.symbols.bad, vec![None]);
    }

    #[test]
    fn latch_resets() {
        let a = parse(b"aag 4 1 3 0 0\n2\n4 4\n6 6 6\n8 8 3\n").unwrap();
        let resets: Vec<u32> = a.latches.iter().map(|l| l.reset).collect();
        // Missing reset: 0; the latch itself: uninitialised; anything else: reset function.
        assert_eq!(resets, vec![0, 6, 3]);
        assert!(parse(b"aag 4 1 1 0 0\n2\n4 4 8\n").is_err());
    }

    #[test]
    fn blank_lines_only_in_the_symbol_table() {
        assert!(parse(b"aag 1 1 0 0 0\n\n2\n").is_err());
        assert!(parse(b"aag 1 1 0 0 0\n2\n\ni0 x\n\n").is_ok());
    }

    #[test]
    fn missing_final_newline() {
        let a = parse(b"aag 3 2 0 1 1\n2\n4\n6\n6 2 4").unwrap();
        assert_eq!(a.ands, vec![(6, 2, 4)]);
        let a = parse(b"aag 1 1 0 0 0\n2\ni0 in").unwrap();
        assert_eq!(a.symbols.inputs, names(&["in"]));
        let a = parse(b"aig 3 2 0 1 1\n6\n\x02\x02").unwrap();
        assert_eq!(a.ands, vec![(6, 4, 2)]);
    }

    #[test]
    fn huge_maxvar_with_few_variables_uses_a_sparse_table() {
        let a = parse(b"aag 2000000000 1 0 1 1\n4000000000\n3999999998\n3999999998 4000000000 1\n")
            .unwrap();
        assert_eq!(a.ands, vec![(3_999_999_998, 4_000_000_000, 1)]);
    }

    #[test]
    fn error_display() {
        let e = parse(b"aag 1 1 0 0 0\n3\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2: input literal 3 is negated (it must be even)"
        );
        let e = parse(b"aig 3 2 0 1 1\n6\n\x00\x00").unwrap_err();
        assert_eq!(
            e.to_string(),
            "byte 16: AND gate 6: delta0 is 0 (rhs0 must be smaller than lhs)"
        );
    }

    #[test]
    fn never_panics_on_truncated_or_corrupted_files() {
        let mut files = vec![HALF_ADDER.as_bytes().to_vec(), HALF_ADDER_BINARY.to_vec()];
        // A larger binary file with multi-byte varints: a chain of 300 gates.
        let mut big = b"aig 302 2 0 1 300\n604\n".to_vec();
        big.extend_from_slice(&[2, 2]);
        for k in 1..300u32 {
            let lhs = 2 * (k + 3);
            let rhs0 = lhs - 2;
            let rhs1 = if k % 2 == 0 { 1 } else { 2 };
            for mut x in [lhs - rhs0, rhs0 - rhs1] {
                while x >= 0x80 {
                    big.push((x & 0x7f) as u8 | 0x80);
                    x >>= 7;
                }
                big.push(x as u8);
            }
        }
        big.extend_from_slice(b"o0 chain\nc\nend\n");
        assert_eq!(parse(&big).unwrap().ands.len(), 300);
        files.push(big);
        for file in &files {
            for end in 0..file.len() {
                // Must return, Ok or Err, without panicking.
                let _ = parse(&file[..end]);
            }
            for pos in 0..file.len() {
                for byte in [0x00, 0x0a, 0x20, 0x31, 0x39, 0x63, 0x7f, 0x80, 0xff] {
                    let mut corrupt = file.clone();
                    corrupt[pos] = byte;
                    let _ = parse(&corrupt);
                }
            }
        }
    }

    #[test]
    fn topological_order_of_unordered_gates() {
        let ands = [(6, 13, 15), (12, 2, 4), (14, 3, 5)];
        let index = |v: u32| [6, 12, 14].iter().position(|&l| l == 2 * v);
        assert_eq!(topo_order(&ands, index), Ok(vec![1, 2, 0]));
        assert_eq!(
            topo_order(&[(2, 4, 0), (4, 3, 0)], |v| (v >= 1)
                .then(|| v as usize - 1)),
            Err(1)
        );
    }
}
