//! Bit-vector values of any width: the word-level simulator's numbers.
//!
//! Bits live in little-endian `u64` limbs; the bits above `width` in the top limb are always
//! zero, so the derived equality and hashing are value equality. Every operation has the
//! BTOR2 meaning btorsim computes, which is SMT-LIB's (division by zero, shifts by at least
//! the width) except for the amounts of left shifts and rotations (see [`BitVec::sll`]); the
//! blaster and the SMT encoding are tested against these definitions.

use std::fmt;

/// A bit-vector of a fixed width (at least 1 bit).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BitVec {
    width: u32,
    limbs: Vec<u64>,
}

fn limbs_for(width: u32) -> usize {
    (width as usize).div_ceil(64).max(1)
}

impl BitVec {
    /// All zeros.
    pub fn zero(width: u32) -> BitVec {
        BitVec {
            width,
            limbs: vec![0; limbs_for(width)],
        }
    }

    /// All ones.
    pub fn ones(width: u32) -> BitVec {
        BitVec::zero(width).not()
    }

    /// `value` truncated to `width` bits.
    pub fn from_u64(width: u32, value: u64) -> BitVec {
        let mut v = BitVec::zero(width);
        v.limbs[0] = value;
        v.masked()
    }

    /// The vector whose bit `i` is `bits[i]` (`bits` must not be empty).
    pub fn from_bits(bits: &[bool]) -> BitVec {
        let mut v = BitVec::zero(bits.len() as u32);
        for (i, &b) in bits.iter().enumerate() {
            v.set_bit(i as u32, b);
        }
        v
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn bit(&self, i: u32) -> bool {
        i < self.width && self.limbs[(i / 64) as usize] >> (i % 64) & 1 == 1
    }

    pub fn set_bit(&mut self, i: u32, value: bool) {
        if i < self.width {
            let limb = &mut self.limbs[(i / 64) as usize];
            *limb = (*limb & !(1 << (i % 64))) | ((value as u64) << (i % 64));
        }
    }

    /// The bits, least significant first.
    pub fn bits(&self) -> impl Iterator<Item = bool> + '_ {
        (0..self.width).map(|i| self.bit(i))
    }

    /// The value as a `u64` when it fits.
    pub fn to_u64(&self) -> Option<u64> {
        self.limbs[1..]
            .iter()
            .all(|&l| l == 0)
            .then_some(self.limbs[0])
    }

    /// The number the bits stand for, read as two's complement when `signed`; `None` past
    /// 127 bits.
    pub fn to_i128(&self, signed: bool) -> Option<i128> {
        if self.width > 127 {
            return None;
        }
        let unsigned =
            ((0..self.width).rev()).fold(0i128, |acc, i| (acc << 1) | i128::from(self.bit(i)));
        Some(match signed && self.msb() {
            true => unsigned - (1i128 << self.width),
            false => unsigned,
        })
    }

    pub fn is_zero(&self) -> bool {
        self.limbs.iter().all(|&l| l == 0)
    }

    pub fn is_true(&self) -> bool {
        !self.is_zero()
    }

    /// The sign bit.
    pub fn msb(&self) -> bool {
        self.bit(self.width - 1)
    }

    fn masked(mut self) -> BitVec {
        let rem = self.width % 64;
        if rem != 0 {
            let last = self.limbs.len() - 1;
            self.limbs[last] &= (1u64 << rem) - 1;
        }
        self
    }

    fn zip(&self, other: &BitVec, f: impl Fn(u64, u64) -> u64) -> BitVec {
        BitVec {
            width: self.width,
            limbs: self
                .limbs
                .iter()
                .zip(&other.limbs)
                .map(|(&a, &b)| f(a, b))
                .collect(),
        }
        .masked()
    }

    pub fn not(&self) -> BitVec {
        BitVec {
            width: self.width,
            limbs: self.limbs.iter().map(|l| !l).collect(),
        }
        .masked()
    }

    pub fn and(&self, o: &BitVec) -> BitVec {
        self.zip(o, |a, b| a & b)
    }

    pub fn or(&self, o: &BitVec) -> BitVec {
        self.zip(o, |a, b| a | b)
    }

    pub fn xor(&self, o: &BitVec) -> BitVec {
        self.zip(o, |a, b| a ^ b)
    }

