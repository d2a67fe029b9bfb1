/* A violation after three inputs; the first call is followed by a blank before the ';'. */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error() { __assert_fail("0", __FILE__, 3, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern float __VERIFIER_nondet_float(void);
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error(); abort();} } }
extern double __VERIFIER_nondet_double(void);
int main(void) {
  int a = __VERIFIER_nondet_int() ;
  float f = __VERIFIER_nondet_float( );
  double d = __VERIFIER_nondet_double();
  if (a == 7 && f > 2.5f && f < 3.0f && d == -0.25) reach_error();
  return 0;
}
