/* A rate limiter over three periods: the output moves at most 1.0 per period. */
extern float __VERIFIER_nondet_float(void);
extern void __VERIFIER_assume(int cond);

int main(void)
{
    float out = 0.0f;
    for (int k = 0; k < 3; k++) {
        float in = __VERIFIER_nondet_float();
        __VERIFIER_assume(in >= -10.0f && in <= 10.0f);
        float d = in - out;
        if (d > 1.0f) {
            d = 1.0f; /* REACHABLE */
        }
        if (d < -1.0f) {
            d = -1.0f; /* REACHABLE */
        }
        out = out + d;
    }
    int r = 0;
    if (out > 3.0f) {
        r = 1; /* DEAD: at most +1.0 per period, small integers are exact */
    }
    if (out == 3.0f) {
        r = 2; /* REACHABLE: in = 10 every period */
    }
    return r;
}
