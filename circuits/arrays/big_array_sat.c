// An array of 100,000 ints (a 17-bit index: encoded lazily): two nondet cells written in
// turn; the error needs them to be the same cell.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int a[100000];
int main() {
  int i = __VERIFIER_nondet_int();
  int j = __VERIFIER_nondet_int();
  if (i < 0 || i >= 100000 || j < 0 || j >= 100000) return 0;
  a[i] = 1;
  a[j] = 2;
  for (int t = 0; t < 3; t++) a[i] = a[i] + a[j];
  if (a[i] == 16) reach_error();
  return 0;
}
