/* int -> float loses precision above 2^24; the rounding error stays below 4 under 1e8. */
extern int __VERIFIER_nondet_int(void);
extern float __VERIFIER_nondet_float(void);
extern void __VERIFIER_assume(int cond);

int main(void)
{
    int i = __VERIFIER_nondet_int();
    __VERIFIER_assume(i > -100000000 && i < 100000000);
    float f = (float)i;
    int back = (int)f; /* float-to-int-out-of-range: DEAD (|f| <= 1e8) */
    int r = 0;
    if (back != i) {
        r = 1; /* REACHABLE: i = 16777217 */
    }
    if (back > 100000000) {
        r = 2; /* DEAD: 1e8 is a float and rounding is monotone */
    }
    return r;
}
