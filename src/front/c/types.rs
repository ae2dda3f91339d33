//! C integer types under the ILP32 and LP64 data models, with the integer promotions and the
//! usual arithmetic conversions (C11 6.3.1).
//!
//! Only the width and the signedness of a type matter for its values, so types are kept as
//! [`IntTy`]: ranks of equal-width types (`long` and `long long` under LP64) never change a
//! conversion's result bits.

/// Sizes of `long` (and pointers, `size_t`): 32 bits under ILP32, 64 under LP64.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum DataModel {
    #[default]
    Ilp32,
    Lp64,
}

impl DataModel {
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            DataModel::Ilp32 => "ilp32",
            DataModel::Lp64 => "lp64",
        }
    }

    pub fn from_name(name: &str) -> Option<DataModel> {
        [DataModel::Ilp32, DataModel::Lp64]
            .into_iter()
            .find(|d| d.name() == name)
    }

    pub fn long_bits(self) -> u32 {
        match self {
            DataModel::Ilp32 => 32,
            DataModel::Lp64 => 64,
        }
    }
}

/// An integer type: `_Bool` is the 1-bit unsigned type (its values are 0 and 1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct IntTy {
    pub bits: u32,
    pub signed: bool,
}

impl IntTy {
    pub const BOOL: IntTy = IntTy::new(1, false);
    pub const INT: IntTy = IntTy::new(32, true);

    pub const fn new(bits: u32, signed: bool) -> IntTy {
        IntTy { bits, signed }
    }

    /// The integer promotions: every type narrower than `int` becomes `int` (all their values
    /// fit).
    pub fn promote(self) -> IntTy {
        if self.bits < 32 {
            IntTy::INT
        } else {
            self
        }
    }

    /// The common type of the usual arithmetic conversions.
    pub fn usual(a: IntTy, b: IntTy) -> IntTy {
        let (a, b) = (a.promote(), b.promote());
        if a == b {
            a
        } else if a.signed == b.signed {
            IntTy::new(a.bits.max(b.bits), a.signed)
        } else {
            let (s, u) = if a.signed { (a, b) } else { (b, a) };
            if u.bits >= s.bits {
                u
            } else {
                s
            }
        }
    }

    /// The size in bytes (`sizeof`).
    pub fn bytes(self) -> u64 {
        u64::from(self.bits.max(8) / 8)
    }
}

/// A C object type the front end supports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CType {
    Void,
    Int(IntTy),
    /// A one-dimensional array of a constant length.
    Array(IntTy, u64),
}

impl CType {
    pub fn bytes(&self) -> Option<u64> {
        match self {
            CType::Void => None,
            CType::Int(t) => Some(t.bytes()),
            CType::Array(t, n) => Some(t.bytes() * n),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usual_arithmetic_conversions() {
        let (uint, long64, ulong64) = (
            IntTy::new(32, false),
            IntTy::new(64, true),
            IntTy::new(64, false),
        );
        assert_eq!(
            IntTy::usual(IntTy::new(8, false), IntTy::new(16, true)),
            IntTy::INT
        );
        assert_eq!(IntTy::usual(IntTy::INT, uint), uint);
        assert_eq!(IntTy::usual(uint, long64), long64);
        assert_eq!(IntTy::usual(long64, ulong64), ulong64);
        assert_eq!(IntTy::usual(IntTy::BOOL, IntTy::BOOL), IntTy::INT);
    }
}
