// An array of 100,000 ints (a 17-bit index: encoded lazily, never element by element),
// written at a nondet index and at constant ones: the constant cells keep their own values.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int a[100000];
int main() {
  int i = __VERIFIER_nondet_int();
  if (i < 100 || i >= 100000) return 0;
  a[i] = __VERIFIER_nondet_int();
  a[0] = 1;
  a[99] = 2;
  for (int t = 0; t < 3; t++) {
    a[0] = a[0] + a[99];
    a[i] = a[i] + 1;
  }
  if (a[0] != 7 || a[99] != 2 || a[50] != 0) reach_error();
  return 0;
}
