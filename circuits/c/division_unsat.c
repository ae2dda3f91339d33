// C division truncates toward zero: q * d + r == x for every signed x.
extern void reach_error(void);
extern signed char __VERIFIER_nondet_char(void);
int main() {
  signed char x = __VERIFIER_nondet_char();
  int q = x / 4;
  int r = x % 4;
  if (q * 4 + r != x) reach_error();
  if (r > 0 && x < 0) reach_error();
  return 0;
}
