int main(void) {
  int x = y + 1;
  return x;
}
