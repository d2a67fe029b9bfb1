/* A violation that needs a NaN input: format 2.0 cannot state it as a waypoint. */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error() { __assert_fail("0", __FILE__, 3, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern float __VERIFIER_nondet_float(void);
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error(); abort();} } }
extern double __VERIFIER_nondet_double(void);
int main(void) {
  int a = __VERIFIER_nondet_int();
  double d = __VERIFIER_nondet_double();
  if (a == -3 && d != d) reach_error();
  return 0;
}
