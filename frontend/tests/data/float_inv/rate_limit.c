// A rate limiter: the output follows the input in [-8, 8] by steps of at most d. The
// bound |y| <= 9 holds because each branch's test relates the rounded difference
// x - s to the step, a relational fact the box of y alone does not give.
extern float __VERIFIER_nondet_float(void);
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  float y = 0.f;
  while (__VERIFIER_nondet_int()) {
    float x = __VERIFIER_nondet_float();
    float d = __VERIFIER_nondet_float();
    if (!(x >= -8.f && x <= 8.f)) return 0;
    if (!(d >= 0.f && d <= 1.f)) return 0;
    float s = y;
    float r = x - s;
    y = x;
    if (r <= -d) y = s - d;
    else if (r >= d) y = s + d;
  }
  if (!(y >= -9.f && y <= 9.f)) reach_error();
  return 0;
}
