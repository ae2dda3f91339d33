// Inlined calls with parameters, return values and short-circuit side effects.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int calls = 0;
int positive(int v) {
  calls++;
  return v > 0;
}
void __VERIFIER_assert(int cond) {
  if (!cond) {
  ERROR:
    reach_error();
  }
}
int main() {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  int both = positive(a) && positive(b);
  // Wrong claim: `positive(b)` is skipped only when a <= 0.
  __VERIFIER_assert(both || calls == 1);
  return 0;
}
