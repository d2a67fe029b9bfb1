/* f + 1.0f is computed in float, f + 1.0 in double. */
extern float __VERIFIER_nondet_float(void);
extern void __VERIFIER_assume(int cond);

int main(void)
{
    float f = __VERIFIER_nondet_float();
    __VERIFIER_assume(f >= 16777216.0f && f <= 16777224.0f);
    int r = 0;
    if (f + 1.0f == f) {
        r = 1; /* REACHABLE: f = 2^24, 2^24 + 1 rounds to even */
    }
    if (f + 1.0 == f) {
        r = 2; /* DEAD: (double)f + 1 is exact and differs from f */
    }
    return r;
}
