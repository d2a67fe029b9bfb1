/* A saturating first-order filter, as generated for an automotive controller.
   Dead-code expectations (hand-verified, see expected.txt). */
extern float __VERIFIER_nondet_float(void);
extern void __VERIFIER_assume(int cond);

static float clampf(float v, float lo, float hi)
{
    if (v < lo) {
        return lo;
    }
    if (v > hi) {
        return hi;
    }
    return v;
}

int main(void)
{
    float in = __VERIFIER_nondet_float();
    __VERIFIER_assume(in >= -10.0f && in <= 10.0f);
    float u = clampf(in * 0.5f, -1.0f, 1.0f);
    if (u > 1.0f) {
        u = 1.0f; /* dead: u <= 1 after the clamp */
    }
    if (u != u) {
        return 1; /* dead: u is never NaN */
    }
    float big = 1e20f;
    if (big + 1.0f != big) {
        return 2; /* dead in binary32: 1e20f + 1 rounds back to 1e20f */
    }
    if (u == 0.25f) {
        return 3; /* reachable: in = 0.5f */
    }
    return 0;
}
