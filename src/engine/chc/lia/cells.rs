//! Arrays as one cell (Monniaux and Gonnord's cell morphing): a symbolic index `k` per index
//! width, chosen at the start and never changed, and the array's element at `k`. A write at
//! `k` updates the cell; a read at `k` gives it, a read elsewhere a fresh value (or the value
//! a write of the same term put there). Every run of the program is a run of the abstraction
//! for every `k` (each fresh value taking the element's real value), so what holds of the
//! cell for every `k` holds of every element.

use z3::ast::{Ast, Dynamic, Int};

use super::{dynamic, Frame, Val};
use crate::engine::chc::layout::View;
use crate::wl::{Op, Sort, TermId};

impl<'c> Frame<'c, '_> {
    /// The cell index of arrays indexed by `width` bits.
    pub fn cell_index(&self, width: u32) -> Int<'c> {
        let slot = self.layout.index_slot(width);
        self.state[slot].as_int().expect("an index slot")
    }

    fn index_width(&self, array: TermId) -> u32 {
        match self.cfa.terms.sort(array) {
            Sort::Array { index, .. } => index,
            Sort::Bv(_) => unreachable!("sort-checked array"),
        }
    }

    /// The element of array term `t` at the cell index, in `view`.
    pub fn cell(&mut self, t: TermId, view: View) -> Val<'c, Dynamic<'c>> {
        if let Some(v) = self.cells.get(&(t, view)) {
            return v.clone();
        }
        let term = self.cfa.terms.term(t).clone();
        let v = match term.op {
            Op::State(i) => match self.state[i].as_int() {
                Some(x) => {
                    let (own, width) = (self.layout.views[i], self.width(t));
                    let x = Val {
                        value: x,
                        overflow: self.no(),
                    };
                    dynamic(self.recast(x, own, view, width))
                }
                None => Val {
                    value: self.state[i].clone(),
                    overflow: self.no(),
                },
            },
            Op::ConstArray => self.value(term.args[0], view),
            Op::Write => {
                let k = self.cell_index(self.index_width(t));
                let index = self.num(term.args[1], View::Unsigned);
                let element = self.value(term.args[2], view);
                let rest = self.cell(term.args[0], view);
                let overflow = self.any(&[&index.overflow, &element.overflow, &rest.overflow]);
                Val {
                    value: index.value._eq(&k).ite(&element.value, &rest.value),
                    overflow,
                }
            }
            Op::Ite => {
                let c = self.bit(term.args[0]);
                let (x, y) = (self.cell(term.args[1], view), self.cell(term.args[2], view));
                let overflow = c.value.ite(&x.overflow, &y.overflow);
                Val {
                    value: c.value.ite(&x.value, &y.value),
                    overflow: self.any(&[&c.overflow, &overflow]),
                }
            }
            _ => self.fresh_element(t, view),
        };
        self.cells.insert((t, view), v.clone());
        v
    }

    /// `read(array, index)` in `view`: the cell at the cell index, elsewhere what a write of
    /// `array` put there or a fresh value.
    pub(super) fn read(
        &mut self,
        array: TermId,
        index: TermId,
        view: View,
    ) -> Val<'c, Dynamic<'c>> {
        let k = self.cell_index(self.index_width(array));
        let at = self.num(index, View::Unsigned);
        let cell = self.cell(array, view);
        let elsewhere = self.elsewhere(array, &at.value, view);
        let overflow = self.any(&[&at.overflow, &cell.overflow, &elsewhere.overflow]);
        Val {
            value: at.value._eq(&k).ite(&cell.value, &elsewhere.value),
            overflow,
        }
    }

    /// The element of array term `t` at `index`, known not to be the cell index, in `view`.
    fn elsewhere(&mut self, t: TermId, index: &Int<'c>, view: View) -> Val<'c, Dynamic<'c>> {
        let term = self.cfa.terms.term(t).clone();
        match term.op {
            Op::ConstArray => self.value(term.args[0], view),
            Op::Write => {
                let at = self.num(term.args[1], View::Unsigned);
                let element = self.value(term.args[2], view);
                let rest = self.elsewhere(term.args[0], index, view);
                let overflow = self.any(&[&at.overflow, &element.overflow, &rest.overflow]);
                Val {
                    value: index._eq(&at.value).ite(&element.value, &rest.value),
                    overflow,
                }
            }
            Op::Ite => {
                let c = self.bit(term.args[0]);
                let x = self.elsewhere(term.args[1], index, view);
                let y = self.elsewhere(term.args[2], index, view);
                let overflow = c.value.ite(&x.overflow, &y.overflow);
                Val {
                    value: c.value.ite(&x.value, &y.value),
                    overflow: self.any(&[&c.overflow, &overflow]),
                }
            }
            _ => self.fresh_element(t, view),
        }
    }
}
