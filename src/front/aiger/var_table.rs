//! A table from AIGER variable indices to small codes, safe against lying headers.

use std::collections::HashMap;

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
