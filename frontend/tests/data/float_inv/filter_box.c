// A first-order filter whose coefficients are non-negative and sum to 1 in float
// arithmetic: by monotone rounding the state stays in the inputs' range [-1, 1].
extern float __VERIFIER_nondet_float(void);
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  float x = 0.f;
  float y = 0.f;
  while (__VERIFIER_nondet_int()) {
    float in = __VERIFIER_nondet_float();
    if (!(in >= -1.f && in <= 1.f)) return 0;
    y = x;
    x = 0.5f * x + 0.25f * y + 0.25f * in;
  }
  if (!(x >= -1.f && x <= 1.f)) reach_error();
  return 0;
}
