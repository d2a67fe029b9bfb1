/* mode is 0 or 2, never 1: the invariant has a disjunction. */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error() { __assert_fail("0", __FILE__, 3, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern float __VERIFIER_nondet_float(void);
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error(); abort();} } }
int main(void) {
  int mode = 0;
  for (int k = 0; __VERIFIER_nondet_int(); ) {
    if (mode == 0) mode = 2; else mode = 0;
  }
  __VERIFIER_assert(mode != 1);
  return 0;
}
