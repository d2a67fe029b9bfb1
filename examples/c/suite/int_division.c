/* Division by zero and INT_MIN / -1 are undefined behaviour goals. */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

int main(void)
{
    int a = __VERIFIER_nondet_int();
    int b = __VERIFIER_nondet_int();
    __VERIFIER_assume(b >= -3 && b <= 3);
    int q = a / b; /* division-by-zero: REACHABLE (b = 0); signed-overflow: REACHABLE (INT_MIN / -1) */
    int r = 0;
    if (b > 0) {
        int m = a % b; /* division-by-zero: DEAD */
        if (m >= b) {
            r = 1; /* DEAD: |a % b| < |b| */
        }
        if (m < 0) {
            r = 2; /* REACHABLE: the remainder takes the sign of a */
        }
    }
    return q + r;
}
