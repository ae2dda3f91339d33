//! The operators of word-level terms: exactly the BTOR2 operator set, kept unreduced so that
//! the simulator and the blaster each implement every operator on its own (and the property
//! tests compare the two).

use super::sort::BitRole;
use super::{BitVec, Sort, SortError};

/// Unary bit-vector operators.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Unary {
    Not,
    Inc,
    Dec,
    Neg,
    RedAnd,
    RedOr,
    RedXor,
}

/// Binary operators (all on bit-vectors, except `Eq`/`Neq` which also compare arrays).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Binary {
    Iff,
    Implies,
    Eq,
    Neq,
    Sgt,
    Sgte,
    Slt,
    Slte,
    Ugt,
    Ugte,
    Ult,
    Ulte,
    And,
    Nand,
    Nor,
    Or,
    Xnor,
    Xor,
    Rol,
    Ror,
    Sll,
    Sra,
    Srl,
    Add,
    Mul,
    Sdiv,
    Smod,
    Srem,
    Sub,
    Udiv,
    Urem,
    Concat,
    Saddo,
    Uaddo,
    Sdivo,
    Smulo,
    Umulo,
    Ssubo,
    Usubo,
}

impl Unary {
    pub const ALL: [Unary; 7] = [
        Unary::Not,
        Unary::Inc,
        Unary::Dec,
        Unary::Neg,
        Unary::RedAnd,
        Unary::RedOr,
        Unary::RedXor,
    ];

    /// The BTOR2 keyword.
    pub fn name(self) -> &'static str {
        match self {
            Unary::Not => "not",
            Unary::Inc => "inc",
            Unary::Dec => "dec",
            Unary::Neg => "neg",
            Unary::RedAnd => "redand",
            Unary::RedOr => "redor",
            Unary::RedXor => "redxor",
        }
    }

    pub fn from_name(name: &str) -> Option<Unary> {
        Unary::ALL.into_iter().find(|u| u.name() == name)
    }

    /// Whether the result is one bit (reductions) rather than the operand's width.
    pub fn is_reduction(self) -> bool {
        matches!(self, Unary::RedAnd | Unary::RedOr | Unary::RedXor)
    }
}

impl Binary {
    pub const ALL: [Binary; 39] = [
        Binary::Iff,
        Binary::Implies,
        Binary::Eq,
        Binary::Neq,
        Binary::Sgt,
        Binary::Sgte,
        Binary::Slt,
        Binary::Slte,
        Binary::Ugt,
        Binary::Ugte,
        Binary::Ult,
        Binary::Ulte,
        Binary::And,
        Binary::Nand,
        Binary::Nor,
        Binary::Or,
        Binary::Xnor,
        Binary::Xor,
        Binary::Rol,
        Binary::Ror,
        Binary::Sll,
        Binary::Sra,
        Binary::Srl,
        Binary::Add,
        Binary::Mul,
        Binary::Sdiv,
        Binary::Smod,
        Binary::Srem,
        Binary::Sub,
        Binary::Udiv,
        Binary::Urem,
        Binary::Concat,
        Binary::Saddo,
        Binary::Uaddo,
        Binary::Sdivo,
        Binary::Smulo,
        Binary::Umulo,
        Binary::Ssubo,
        Binary::Usubo,
    ];

    /// The BTOR2 keyword.
    pub fn name(self) -> &'static str {
        use Binary::*;
        match self {
            Iff => "iff",
            Implies => "implies",
            Eq => "eq",
            Neq => "neq",
            Sgt => "sgt",
            Sgte => "sgte",
            Slt => "slt",
            Slte => "slte",
            Ugt => "ugt",
            Ugte => "ugte",
            Ult => "ult",
            Ulte => "ulte",
            And => "and",
            Nand => "nand",
            Nor => "nor",
            Or => "or",
            Xnor => "xnor",
            Xor => "xor",
            Rol => "rol",
            Ror => "ror",
            Sll => "sll",
            Sra => "sra",
            Srl => "srl",
            Add => "add",
            Mul => "mul",
            Sdiv => "sdiv",
            Smod => "smod",
            Srem => "srem",
            Sub => "sub",
            Udiv => "udiv",
            Urem => "urem",
            Concat => "concat",
            Saddo => "saddo",
            Uaddo => "uaddo",
            Sdivo => "sdivo",
            Smulo => "smulo",
            Umulo => "umulo",
            Ssubo => "ssubo",
            Usubo => "usubo",
        }
    }

    pub fn from_name(name: &str) -> Option<Binary> {
        Binary::ALL.into_iter().find(|b| b.name() == name)
    }

    /// Whether this is a comparison of two words (`eq`, `neq`, and the signed and unsigned
    /// orderings): the atoms of word-level predicates.
    pub fn is_comparison(self) -> bool {
        use Binary::*;
        matches!(
            self,
            Eq | Neq | Sgt | Sgte | Slt | Slte | Ugt | Ugte | Ult | Ulte
        )
    }

    /// Whether the result is one bit (predicates and overflow flags).
    pub fn is_predicate(self) -> bool {
        use Binary::*;
        matches!(
            self,
            Iff | Implies
                | Eq
                | Neq
                | Sgt
                | Sgte
                | Slt
                | Slte
                | Ugt
                | Ugte
                | Ult
                | Ulte
                | Saddo
                | Uaddo
                | Sdivo
                | Smulo
                | Umulo
                | Ssubo
                | Usubo
        )
    }
}

