//! The AIGER reader's cursor: bytes, decimal numbers and varints, with the line bookkeeping
//! that error positions need.

use super::parse::{byte_error, check_range, line_error, ParseError};

/// A cursor over the file with the line bookkeeping for error positions.
pub(super) struct Reader<'a> {
    pub(super) data: &'a [u8],
    pub(super) pos: usize,
    /// 1-based number of the line `pos` is on.
    pub(super) line: usize,
    /// Whether errors are located by line (else by byte offset).
    pub(super) by_line: bool,
}

impl Reader<'_> {
    pub(super) fn error(&self, message: String) -> ParseError {
        if self.by_line {
            line_error(self.line, message)
        } else {
            byte_error(self.pos, message)
        }
    }

    pub(super) fn peek(&self) -> Option<u8> {
        self.data.get(self.pos).copied()
    }

    /// How many entries of at least one byte each the rest of the data can hold, at most `n`:
    /// the capacity to reserve for a section announced to have `n` entries.
    pub(super) fn room(&self, n: u32) -> usize {
        (n as usize).min(self.data.len() - self.pos)
    }

    pub(super) fn describe_here(&self) -> String {
        match self.peek() {
            None => "end of file".into(),
            Some(b'\n' | b'\r') => "end of line".into(),
            Some(c) if c.is_ascii_graphic() || c == b' ' => format!("'{}'", c as char),
            Some(c) => format!("byte 0x{c:02x}"),
        }
    }

    pub(super) fn unexpected(&self, what: &str) -> ParseError {
        self.error(format!("unexpected {} in {what}", self.describe_here()))
    }

    pub(super) fn skip_blanks(&mut self) -> bool {
        let start = self.pos;
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
        self.pos > start
    }

    /// At `\n`, `\r\n` or the end of the data.
    pub(super) fn at_line_end(&self) -> bool {
        match self.peek() {
            None | Some(b'\n') => true,
            Some(b'\r') => matches!(self.data.get(self.pos + 1), None | Some(b'\n')),
            Some(_) => false,
        }
    }

    /// Consumes trailing blanks and the line terminator; a missing final newline is fine.
    pub(super) fn end_line(&mut self, what: &str) -> Result<(), ParseError> {
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
    pub(super) fn number(&mut self, what: &str) -> Result<u32, ParseError> {
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
    pub(super) fn numbers_line(
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

    pub(super) fn literal_line(&mut self, what: &str) -> Result<u32, ParseError> {
        let mut v = [0];
        self.numbers_line(&mut v, 1, what)?;
        Ok(v[0])
    }

    /// `n` lines of one literal each, range-checked.
    pub(super) fn literal_lines(
        &mut self,
        n: u32,
        max_lit: u32,
        what: &str,
    ) -> Result<Vec<u32>, ParseError> {
        let mut lits = Vec::with_capacity(self.room(n));
        for _ in 0..n {
            let line = self.line;
            let lit = self.literal_line(what)?;
            lits.push(check_range(lit, max_lit, line, what)?);
        }
        Ok(lits)
    }

    /// A 7-bit little-endian varint of the binary AND section (of gate `gate`, 0-based).
    pub(super) fn varint(&mut self, gate: u32, gates: u32) -> Result<u32, ParseError> {
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
