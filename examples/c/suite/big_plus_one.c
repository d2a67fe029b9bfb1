/* 1e20 + 1 == 1e20 in binary64: with real numbers the then-branch would be dead. */
extern double __VERIFIER_nondet_double(void);
extern void __VERIFIER_assume(int cond);

int main(void)
{
    double big = 1e20;
    double d = __VERIFIER_nondet_double();
    __VERIFIER_assume(d >= 0.0 && d <= 1.0);
    int r = 0;
    /* the ulp of 1e20 is 2^14, so 1e20 + d rounds back to 1e20 for every d in [0, 1] */
    if (big + d == big) {
        r = 1; /* REACHABLE (every d) */
    } else {
        r = 2; /* DEAD (with reals: reachable for every d > 0) */
    }
    if (big + 1.0 == 1e20) {
        r = r + 10; /* REACHABLE */
    }
    return r;
}
