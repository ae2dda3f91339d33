//! The rank components of a liveness witness circuit ([`super::live`]): one per justice
//! property, built from its proof, over a witness system shared by all of them.
//!
//! A component gives, for two states `x` (the current one) and `y` (read through
//! intervention inputs), a literal `ahead` ("`y` is ranked above `x`") and, per literal of its
//! property (justice literals, then fairness constraints), a literal `seen` over `y`. The
//! witness needs of each component, for states in the witness's property:
//! 1. along a step `s -> t`, `ahead(t, u)` implies `ahead(s, u)`, and `ahead(t, s)` is false;
//! 2. along a step `t -> u` that is not ahead, a `seen` literal true in `u` is true in `t`;
//! 3. along a step `s -> t` where a literal holds in `s`, `ahead(s, t)` or its `seen` in `t`;
//! 4. some literal of the property is not seen (the property carries this fact).

use crate::aig::{Aig, Lit};
use crate::cert::Invariant;
use crate::live::klive::counter_width;
use crate::live::KliveProof;
use crate::ts::TransitionSystem;

/// The witness system being built: the model's inputs and latches first, then the latches
/// the components add, and one input per latch read in the second state.
pub(super) struct Witness<'a> {
    pub sys: TransitionSystem,
    pub model: &'a TransitionSystem,
    /// `(latch, input)`: `input` stands for the value of `latch` in the second state.
    pub then: Vec<(usize, Lit)>,
    /// Facts the witness's property carries.
    pub good: Vec<Lit>,
}

/// One property's part of the rank.
pub(super) struct Component {
    pub ahead: Lit,
    pub seen: Vec<Lit>,
}

/// Why a proof makes no rank.
#[derive(Debug, thiserror::Error)]
pub enum UncertifiedError {
    /// The rank reads the l2s invariant on a made-up pair of states, where latches that
    /// stand for the past have no value.
    #[error(
        "the liveness-to-safety invariant of j{0} has auxiliary latches, which the rank \
         cannot evaluate"
    )]
    AuxLatches(usize),
}

impl Witness<'_> {
    /// The input that stands for latch `latch` in the second state.
    fn then(&mut self, latch: usize) -> Lit {
        if let Some(&(_, y)) = self.then.iter().find(|(l, _)| *l == latch) {
            return y;
        }
        let y = self.sys.add_input(None).lit();
        self.then.push((latch, y));
        y
    }

    /// Adds the `count` latches of `src` after the model's (whose system `src` extends: the
    /// model's inputs and latches first) with their initial values and next-state functions.
    /// Returns where every input and latch of `src` goes: the model's to the witness's, the
    /// added ones to theirs, the rest (left undefined) to 0.
    pub fn import(&mut self, src: &TransitionSystem, count: usize) -> (Vec<Lit>, Vec<Lit>) {
        let (n_in, n) = (self.model.inputs.len(), self.model.latches.len());
        let inputs: Vec<Lit> = (0..src.inputs.len())
            .map(|i| match i < n_in {
                true => self.sys.inputs[i].lit(),
                false => Lit::FALSE,
            })
            .collect();
        let base = self.sys.latches.len();
        let mut latches: Vec<Lit> = self.sys.latches[..n].iter().map(|l| l.var.lit()).collect();
        for l in &src.latches[n..n + count] {
            latches.push(self.sys.add_latch(l.init, None).lit());
        }
        latches.resize(src.latches.len(), Lit::FALSE);
        let nexts: Vec<Lit> = src.latches[n..n + count].iter().map(|l| l.next).collect();
        let images = instance(&mut self.sys.aig, src, &inputs, &latches, &nexts);
        for (j, next) in images.into_iter().enumerate() {
            self.sys.set_next(base + j, next);
        }
        (inputs, latches)
    }

    /// The invariant `inv` of a system extending the model, its auxiliary latches added.
    pub fn join(&mut self, inv: &Invariant) -> Lit {
        let count = inv.system.latches.len() - self.model.latches.len();
        let (inputs, latches) = self.import(&inv.system, count);
        instance(
            &mut self.sys.aig,
            &inv.system,
            &inputs,
            &latches,
            &[inv.predicate],
        )[0]
    }

    /// From k-liveness: the counter system's `seen` latches and counter, which never pass `k`,
    /// ranked by (counter, set of seen literals).
    pub fn klive(&mut self, proof: &KliveProof, literals: usize) -> Component {
        let src = &proof.invariant.system;
        let count = src.latches.len() - self.model.latches.len();
        let (inputs, latches) = self.import(src, count);
        let roots = [proof.invariant.predicate, src.bad[0]];
        let images = instance(&mut self.sys.aig, src, &inputs, &latches, &roots);
        let first = self.sys.latches.len() - count;
        let ranked = first..first + literals + counter_width(proof.k);
        let now: Vec<Lit> = ranked
            .clone()
            .map(|i| self.sys.latches[i].var.lit())
            .collect();
        let then: Vec<Lit> = ranked.map(|i| self.then(i)).collect();
        let (seen_x, count_x) = now.split_at(literals);
        let (seen_y, count_y) = then.split_at(literals);
        let aig = &mut self.sys.aig;
        let ahead = ahead(aig, seen_x, count_x, seen_y, count_y);
        let at_most_k = !greater_than(aig, count_x, proof.k);
        let all_seen = aig.and_all(seen_x.iter().copied());
        self.good
            .extend([images[0], !images[1], at_most_k, !all_seen]);
        Component {
            ahead,
            seen: seen_y.to_vec(),
        }
    }

    /// From liveness to safety: `inv`, the invariant of [`crate::live::l2s::certifiable`] of
    /// property `j`. The witness keeps the degeneralization's `seen` latches `R`; with
    /// `N(x, y)`: "`inv` holds for `x` with the shadow at `y` (saved), either with acceptance
    /// seen, or without and `R(y) ⊆ R(x)`" ("`x` may follow `y`"), `y` is ahead of `x` when
    /// not `N(x, y)`, and a literal is seen in `y` when its `R` latch is set there.
    ///
    /// Why: `N(t, s)` for a step `s -> t` (saving at `s`, from the unsaved instance of `inv`
    /// the property carries); `N(s, u)` gives `N(t, u)` (a step of the l2s system, and `R`
    /// only shrinks through an acceptance); a step `s -> t` that accepts, or that adds to `R`,
    /// has no `N(s, t)`, since one more step would reach the l2s bad state (back at the shadow
    /// with acceptance seen: for a step that adds to `R`, the second disjunct fails and the
    /// first has acceptance seen). Any other step where a literal holds records it in `R`.
    pub fn l2s(
        &mut self,
        inv: &Invariant,
        j: usize,
        literals: usize,
    ) -> Result<Component, UncertifiedError> {
        let src = &inv.system;
        let n = self.model.latches.len();
        let degeneralized = n + literals;
        // Its latches, then saved, the shadows and the seen latch of acceptance.
        if src.latches.len() != 2 * degeneralized + 2 {
            return Err(UncertifiedError::AuxLatches(j));
        }
        let (inputs, mut latches) = self.import(src, literals);
        let first = self.sys.latches.len() - literals;
        let r_x: Vec<Lit> = latches[n..degeneralized].to_vec();
        let all_seen = self.sys.aig.and_all(r_x.iter().copied());
        // Unsaved: the saved, shadow and seen latches at their initial 0.
        let unsaved = instance(&mut self.sys.aig, src, &inputs, &latches, &[inv.predicate])[0];
        self.good.extend([unsaved, !all_seen]);
        let sys_latch = |i: usize| match i < n {
            true => i,
            false => first + i - n,
        };
        let shadow: Vec<Lit> = (0..degeneralized)
            .map(|i| self.then(sys_latch(i)))
            .collect();
        latches[degeneralized] = Lit::TRUE;
        latches[degeneralized + 1..2 * degeneralized + 1].copy_from_slice(&shadow);
        let mut follows = Vec::new();
        for accepted in [false, true] {
            latches[2 * degeneralized + 1] = match accepted {
                true => Lit::TRUE,
                false => Lit::FALSE,
            };
            let held = instance(&mut self.sys.aig, src, &inputs, &latches, &[inv.predicate])[0];
            let aig = &mut self.sys.aig;
            let kept = match accepted {
                true => Lit::TRUE,
                false => {
                    let r_y = &shadow[n..];
                    let subset: Vec<Lit> = (r_y.iter().zip(&r_x))
                        .map(|(&y, &x)| aig.or(!y, x))
                        .collect();
                    aig.and_all(subset)
                }
            };
            follows.push(aig.and(held, kept));
        }
        let follows = self.sys.aig.or_all(follows);
        Ok(Component {
            ahead: !follows,
            seen: shadow[n..].to_vec(),
        })
    }
}

