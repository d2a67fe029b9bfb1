extern void reach_error(void);
int k, g;
int a[4];
int twice(int v) {
  g = 2 * v;
  return g;
}
int main(void) {
  int x;
  k = 1;
  a[k] = twice(1);
  a[k + 1] = k + 2;
  x = twice(3);
  if (a[1] == 2 && a[2] == 3 && x == 6) reach_error();
  return 0;
}
/* c_trace.rs: `a[k] = twice(1);` is not traced: a call on the right may change what the
   lvalue's address depends on (k; not this call, but the rule is by syntax), and reading
   a[k] again after the statement would then read another element than the one written.
   `a[k + 1] = k + 2;` (no call, no assignment on the right) and `x = twice(3);` (a variable:
   its address is fixed) are. */
