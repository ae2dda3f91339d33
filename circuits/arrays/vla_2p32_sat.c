// A variable-length array of a nondet length up to 2^32 - 1 (a 32-bit index: encoded lazily):
// the cell at a nondet index, incremented in a loop, reaches 10.
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);
int main() {
  unsigned int n = __VERIFIER_nondet_uint();
  if (n < 2) return 0;
  int b[n];
  unsigned int k = __VERIFIER_nondet_uint();
  if (k >= n) return 0;
  b[k] = 7;
  for (int t = 0; t < 3; t++) b[k] = b[k] + 1;
  if (b[k] == 10) reach_error();
  return 0;
}
