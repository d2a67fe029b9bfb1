/* A saturating unsigned char counter: i <= 10 at the loop head. */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error() { __assert_fail("0", __FILE__, 3, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern float __VERIFIER_nondet_float(void);
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error(); abort();} } }
int main(void) {
  unsigned char i = 0;
  while (__VERIFIER_nondet_bool()) {
    if (i < 10) i++;
  }
  __VERIFIER_assert(i <= 10);
  return 0;
}