    /// `self + o + carry` and the carry out of the top bit.
    fn add_carry(&self, o: &BitVec, carry: bool) -> (BitVec, bool) {
        let mut c = carry as u64;
        let limbs: Vec<u64> = self
            .limbs
            .iter()
            .zip(&o.limbs)
            .map(|(&a, &b)| {
                let (s1, c1) = a.overflowing_add(b);
                let (s2, c2) = s1.overflowing_add(c);
                c = (c1 | c2) as u64;
                s2
            })
            .collect();
        let full = BitVec {
            width: self.width,
            limbs,
        };
        let rem = self.width % 64;
        let out = if rem == 0 {
            c == 1
        } else {
            full.limbs[full.limbs.len() - 1] >> rem & 1 == 1
        };
        (full.masked(), out)
    }

    pub fn add(&self, o: &BitVec) -> BitVec {
        self.add_carry(o, false).0
    }

    pub fn sub(&self, o: &BitVec) -> BitVec {
        self.add_carry(&o.not(), true).0
    }

    pub fn neg(&self) -> BitVec {
        BitVec::zero(self.width).sub(self)
    }

    pub fn mul(&self, o: &BitVec) -> BitVec {
        let n = self.limbs.len();
        let mut out = vec![0u64; n];
        for i in 0..n {
            let mut carry = 0u128;
            for j in 0..n - i {
                let t = out[i + j] as u128 + self.limbs[i] as u128 * o.limbs[j] as u128 + carry;
                out[i + j] = t as u64;
                carry = t >> 64;
            }
        }
        BitVec {
            width: self.width,
            limbs: out,
        }
        .masked()
    }

    /// Unsigned `self < o`.
    pub fn ult(&self, o: &BitVec) -> bool {
        self.limbs.iter().rev().cmp(o.limbs.iter().rev()).is_lt()
    }

    /// Signed `self < o`.
    pub fn slt(&self, o: &BitVec) -> bool {
        match (self.msb(), o.msb()) {
            (true, false) => true,
            (false, true) => false,
            _ => self.ult(o),
        }
    }

    /// Unsigned quotient and remainder; `x / 0 = ones` and `x % 0 = x` as in SMT-LIB.
    pub fn udivrem(&self, o: &BitVec) -> (BitVec, BitVec) {
        if o.is_zero() {
            return (BitVec::ones(self.width), self.clone());
        }
        let mut q = BitVec::zero(self.width);
        let mut r = BitVec::zero(self.width);
        for i in (0..self.width).rev() {
            // r < o, so 2r + 1 may need one more bit than the width: track it in `top`.
            let top = r.msb();
            r = r.shl(1);
            r.set_bit(0, self.bit(i));
            if top || !r.ult(o) {
                r = r.sub(o);
                q.set_bit(i, true);
            }
        }
        (q, r)
    }

    pub fn udiv(&self, o: &BitVec) -> BitVec {
        self.udivrem(o).0
    }

    pub fn urem(&self, o: &BitVec) -> BitVec {
        self.udivrem(o).1
    }

    fn abs(&self) -> BitVec {
        if self.msb() {
            self.neg()
        } else {
            self.clone()
        }
    }

    /// SMT-LIB `bvsdiv`: truncating signed division.
    pub fn sdiv(&self, o: &BitVec) -> BitVec {
        let q = self.abs().udiv(&o.abs());
        if self.msb() != o.msb() {
            q.neg()
        } else {
            q
        }
    }

    /// SMT-LIB `bvsrem`: the remainder takes the sign of the dividend.
    pub fn srem(&self, o: &BitVec) -> BitVec {
        let r = self.abs().urem(&o.abs());
        if self.msb() {
            r.neg()
        } else {
            r
        }
    }

    /// SMT-LIB `bvsmod`: the remainder takes the sign of the divisor.
    pub fn smod(&self, o: &BitVec) -> BitVec {
        let u = self.abs().urem(&o.abs());
        if u.is_zero() {
            return u;
        }
        match (self.msb(), o.msb()) {
            (false, false) => u,
            (true, false) => u.neg().add(o),
            (false, true) => u.add(o),
            (true, true) => u.neg(),
        }
    }

