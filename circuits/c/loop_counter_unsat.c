// A bounded loop: the counter leaves the loop exactly at 10.
extern void reach_error(void);
int main() {
  unsigned char i = 0;
  while (i < 10) {
    i++;
  }
  if (i != 10) reach_error();
  return 0;
}
