// Bounds that narrow the words (0..=8 is four bits): the sums and differences built from
// them must still compute as in `int`; __builtin_abort ends the path.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
void assume(int cond) { if (!cond) __builtin_abort(); }
int main() {
  int a = __VERIFIER_nondet_int(); assume(a >= 0); assume(a <= 8);
  int b = __VERIFIER_nondet_int(); assume(b >= 0 && b <= 8 && a - b != 0);
  if (a == b) reach_error();
  if (a + b > 16) reach_error();
  return 0;
}
