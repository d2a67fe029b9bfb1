/* x flips between 0 and 1: 0 <= x <= 1 at the loop head. */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error() { __assert_fail("0", __FILE__, 3, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern float __VERIFIER_nondet_float(void);
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error(); abort();} } }
int main(void) {
  int x = 0;
  while (__VERIFIER_nondet_bool()) {
    x = 1 - x;
  }
  __VERIFIER_assert(x == 0 || x == 1);
  return 0;
}
