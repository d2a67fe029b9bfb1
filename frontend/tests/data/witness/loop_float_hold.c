/* x keeps the last input that lies in [0, 1]: x is in [0, 1] and not NaN. */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error() { __assert_fail("0", __FILE__, 3, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern float __VERIFIER_nondet_float(void);
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error(); abort();} } }
int main(void) {
  float x = 0.0f;
  while (__VERIFIER_nondet_bool()) {
    float d = __VERIFIER_nondet_float();
    if (d >= 0.0f && d <= 1.0f) x = d;
  }
  __VERIFIER_assert(x >= 0.0f && x <= 1.0f);
  return 0;
}