    /// A right shift's amount, saturated at the width (every larger amount acts alike).
    pub fn srl_amount(&self, width: u32) -> u32 {
        match self.to_u64() {
            Some(v) if v < width as u64 => v as u32,
            _ => width,
        }
    }

    /// A left shift's amount as btorsim reads it, saturated at the width: the width (all
    /// bits shifted out) when a bit from 64 up is set, else the low 64 bits cut to 32
    /// (`btorsim_bv_sll` hands its 64-bit amount to a helper taking a `uint32_t`), so on
    /// words wider than 32 bits an amount of `2^32 + k` shifts by `k`. An artefact of
    /// btorsim, kept because btorsim is the checker the witnesses must pass. Both cases are
    /// the amount with bits 32 to 63 cleared ([`BitVec::sll_amount_mask`]), read as a right
    /// shift's.
    pub fn sll_amount(&self, width: u32) -> u32 {
        self.and(&BitVec::sll_amount_mask(self.width))
            .srl_amount(width)
    }

    /// The bits of a `width`-bit left-shift amount that btorsim reads: all but 32 to 63.
    pub fn sll_amount_mask(width: u32) -> BitVec {
        let mut mask = BitVec::ones(width);
        for i in 32..width.min(64) {
            mask.set_bit(i, false);
        }
        mask
    }

    /// Shift left by `n` bits (zeros in).
    pub fn shl(&self, n: u32) -> BitVec {
        let mut out = BitVec::zero(self.width);
        for i in n..self.width {
            out.set_bit(i, self.bit(i - n));
        }
        out
    }

    /// Shift right by `n` bits, filling with `fill`.
    fn shr_fill(&self, n: u32, fill: bool) -> BitVec {
        let mut out = BitVec::zero(self.width);
        for i in 0..self.width {
            out.set_bit(
                i,
                if i as u64 + (n as u64) < self.width as u64 {
                    self.bit(i + n)
                } else {
                    fill
                },
            );
        }
        out
    }

    /// BTOR2 `sll` as btorsim computes it: by [`Self::sll_amount`], which differs from
    /// SMT-LIB's `bvshl` for amounts of at least `2^32` on words wider than 32 bits.
    pub fn sll(&self, o: &BitVec) -> BitVec {
        self.shl(o.sll_amount(self.width))
    }

    pub fn srl(&self, o: &BitVec) -> BitVec {
        self.shr_fill(o.srl_amount(self.width), false)
    }

    pub fn sra(&self, o: &BitVec) -> BitVec {
        self.shr_fill(o.srl_amount(self.width), self.msb())
    }

    /// BTOR2 `rol` as btorsim computes it (the reference simulator that checks our witnesses):
    /// `(self << o) | (self >> (w - o))`, the difference taken in the operands' sort, each
    /// shift by at least the width giving 0 and the left one reading its amount as
    /// [`Self::sll`] does. So `o < w` rotates, `o == w` gives `self`, and larger `o` give 0
    /// or, when the left shift's amount cut to 32 bits is below the width, that shift: not a
    /// rotation by `o mod w`. `o` has the width of `self`.
    pub fn rol(&self, o: &BitVec) -> BitVec {
        self.sll(o).or(&self.srl(&self.rotation_rest(o)))
    }

    /// BTOR2 `ror` as btorsim computes it: `(self >> o) | (self << (w - o))`, see [`Self::rol`].
    pub fn ror(&self, o: &BitVec) -> BitVec {
        self.srl(o).or(&self.sll(&self.rotation_rest(o)))
    }

    /// `w - o` in the sort of the operands: the amount of the second shift of a rotation.
    fn rotation_rest(&self, o: &BitVec) -> BitVec {
        BitVec::from_u64(self.width, self.width as u64).sub(o)
    }

    /// `self` above `low`: the BTOR2 `concat`.
    pub fn concat(&self, low: &BitVec) -> BitVec {
        let mut out = BitVec::zero(self.width + low.width);
        for i in 0..low.width {
            out.set_bit(i, low.bit(i));
        }
        for i in 0..self.width {
            out.set_bit(low.width + i, self.bit(i));
        }
        out
    }

    /// Bits `upper..=lower`.
    pub fn slice(&self, upper: u32, lower: u32) -> BitVec {
        let mut out = BitVec::zero(upper - lower + 1);
        for i in lower..=upper {
            out.set_bit(i - lower, self.bit(i));
        }
        out
    }

