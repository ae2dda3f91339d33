// The error needs the ends of the bounded ranges (a = 8, b = 0), read through the words
// narrowed to those ranges.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main() {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  if (a < 0 || a > 8 || b < 0 || b > 8) return 0;
  if (a - b == 8 && a + b == 8) reach_error();
  return 0;
}
