//! The BTOR2 reader: one line at a time into a [`Model`], checking every sort.

use std::collections::HashMap;

use crate::wl::{Binary, BitVec, Model, Op, Sort, TermId, Unary, MAX_WIDTH};

/// A BTOR2 syntax or sort error, at a line (1-based).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct ParseError {
    pub line: usize,
    pub message: String,
}

/// What is wrong with the line being read; [`parse`] adds the line number.
#[derive(Debug)]
struct LineError(String);

impl From<String> for LineError {
    fn from(message: String) -> LineError {
        LineError(message)
    }
}

/// What a node id names.
#[derive(Copy, Clone)]
enum Entry {
    Sort(Sort),
    Term(TermId),
    /// A state (its index; its term is the model's).
    State(usize),
    /// A line that defines no value (`init`, `next`, `bad`, ...).
    Other,
}

/// What an `sll` of words wider than 32 bits means when its amount is `2^32` or more.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shifts {
    /// btorsim's meaning, the model's own `sll` ([`BitVec::sll`]): btorsim checks the
    /// witnesses of the competitions' BTOR2 files, so their `sll` means what it computes.
    Btorsim,
    /// SMT-LIB's `bvshl` (0 from the width on), which Yosys's `write_btor` means by the `sll`
    /// it writes for Verilog's `<<`.
    SmtLib,
}

/// Parses BTOR2 text into a word-level model, `sll` as btorsim computes it.
pub fn parse(text: &str) -> Result<Model, ParseError> {
    parse_with(text, Shifts::Btorsim)
}

/// Parses BTOR2 text into a word-level model, `sll` meaning what `shifts` says.
pub fn parse_with(text: &str, shifts: Shifts) -> Result<Model, ParseError> {
    let mut p = Parser {
        model: Model::new(),
        ids: HashMap::new(),
        shifts,
    };
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split(';').next().unwrap_or("");
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens.is_empty() {
            continue;
        }
        p.line(&tokens).map_err(|LineError(message)| ParseError {
            line: i + 1,
            message,
        })?;
    }
    p.model.name_states_from_outputs();
    Ok(p.model)
}

struct Parser {
    model: Model,
    ids: HashMap<u64, Entry>,
    shifts: Shifts,
}

/// The tokens of one line after the id and the tag, consumed left to right.
struct Fields<'a> {
    id: u64,
    tag: &'a str,
    rest: std::slice::Iter<'a, &'a str>,
}

impl<'a> Fields<'a> {
    fn next(&mut self, what: &str) -> Result<&'a str, LineError> {
        self.rest.next().copied().ok_or_else(|| {
            LineError(format!(
                "node {}: {} is missing its {what}",
                self.id, self.tag
            ))
        })
    }

    fn number(&mut self, what: &str) -> Result<u64, LineError> {
        let s = self.next(what)?;
        s.parse().map_err(|_| {
            LineError(format!(
                "node {}: {} expects a non-negative number as its {what}, found '{s}'",
                self.id, self.tag
            ))
        })
    }

    /// The optional symbol; anything after it is an error.
    fn symbol(&mut self) -> Result<Option<String>, LineError> {
        let symbol = self.rest.next().map(|s| s.to_string());
        if let Some(extra) = self.rest.next() {
            return Err(LineError(format!(
                "node {}: unexpected '{extra}' after the symbol of {}",
                self.id, self.tag
            )));
        }
        Ok(symbol)
    }
}

