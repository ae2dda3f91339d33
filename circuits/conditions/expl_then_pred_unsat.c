/* Seed 003's case for a conditional sequence on C: two branches, each easy for one CFA
   analysis and hard for the other. Explicit values run the generator's 48 steps out (an
   exact value per step) but would unroll the counter's million steps; predicate
   abstraction proves the counter's branch at once, but its interpolants on the
   generator's multiplications give it nothing general. `--engine sequence` (BMC, explicit
   values cut after 64 visits of a location, then predicates given the explicit run's
   condition) proves it; each CFA analysis alone does not (tests/conditions.rs). */
extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "expl_then_pred_unsat.c", 10, "reach_error"); }

int main(void) {
  if (__VERIFIER_nondet_int()) {
    unsigned int i = 0;
    while (i < 1000000u) i++;
    if (i != 1000000u) reach_error();
  } else {
    /* 48 steps end at 3025925713, which 7 and 11 do not divide */
    unsigned int x = 1, k = 0;
    while (k < 48u) { x = x * 1103515245u + 12345u; k++; }
    if (x % 7u == 0u && x % 11u == 0u) reach_error();
  }
  return 0;
}
