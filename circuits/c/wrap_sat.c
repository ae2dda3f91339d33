// unsigned char wraps around: 250 + 7 is 1.
extern void reach_error(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
int main() {
  unsigned char x = 250;
  unsigned char d = __VERIFIER_nondet_uchar();
  if (d > 10) return 0;
  x += d;
  if (x < 5) reach_error();
  return 0;
}