/// The images of `roots` (over `src`) in `dst`, `src`'s inputs and latches replaced by
/// `inputs` and `latches`.
fn instance(
    dst: &mut Aig,
    src: &TransitionSystem,
    inputs: &[Lit],
    latches: &[Lit],
    roots: &[Lit],
) -> Vec<Lit> {
    let mut map: Vec<Option<Lit>> = vec![None; src.aig.num_vars()];
    for (v, &l) in src.inputs.iter().zip(inputs) {
        map[v.index()] = Some(l);
    }
    for (l, &image) in src.latches.iter().zip(latches) {
        map[l.var.index()] = Some(image);
    }
    src.aig.copy_cone(dst, &mut map, roots)
}

/// "`y` is ahead of `x`": a larger count, or the same count and strictly more seen.
fn ahead(aig: &mut Aig, seen_x: &[Lit], count_x: &[Lit], seen_y: &[Lit], count_y: &[Lit]) -> Lit {
    // Unsigned comparison from the least significant bit up: `gt` is "y > x" on the bits so
    // far.
    let mut gt = Lit::FALSE;
    let mut same = Vec::new();
    for (&x, &y) in count_x.iter().zip(count_y) {
        let y_only = aig.and(y, !x);
        let equal = !aig.xor(x, y);
        let keep = aig.and(equal, gt);
        gt = aig.or(y_only, keep);
        same.push(equal);
    }
    let mut level = same;
    for (&x, &y) in seen_x.iter().zip(seen_y) {
        level.push(!aig.and(x, !y));
    }
    let gained: Vec<Lit> = (seen_x.iter().zip(seen_y))
        .map(|(&x, &y)| aig.and(y, !x))
        .collect();
    let gained = aig.or_all(gained);
    level.push(gained);
    let more = aig.and_all(level);
    aig.or(gt, more)
}

/// "`bits` (least significant first) > `k`", unsigned.
fn greater_than(aig: &mut Aig, bits: &[Lit], k: u64) -> Lit {
    let mut gt = Lit::FALSE;
    for (i, &b) in bits.iter().enumerate() {
        gt = match k >> i & 1 == 1 {
            true => aig.and(b, gt),
            false => aig.or(b, gt),
        };
    }
    gt
}
