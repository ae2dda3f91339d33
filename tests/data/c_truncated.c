void reach_error(void);
int main(void) {
  if (1) {
    reach_error();
