// switch with fall-through: every path adds up to an odd number.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main() {
  int k = __VERIFIER_nondet_int();
  int y = 0;
  switch (k & 3) {
  case 0:
    y += 2;
  case 1:
    y += 1;
    break;
  case 2:
    y = 4;
  default:
    y += 1;
  }
  if (y % 2 == 0) reach_error();
  return 0;
}
