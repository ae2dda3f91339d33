//! Where a CFA's variables go in the predicates of its Horn clauses ([`Layout`]), and the
//! numbers of its words: the two readings of a word ([`View`]), their ranges, numerals.

use z3::ast::{Ast, Bool, Dynamic, Int};
use z3::Context;

use crate::cfa::Cfa;
use crate::wl::{BitVec, Sort, TermId};

/// How a word is read as a number.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum View {
    Signed,
    Unsigned,
}

/// Where each variable of the CFA is in the argument list of a location's predicate: one
/// argument per variable (Boolean for one bit, integer otherwise; an array's is its cell),
/// then the cell index of each array index width, then the lifted constants.
///
/// A **lifted constant** is an argument that the entry sets to a constant of the program
/// and no edge changes: exact, and Spacer generalises over a bound it cannot count up to
/// (a loop to 1000 and a loop over its cells: `unknown` after 30 s with the numeral,
/// proved in 0.1 s with the argument).
pub struct Layout {
    /// The index widths of the arrays, each with its argument.
    pub index_widths: Vec<u32>,
    /// The view of each variable (of each element, for arrays).
    pub views: Vec<View>,
    /// The lifted constants (as signed numbers), in argument order.
    pub lifted: Vec<i128>,
}

/// Constants of at most this magnitude stay numerals (small steps and offsets).
const LIFT_ABOVE: i128 = 16;

impl Layout {
    pub fn new(cfa: &Cfa) -> Layout {
        let mut index_widths: Vec<u32> = (cfa.vars.iter())
            .filter_map(|v| match v.sort {
                Sort::Array { index, .. } => Some(index),
                Sort::Bv(_) => None,
            })
            .collect();
        index_widths.sort_unstable();
        index_widths.dedup();
        let views = (cfa.vars.iter())
            .map(|v| {
                if v.signed {
                    View::Signed
                } else {
                    View::Unsigned
                }
            })
            .collect();
        let roots = (cfa.edges.iter())
            .flat_map(|e| std::iter::once(e.guard).chain(e.assigns.iter().map(|&(_, t)| t)));
        let cone = cfa.terms.cone(roots);
        let mut lifted: Vec<i128> = (cone.iter().enumerate())
            .filter(|(_, &c)| c)
            .filter_map(|(t, _)| cfa.terms.constant(TermId(t as u32)))
            .filter(|c| c.width() > 1)
            .filter_map(|c| numeral(c, View::Signed))
            .filter(|v| v.abs() > LIFT_ABOVE)
            .collect();
        lifted.sort_unstable();
        lifted.dedup();
        Layout {
            index_widths,
            views,
            lifted,
        }
    }

    pub fn len(&self) -> usize {
        self.views.len() + self.index_widths.len() + self.lifted.len()
    }

    /// That each lifted constant among `args` has its value: true in every reachable state
    /// (the entry sets them and no edge changes them), and what the overflow queries need
    /// (an index below a lifted array size is within the index width).
    pub fn lifted_values<'c>(&self, ctx: &'c Context, args: &[Dynamic<'c>]) -> Vec<Bool<'c>> {
        let base = self.views.len() + self.index_widths.len();
        (self.lifted.iter().enumerate())
            .map(|(i, &v)| {
                let x = args[base + i].as_int().expect("a lifted slot");
                x._eq(&int(ctx, v))
            })
            .collect()
    }

    /// The argument of lifted constant `v` (a signed number), if it is one.
    pub fn lifted_slot(&self, v: i128) -> Option<usize> {
        let i = self.lifted.binary_search(&v).ok()?;
        Some(self.views.len() + self.index_widths.len() + i)
    }

    /// The argument of the cell index of arrays indexed by `width` bits.
    pub fn index_slot(&self, width: u32) -> usize {
        let i = (self.index_widths.iter().position(|&w| w == width))
            .expect("every array's index width has a slot");
        self.views.len() + i
    }

    /// Fresh constants for the arguments, named `{prefix}{slot}`, with the range of each
    /// (cell indices included) as a constraint.
    pub fn constants<'c>(
        &self,
        ctx: &'c Context,
        cfa: &Cfa,
        prefix: &str,
    ) -> (Vec<Dynamic<'c>>, Vec<Bool<'c>>) {
        let mut args = Vec::with_capacity(self.len());
        let mut ranges = Vec::new();
        for (i, v) in cfa.vars.iter().enumerate() {
            let width = v.sort.element_width();
            let name = format!("{prefix}{i}");
            if width == 1 {
                args.push(Dynamic::from_ast(&Bool::new_const(ctx, name)));
            } else {
                let x = Int::new_const(ctx, name);
                ranges.push(in_range(ctx, &x, self.views[i], width));
                args.push(Dynamic::from_ast(&x));
            }
        }
        let (ks, k_ranges) = self.cell_indices(ctx, prefix);
        args.extend(ks);
        ranges.extend(k_ranges);
        for j in 0..self.lifted.len() {
            args.push(Dynamic::from_ast(&Int::new_const(
                ctx,
                format!("{prefix}c{j}"),
            )));
        }
        (args, ranges)
    }

