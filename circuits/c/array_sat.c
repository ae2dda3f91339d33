// An array filled in a loop: the element at a chosen index can be 3.
extern void reach_error(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
int main() {
  int a[4];
  for (int i = 0; i < 4; i++) {
    a[i] = i;
  }
  unsigned char k = __VERIFIER_nondet_uchar();
  if (k < 4 && a[k] == 3) reach_error();
  return 0;
}
