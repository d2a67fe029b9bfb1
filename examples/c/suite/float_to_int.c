/* float -> int truncates toward zero. */
extern float __VERIFIER_nondet_float(void);
extern void __VERIFIER_assume(int cond);

int main(void)
{
    float f = __VERIFIER_nondet_float();
    __VERIFIER_assume(f >= -100.9f && f <= 100.9f);
    int i = (int)f; /* float-to-int-out-of-range: DEAD (|f| < 101) */
    int r = 0;
    if (i == 100) {
        r = 1; /* REACHABLE: f = 100.5f */
    }
    if (i > 100) {
        r = 2; /* DEAD: truncation of 100.9f is 100 */
    }
    if (i < -100) {
        r = 3; /* DEAD: truncation toward zero, not floor */
    }
    return r;
}