    /// Extended by `by` bits, with the sign bit when `signed`, else zeros.
    pub fn extend(&self, by: u32, signed: bool) -> BitVec {
        let fill = signed && self.msb();
        let mut out = BitVec::zero(self.width + by);
        for i in 0..self.width + by {
            out.set_bit(i, if i < self.width { self.bit(i) } else { fill });
        }
        out
    }

    /// The binary digits, most significant first (the BTOR2 `const` and witness format).
    pub fn to_binary(&self) -> String {
        (0..self.width)
            .rev()
            .map(|i| if self.bit(i) { '1' } else { '0' })
            .collect()
    }

    /// Parses binary digits, most significant first; the width is the number of digits.
    pub fn parse_binary(s: &str) -> Option<BitVec> {
        if s.is_empty() || !s.bytes().all(|c| c == b'0' || c == b'1') {
            return None;
        }
        let bits: Vec<bool> = s.bytes().rev().map(|c| c == b'1').collect();
        Some(BitVec::from_bits(&bits))
    }

    /// Parses an unsigned number in base `radix` (2, 10 or 16) into `width` bits; `None` when
    /// a digit is invalid or the number needs more bits.
    pub fn parse_radix(width: u32, s: &str, radix: u32) -> Option<BitVec> {
        if s.is_empty() {
            return None;
        }
        // Digit by digit, v = v * radix + d on the limbs: linear per digit (a full-width
        // multiplication would be quadratic in the width, minutes for a 2^24-bit constant).
        let mut limbs = vec![0u64; limbs_for(width)];
        let spare = limbs.len() as u32 * 64 - width;
        for c in s.chars() {
            let mut carry = u128::from(c.to_digit(radix)?);
            for l in limbs.iter_mut() {
                let p = u128::from(*l) * u128::from(radix) + carry;
                *l = p as u64;
                carry = p >> 64;
            }
            let top = *limbs.last().expect("at least one limb");
            if carry != 0 || (spare > 0 && top >> (64 - spare) != 0) {
                return None;
            }
        }
        Some(BitVec { width, limbs })
    }

    /// Parses a decimal number, possibly negative (two's complement), into `width` bits.
    pub fn parse_decimal(width: u32, s: &str) -> Option<BitVec> {
        match s.strip_prefix('-') {
            Some(digits) => BitVec::parse_radix(width, digits, 10).map(|v| v.neg()),
            None => BitVec::parse_radix(width, s, 10),
        }
    }
}