/// What a term computes from its arguments.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// A bit-vector constant.
    Const(BitVec),
    /// Input `i` of the model (a fresh value in every frame).
    Input(usize),
    /// State `i` of the model (its value in the current frame).
    State(usize),
    /// The array whose every element is the argument (a BTOR2 `init` of an array state with a
    /// bit-vector).
    ConstArray,
    Unary(Unary),
    Binary(Binary),
    /// `sext`/`uext` by the given number of bits.
    Extend {
        signed: bool,
        by: u32,
    },
    /// Bits `upper..=lower`.
    Slice {
        upper: u32,
        lower: u32,
    },
    Ite,
    /// `read(array, index)`.
    Read,
    /// `write(array, index, element)`.
    Write,
}

impl Op {
    /// The BTOR2 keyword of the operator.
    pub fn name(&self) -> &'static str {
        match self {
            Op::Const(_) => "const",
            Op::Input(_) => "input",
            Op::State(_) => "state",
            Op::ConstArray => "constant array",
            Op::Unary(u) => u.name(),
            Op::Binary(b) => b.name(),
            Op::Extend { signed: true, .. } => "sext",
            Op::Extend { signed: false, .. } => "uext",
            Op::Slice { .. } => "slice",
            Op::Ite => "ite",
            Op::Read => "read",
            Op::Write => "write",
        }
    }

    /// The sort of the result of this operator on arguments of sorts `args`, or why the
    /// arguments do not fit (leaves take their sort from their declaration, not from here).
    pub fn result_sort(&self, args: &[Sort]) -> Result<Sort, SortError> {
        let arity = match self {
            Op::Const(_) | Op::Input(_) | Op::State(_) => 0,
            Op::ConstArray | Op::Unary(_) | Op::Extend { .. } | Op::Slice { .. } => 1,
            Op::Binary(_) | Op::Read => 2,
            Op::Ite | Op::Write => 3,
        };
        if args.len() != arity {
            return Err(SortError::Arity {
                op: self.name(),
                expected: arity,
                found: args.len(),
            });
        }
        let bv = |i: usize| {
            args[i].bv_width().ok_or(SortError::NotBitVector {
                op: self.name(),
                operand: i + 1,
                found: args[i],
            })
        };
        let same = |i: usize, j: usize| {
            if args[i] == args[j] {
                Ok(())
            } else {
                Err(SortError::Mismatch {
                    op: self.name(),
                    operands: (i + 1, j + 1),
                    found: (args[i], args[j]),
                })
            }
        };
        match *self {
            Op::Const(ref v) => Ok(Sort::Bv(v.width())),
            Op::Input(_) | Op::State(_) => Err(SortError::Leaf),
            Op::ConstArray => Err(SortError::ConstArray),
            Op::Unary(u) => {
                let w = bv(0)?;
                Ok(Sort::Bv(if u.is_reduction() { 1 } else { w }))
            }
            Op::Extend { by, .. } => Ok(Sort::Bv(checked_width(bv(0)? as u64 + by as u64)?)),
            Op::Slice { upper, lower } => {
                let w = bv(0)?;
                if lower > upper || upper >= w {
                    return Err(SortError::SliceBounds {
                        upper,
                        lower,
                        width: w,
                    });
                }
                Ok(Sort::Bv(upper - lower + 1))
            }
            Op::Binary(b) => {
                if matches!(b, Binary::Eq | Binary::Neq) {
                    same(0, 1)?;
                    return Ok(Sort::Bv(1));
                }
                let (wa, wb) = (bv(0)?, bv(1)?);
                if b == Binary::Concat {
                    return Ok(Sort::Bv(checked_width(wa as u64 + wb as u64)?));
                }
                same(0, 1)?;
                if matches!(b, Binary::Iff | Binary::Implies) && wa != 1 {
                    return Err(SortError::NotBit {
                        role: BitRole::Operands(b.name()),
                        found: args[0],
                    });
                }
                Ok(Sort::Bv(if b.is_predicate() { 1 } else { wa }))
            }
            Op::Ite => {
                if args[0] != Sort::Bv(1) {
                    return Err(SortError::NotBit {
                        role: BitRole::IteCondition,
                        found: args[0],
                    });
                }
                same(1, 2)?;
                Ok(args[1])
            }
            Op::Read | Op::Write => {
                let Sort::Array { index, element } = args[0] else {
                    return Err(SortError::NotArray {
                        op: self.name(),
                        found: args[0],
                    });
                };
                if args[1] != Sort::Bv(index) {
                    return Err(SortError::Index {
                        op: self.name(),
                        expected: index,
                        found: args[1],
                    });
                }
                if *self == Op::Read {
                    return Ok(Sort::Bv(element));
                }
                if args[2] != Sort::Bv(element) {
                    return Err(SortError::Element {
                        expected: element,
                        found: args[2],
                    });
                }
                Ok(args[0])
            }
        }
    }
}

/// The largest width we accept: wider vectors could not be blasted anyway, and the bound keeps
/// width arithmetic from overflowing.
pub const MAX_WIDTH: u32 = 1 << 24;

fn checked_width(w: u64) -> Result<u32, SortError> {
    if w == 0 || w > MAX_WIDTH as u64 {
        Err(SortError::Width(w))
    } else {
        Ok(w as u32)
    }
}