impl Parser {
    fn line(&mut self, tokens: &[&str]) -> Result<(), LineError> {
        let id: u64 = tokens[0]
            .parse()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("expected a positive node id, found '{}'", tokens[0]))?;
        if self.ids.contains_key(&id) {
            return Err(LineError(format!("node {id} is defined twice")));
        }
        let tag = *tokens
            .get(1)
            .ok_or_else(|| format!("node {id}: missing tag"))?;
        let mut f = Fields {
            id,
            tag,
            rest: tokens[2..].iter(),
        };
        let entry = match tag {
            "sort" => Entry::Sort(self.sort(&mut f)?),
            "input" => {
                let sort = self.sort_ref(&mut f)?;
                let name = f.symbol()?;
                Entry::Term(self.model.add_input(sort, name))
            }
            "state" => {
                let sort = self.sort_ref(&mut f)?;
                let name = f.symbol()?;
                Entry::State(self.model.add_state(sort, name))
            }
            "init" | "next" => {
                let sort = self.sort_ref(&mut f)?;
                let state = self.state_ref(&mut f)?;
                let value = self.operand(&mut f)?;
                f.symbol()?;
                let state_sort = self.model.states()[state].sort;
                if sort != state_sort {
                    return Err(LineError(format!(
                        "node {id}: {tag} has sort {sort} but its state has sort {state_sort}"
                    )));
                }
                let set = if tag == "init" {
                    self.model.set_init(state, value)
                } else {
                    self.model.set_next(state, value)
                };
                set.map_err(|e| format!("node {id}: {tag}: {e}"))?;
                Entry::Other
            }
            "const" | "constd" | "consth" | "zero" | "one" | "ones" => {
                let sort = self.sort_ref(&mut f)?;
                let Sort::Bv(w) = sort else {
                    return Err(LineError(format!(
                        "node {id}: {tag} expects a bit-vector sort, found {sort}"
                    )));
                };
                let value = match tag {
                    "zero" => BitVec::zero(w),
                    "one" => BitVec::from_u64(w, 1),
                    "ones" => BitVec::ones(w),
                    _ => {
                        let digits = f.next("value")?;
                        constant(tag, w, digits).ok_or_else(|| {
                            format!("node {id}: '{digits}' is not a {tag} value of width {w}")
                        })?
                    }
                };
                let name = f.symbol()?;
                let t = self.model.constant_term(value);
                self.named(t, name);
                Entry::Term(t)
            }
            "bad" | "constraint" | "fair" | "output" => {
                let t = self.operand(&mut f)?;
                let name = f.symbol()?;
                let added = match tag {
                    "bad" => self.model.add_bad(t, name),
                    "constraint" => self.model.add_constraint(t),
                    "fair" => self.model.add_fairness(t),
                    _ => {
                        self.model.add_output(t, name);
                        Ok(())
                    }
                };
                added.map_err(|e| format!("node {id}: {e}"))?;
                Entry::Other
            }
            "justice" => {
                let n = f.number("number of conditions")?;
                if n == 0 {
                    let msg =
                        format!("node {id}: justice with zero conditions (expected at least 1)");
                    return Err(LineError(msg));
                }
                let terms = (0..n)
                    .map(|_| self.operand(&mut f))
                    .collect::<Result<Vec<_>, _>>()?;
                f.symbol()?;
                self.model
                    .add_justice(terms)
                    .map_err(|e| format!("node {id}: {e}"))?;
                Entry::Other
            }
            _ => Entry::Term(self.operation(&mut f)?),
        };
        self.ids.insert(id, entry);
        Ok(())
    }

    /// `sort bitvec W` / `sort array I E`.
    fn sort(&mut self, f: &mut Fields) -> Result<Sort, LineError> {
        let id = f.id;
        let kind = f.next("kind (bitvec or array)")?;
        let sort = match kind {
            "bitvec" => {
                let w = f.number("width")?;
                if w == 0 || w > MAX_WIDTH as u64 {
                    return Err(LineError(format!(
                        "node {id}: bit-vector width {w} is out of range (1..={MAX_WIDTH})"
                    )));
                }
                Sort::Bv(w as u32)
            }
            "array" => {
                let index = self.sort_ref(f)?;
                let element = self.sort_ref(f)?;
                match (index, element) {
                    (Sort::Bv(index), Sort::Bv(element)) => Sort::Array { index, element },
                    _ => {
                        return Err(LineError(format!(
                            "node {id}: unsupported: arrays of arrays (index {index}, element \
                             {element})"
                        )))
                    }
                }
            }
            k => return Err(LineError(format!("node {id}: unknown sort kind '{k}'"))),
        };
        f.symbol()?;
        Ok(sort)
    }

    fn entry(&self, f: &Fields, token: u64, what: &str) -> Result<Entry, LineError> {
        self.ids.get(&token).copied().ok_or_else(|| {
            LineError(format!(
                "node {}: {what} {token} of {} is not defined (ids must be defined before use)",
                f.id, f.tag
            ))
        })
    }

    fn sort_ref(&self, f: &mut Fields) -> Result<Sort, LineError> {
        let s = f.number("sort id")?;
        match self.entry(f, s, "sort")? {
            Entry::Sort(sort) => Ok(sort),
            _ => Err(LineError(format!(
                "node {}: {} expects a sort id, but {s} is not a sort",
                f.id, f.tag
            ))),
        }
    }

    fn state_ref(&self, f: &mut Fields) -> Result<usize, LineError> {
        let s = f.number("state id")?;
        match self.entry(f, s, "state")? {
            Entry::State(i) => Ok(i),
            _ => Err(LineError(format!(
                "node {}: {} expects a state, but {s} is not a state",
                f.id, f.tag
            ))),
        }
    }

    /// An operand: a node id, negated (bitwise `not`) when written `-id`.
    fn operand(&mut self, f: &mut Fields) -> Result<TermId, LineError> {
        let token = f.next("operand")?;
        let (negated, digits) = match token.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, token),
        };
        let n: u64 = digits.parse().map_err(|_| {
            format!(
                "node {}: {} expects a node id as operand, found '{token}'",
                f.id, f.tag
            )
        })?;
        let t = match self.entry(f, n, "operand")? {
            Entry::Term(t) => t,
            Entry::State(i) => self.model.states()[i].term,
            Entry::Sort(_) | Entry::Other => {
                return Err(LineError(format!(
                    "node {}: operand {n} of {} is not a value (a sort or a property line)",
                    f.id, f.tag
                )))
            }
        };
        if !negated {
            return Ok(t);
        }
        self.model.apply(Op::Unary(Unary::Not), &[t]).map_err(|_| {
            LineError(format!(
                "node {}: operand -{n} of {}: only bit-vectors can be negated, found {}",
                f.id,
                f.tag,
                self.model.sort(t)
            ))
        })
    }

    /// An operator node: `ID OP SORT ARGS... [SYMBOL]`, its result checked against SORT.
    fn operation(&mut self, f: &mut Fields) -> Result<TermId, LineError> {
        let (id, tag) = (f.id, f.tag);
        let (op, arity) = if let Some(u) = Unary::from_name(tag) {
            (Op::Unary(u), 1)
        } else if let Some(b) = Binary::from_name(tag) {
            (Op::Binary(b), 2)
        } else {
            match tag {
                "sext" | "uext" => (
                    Op::Extend {
                        signed: tag == "sext",
                        by: 0,
                    },
                    1,
                ),
                "slice" => (Op::Slice { upper: 0, lower: 0 }, 1),
                "ite" | "write" => (if tag == "ite" { Op::Ite } else { Op::Write }, 3),
                "read" => (Op::Read, 2),
                _ => return Err(LineError(format!("node {id}: unknown tag '{tag}'"))),
            }
        };
        let declared = self.sort_ref(f)?;
        let args = (0..arity)
            .map(|_| self.operand(f))
            .collect::<Result<Vec<_>, _>>()?;
        let mut index = |what: &str| -> Result<u32, LineError> {
            let n = f.number(what)?;
            u32::try_from(n)
                .ok()
                .filter(|&n| n <= MAX_WIDTH)
                .ok_or_else(|| LineError(format!("node {id}: {tag}: {what} {n} is out of range")))
        };
        let op = match op {
            Op::Extend { signed, .. } => Op::Extend {
                signed,
                by: index("extension width")?,
            },
            Op::Slice { .. } => {
                let upper = index("upper bit")?;
                let lower = index("lower bit")?;
                Op::Slice { upper, lower }
            }
            op => op,
        };
        let name = f.symbol()?;
        let smtlib_sll = self.shifts == Shifts::SmtLib && matches!(op, Op::Binary(Binary::Sll));
        let t = self
            .model
            .apply(op, &args)
            .map_err(|e| format!("node {id}: {e}"))?;
        let found = self.model.sort(t);
        if found != declared {
            return Err(LineError(format!(
                "node {id}: {tag} is declared with sort {declared} but its operands give {found}"
            )));
        }
        let t = match smtlib_sll {
            true => self.smtlib_sll(t, args[1]),
            false => t,
        };
        self.named(t, name);
        Ok(t)
    }

    /// SMT-LIB's left shift from the model's (btorsim's) `sll` term `t` by `amount`: 0 when
    /// a bit of the amount from 32 to 63 is set (bits btorsim does not read; such an amount
    /// is past any width), else `t`.
    fn smtlib_sll(&mut self, t: TermId, amount: TermId) -> TermId {
        let Some(w) = self.model.sort(amount).bv_width().filter(|&w| w > 32) else {
            return t;
        };
        let m = &mut self.model;
        let slice = Op::Slice {
            upper: w.min(64) - 1,
            lower: 32,
        };
        let high = m.apply(slice, &[amount]).expect("a slice of the amount");
        let set = (m.apply(Op::Unary(Unary::RedOr), &[high])).expect("a reduction of a word");
        let zero = m.constant_term(BitVec::zero(w));
        m.apply(Op::Ite, &[set, zero, t])
            .expect("an ite of two words of one sort")
    }

    fn named(&mut self, t: TermId, name: Option<String>) {
        if let Some(n) = name {
            self.model.add_signal(t, n);
        }
    }
}

/// A `const` (binary, exactly `width` digits), `constd` (decimal, possibly negative) or
/// `consth` (hexadecimal) literal.
fn constant(tag: &str, width: u32, digits: &str) -> Option<BitVec> {
    match tag {
        "const" => BitVec::parse_binary(digits).filter(|v| v.width() == width),
        "constd" => BitVec::parse_decimal(width, digits),
        _ => BitVec::parse_radix(width, digits, 16),
    }
}