impl fmt::Debug for BitVec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}'b{}", self.width, self.to_binary())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bv(w: u32, v: u64) -> BitVec {
        BitVec::from_u64(w, v)
    }

    /// The value of `v` as a signed number.
    fn signed(v: &BitVec) -> i128 {
        v.to_i128(true).expect("at most 127 bits")
    }

    #[test]
    fn numbers_read_signed_and_unsigned() {
        assert_eq!(bv(8, 0xff).to_i128(true), Some(-1));
        assert_eq!(bv(8, 0xff).to_i128(false), Some(255));
        assert_eq!(bv(8, 0x80).to_i128(true), Some(-128));
        assert_eq!(bv(8, 0x7f).to_i128(true), Some(127));
        assert_eq!(bv(1, 1).to_i128(true), Some(-1));
        assert_eq!(bv(64, u64::MAX).to_i128(false), Some(i128::from(u64::MAX)));
        assert_eq!(BitVec::ones(100).to_i128(false), Some((1i128 << 100) - 1));
        assert_eq!(BitVec::zero(128).to_i128(false), None);
    }

    #[test]
    fn arithmetic_matches_machine_integers() {
        let mut seed = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for w in [1u32, 2, 3, 7, 8, 31, 63, 64] {
            let m = if w == 64 { u64::MAX } else { (1 << w) - 1 };
            for _ in 0..300 {
                let (x, y) = (next() & m, next() & m);
                let (a, b) = (bv(w, x), bv(w, y));
                let wrap = |v: u128| bv(w, v as u64);
                assert_eq!(a.add(&b), wrap(x as u128 + y as u128));
                assert_eq!(a.sub(&b), bv(w, x.wrapping_sub(y)));
                assert_eq!(a.mul(&b), wrap(x as u128 * y as u128));
                assert_eq!(a.ult(&b), x < y);
                assert_eq!(a.slt(&b), signed(&a) < signed(&b));
                if let (Some(q), Some(r)) = (x.checked_div(y), x.checked_rem(y)) {
                    assert_eq!(a.udiv(&b), bv(w, q));
                    assert_eq!(a.urem(&b), bv(w, r));
                    let (sa, sb) = (signed(&a), signed(&b));
                    assert_eq!(signed(&a.sdiv(&b)), signed(&wrap((sa / sb) as u128)));
                    assert_eq!(signed(&a.srem(&b)), signed(&wrap((sa % sb) as u128)));
                    let r = sa % sb;
                    let floored = if r != 0 && (r < 0) != (sb < 0) {
                        r + sb
                    } else {
                        r
                    };
                    assert_eq!(signed(&a.smod(&b)), signed(&wrap(floored as u128)));
                }
            }
        }
    }

    #[test]
    fn division_by_zero_follows_smtlib() {
        let (a, z) = (bv(8, 0x85), bv(8, 0));
        assert_eq!(a.udiv(&z), bv(8, 0xff));
        assert_eq!(a.urem(&z), a);
        assert_eq!(a.sdiv(&z), bv(8, 1)); // negative dividend: -(ones) = 1
        assert_eq!(bv(8, 5).sdiv(&z), bv(8, 0xff));
        assert_eq!(a.srem(&z), a);
        assert_eq!(a.smod(&z), a);
    }

    #[test]
    fn shifts_and_rotations() {
        let a = bv(8, 0b1001_0110);
        assert_eq!(a.sll(&bv(8, 3)), bv(8, 0b1011_0000));
        assert_eq!(a.srl(&bv(8, 3)), bv(8, 0b0001_0010));
        assert_eq!(a.sra(&bv(8, 3)), bv(8, 0b1111_0010));
        assert_eq!(a.sll(&bv(8, 200)), bv(8, 0));
        assert_eq!(a.sra(&bv(8, 8)), bv(8, 0xff));
        assert_eq!(a.rol(&bv(8, 3)), bv(8, 0b1011_0100));
        assert_eq!(a.ror(&bv(8, 3)), bv(8, 0b1101_0010));
        // btorsim's rotations: by the width itself the operand, by more 0.
        assert_eq!(a.rol(&bv(8, 8)), a);
        assert_eq!(a.ror(&bv(8, 11)), bv(8, 0));
        let wide = BitVec::ones(130);
        assert_eq!(
            wide.srl(&BitVec::from_u64(130, 129)),
            BitVec::from_u64(130, 1)
        );
    }

    #[test]
    fn parsing_constants() {
        assert_eq!(BitVec::parse_binary("0101"), Some(bv(4, 5)));
        assert_eq!(BitVec::parse_decimal(8, "-1"), Some(bv(8, 255)));
        assert_eq!(BitVec::parse_decimal(8, "256"), None);
        assert_eq!(BitVec::parse_radix(12, "fFf", 16), Some(bv(12, 0xfff)));
        assert_eq!(BitVec::parse_radix(12, "1fff", 16), None);
        let big = BitVec::parse_radix(128, "ffffffffffffffffffffffffffffffff", 16).unwrap();
        assert_eq!(big, BitVec::ones(128));
        // Overflow into the spare bits of the top limb and past the last limb.
        let max70 = BitVec::parse_decimal(70, "1180591620717411303423").unwrap();
        assert_eq!(max70, BitVec::ones(70));
        assert_eq!(BitVec::parse_decimal(70, "1180591620717411303424"), None);
        assert_eq!(BitVec::parse_radix(64, "10000000000000000", 16), None);
        // A fuzz finding: `constd` of width 2^22 once took seconds (a full multiplication
        // per digit); the value must still be right.
        let wide = BitVec::parse_decimal(1 << 22, "12345678901234567890").unwrap();
        assert_eq!(
            wide,
            BitVec::from_u64(64, 12345678901234567890).extend((1 << 22) - 64, false)
        );
        assert_eq!(bv(5, 6).concat(&bv(3, 1)).to_binary(), "00110001");
        assert_eq!(bv(4, 0b1010).extend(4, true), bv(8, 0b1111_1010));
    }
}