    /// Fresh constants for the cell indices, with their ranges.
    pub fn cell_indices<'c>(
        &self,
        ctx: &'c Context,
        prefix: &str,
    ) -> (Vec<Dynamic<'c>>, Vec<Bool<'c>>) {
        (self.index_widths.iter().enumerate())
            .map(|(j, &w)| {
                let k = Int::new_const(ctx, format!("{prefix}k{j}"));
                let range = in_range(ctx, &k, View::Unsigned, w);
                (Dynamic::from_ast(&k), range)
            })
            .unzip()
    }

    /// The arguments of the entry: every variable zero (arrays all zero), cell indices
    /// `ks`, the lifted constants their values.
    pub fn entry<'c>(&self, ctx: &'c Context, cfa: &Cfa, ks: &[Dynamic<'c>]) -> Vec<Dynamic<'c>> {
        let mut args: Vec<Dynamic> = (cfa.vars.iter())
            .map(|v| match v.sort {
                Sort::Bv(1) | Sort::Array { element: 1, .. } => {
                    Dynamic::from_ast(&Bool::from_bool(ctx, false))
                }
                _ => Dynamic::from_ast(&Int::from_i64(ctx, 0)),
            })
            .collect();
        args.extend(ks.iter().cloned());
        args.extend((self.lifted.iter()).map(|&v| Dynamic::from_ast(&int(ctx, v))));
        args
    }
}

/// The disjunction of `parts`, `false` for none (Z3's `or` of no arguments is not).
pub fn any<'c>(ctx: &'c Context, parts: &[&Bool<'c>]) -> Bool<'c> {
    match parts {
        [] => Bool::from_bool(ctx, false),
        [one] => (*one).clone(),
        _ => Bool::or(ctx, parts),
    }
}

/// The conjunction of `parts`, `true` for none.
pub fn all<'c>(ctx: &'c Context, parts: &[&Bool<'c>]) -> Bool<'c> {
    match parts {
        [] => Bool::from_bool(ctx, true),
        [one] => (*one).clone(),
        _ => Bool::and(ctx, parts),
    }
}

/// `lo <= x <= hi` for the range of `view` at `width`.
pub fn in_range<'c>(ctx: &'c Context, x: &Int<'c>, view: View, width: u32) -> Bool<'c> {
    let (lo, hi) = bounds(view, width);
    Bool::and(ctx, &[&x.ge(&int(ctx, lo)), &x.le(&int(ctx, hi))])
}

/// The widest word the translation takes (its ranges are `i128`s; C's types have at most 64
/// bits, and an index of a CFA at most 64).
pub const MAX_WIDTH: u32 = 120;

/// The least and greatest number of `view` at `width` (at most [`MAX_WIDTH`]).
pub fn bounds(view: View, width: u32) -> (i128, i128) {
    let w = width.min(MAX_WIDTH);
    match view {
        View::Signed => (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1),
        View::Unsigned => (0, (1i128 << w) - 1),
    }
}

pub fn int(ctx: &Context, v: i128) -> Int<'_> {
    match i64::try_from(v) {
        Ok(small) => Int::from_i64(ctx, small),
        Err(_) => Int::from_str(ctx, &v.to_string()).expect("a decimal numeral"),
    }
}

/// The number `v` stands for in `view`.
pub fn numeral(v: &BitVec, view: View) -> Option<i128> {
    v.to_i128(view == View::Signed)
}
