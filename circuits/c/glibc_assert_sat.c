// glibc's assert (a statement expression calling __assert_fail) is the error; sizeof of an
// expression does not evaluate it.
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int main() {
  int x = __VERIFIER_nondet_int();
  int n = sizeof(x++);
  if (x > 5) {
    assert(x != 7 || n != 4);
  }
  return 0;
}
