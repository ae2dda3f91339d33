//! Execution of programs that draw no nondet value: such a program has one run, so running it
//! in the CFA interpreter decides it, however deep its recursion or long its loops.
//!
//! The symbolic engines need an invariant for a program like `fib(25) == 75025` or a loop
//! that counts to a million, and have none short enough to find; executing it takes a few
//! million interpreter steps. The interpreter is the reference semantics that every error
//! path is replayed on ([`crate::cfa::interp`]), so the run is its own check: an error reached
//! is a replayed error path, and a run that ends without the error is the only execution
//! there is. Recursion is inlined up to a bound ([`crate::front::c::Recursion`]), with shared
//! copies of the recursive bodies so the CFA stays linear in it; a run that goes deeper than
//! the bound is reported so the caller executes a deeper inlining.

use crate::cfa::interp::{self, Oracle, Run, RunError};
use crate::cfa::{Cfa, Edge};
use crate::wl::Value;
use crate::Budget;

/// What executing a program found.
#[derive(Debug)]
pub enum Execution {
    /// The only run reaches the error within the recursion bound: a real error path.
    Error(Run),
    /// The only run ends (`main` returns, `exit` or `abort` is called, or an assumption
    /// fails) after `steps` edges without reaching the error.
    Safe { steps: usize },
    /// The only run makes a call deeper than the recursion bound (it reaches
    /// [`Cfa::unwind`], or the value of a call cut there, [`crate::cfa::Nondet::beyond_bound`]).
    Unwound,
    /// Executing does not decide: the program draws a nondet value (an input, an
    /// uninitialised local) at step `steps`, or its run goes on past the time or the steps
    /// allowed.
    Undecided { steps: usize, reason: &'static str },
}

/// Runs `cfa` from its entry for at most `max_steps` edges, while `budget` lasts.
pub fn execute(cfa: &Cfa, budget: &Budget, max_steps: usize) -> Result<Execution, RunError> {
    let mut oracle = Deterministic {
        asked: false,
        beyond: false,
        late: false,
        budget,
        cfa,
    };
    let run = interp::run(cfa, &mut oracle, max_steps)?;
    let steps = run.steps.len();
    Ok(if oracle.beyond || run.unwound(cfa) {
        Execution::Unwound
    } else if oracle.asked {
        Execution::Undecided {
            steps,
            reason: "the program draws a nondet value",
        }
    } else if run.reached(cfa) {
        Execution::Error(run)
    } else if oracle.late || steps == max_steps {
        Execution::Undecided {
            steps,
            reason: "the run did not end in the time or steps allowed",
        }
    } else {
        Execution::Safe { steps }
    })
}

/// The oracle of a run that must draw nothing: asked for a value, it gives zero and notes
/// that it was asked (the run is then not the only one, and stops), or that a call went
/// deeper than the recursion bound (the value of such a call,
/// [`crate::cfa::Nondet::beyond_bound`]); it
/// also stops the run when the budget ends.
struct Deterministic<'a> {
    asked: bool,
    beyond: bool,
    late: bool,
    budget: &'a Budget,
    cfa: &'a Cfa,
}

/// Steps between two looks at the budget.
const CLOCK_EVERY: usize = 4096;

impl Oracle for Deterministic<'_> {
    fn peek(&mut self, _step: usize, nondet: usize, _position: usize) -> Value {
        let source = &self.cfa.nondets[nondet];
        match source.beyond_bound {
            true => self.beyond = true,
            false => self.asked = true,
        }
        Value::zero(self.cfa.terms.sort(source.term))
    }

    fn commit(&mut self, _step: usize, _edge: &Edge) {}

    fn stopped(&mut self, step: usize) -> bool {
        if step.is_multiple_of(CLOCK_EVERY) && self.budget.expired() {
            self.late = true;
        }
        self.asked || self.beyond || self.late
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::c::{self, DataModel, Externs, Recursion};

    const DECLS: &str = "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\n";

    fn execute_at(body: &str, recursion: Recursion) -> Execution {
        let text = format!("{DECLS}{body}");
        let cfa = c::translate_with(&text, DataModel::Ilp32, &Externs::default(), recursion)
            .unwrap()
            .cfa;
        execute(&cfa, &Budget::new(None), 1_000_000).unwrap()
    }

    fn execute_c(body: &str) -> Execution {
        execute_at(body, Recursion::default())
    }

    #[test]
    fn a_loop_without_nondet_values_runs_to_its_end_or_to_the_error() {
        // 0 + 1 + ... + 999 = 499500, in a thousand iterations.
        let sum = "int main() { int s = 0; for (int i = 0; i < 1000; i++) s += i; \
                   if (s != EXPECTED) reach_error(); return 0; }";
        let safe = execute_c(&sum.replace("EXPECTED", "499500"));
        assert!(
            matches!(safe, Execution::Safe { steps } if steps > 1000),
            "{safe:?}"
        );
        let Execution::Error(run) = execute_c(&sum.replace("EXPECTED", "499501")) else {
            panic!("the error is reached");
        };
        assert!(run.steps.len() > 1000);
    }

    #[test]
    fn a_nondet_value_or_the_step_limit_leaves_the_program_undecided() {
        let drawn = execute_c(
            "int main() { int x = 0; for (int i = 0; i < 10; i++) x += i; \
                               if (__VERIFIER_nondet_int() == x) reach_error(); return 0; }",
        );
        assert!(
            matches!(drawn, Execution::Undecided { steps, .. } if steps > 10),
            "{drawn:?}"
        );
        let endless = execute_c("int main() { int x = 0; while (1) x++; return 0; }");
        assert!(matches!(
            endless,
            Execution::Undecided {
                steps: 1_000_000,
                ..
            }
        ));
        let uninitialised = execute_c("int main() { int x; if (x == 3) reach_error(); return 0; }");
        assert!(matches!(uninitialised, Execution::Undecided { .. }));
    }

    #[test]
    fn recursion_deeper_than_the_bound_unwinds_and_shared_copies_reach_the_bottom() {
        // fib(20) calls fib 21891 times, 20 deep: shared copies make the CFA linear in depth.
        let fib = "int fib(int n) { if (n < 2) return n; return fib(n - 1) + fib(n - 2); }
                   int main() { if (fib(20) != 6765) reach_error(); return 0; }";
        assert!(matches!(execute_c(fib), Execution::Unwound));
        let deep = Recursion {
            bound: 24,
            exceeded_is_error: true,
            shared: true,
        };
        let run = execute_at(fib, deep);
        assert!(
            matches!(run, Execution::Safe { steps } if steps > 21891),
            "{run:?}"
        );
        let wrong = execute_at(&fib.replace("6765", "6766"), deep);
        assert!(matches!(wrong, Execution::Error(_)), "{wrong:?}");
    }
}
