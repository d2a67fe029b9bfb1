/* After excluding NaN, x < y || x >= y always holds and x == x. */
#include <math.h>
extern double __VERIFIER_nondet_double(void);
extern void __VERIFIER_assume(int cond);

int main(void)
{
    double x = __VERIFIER_nondet_double();
    double y = __VERIFIER_nondet_double();
    __VERIFIER_assume(!isnan(x));
    __VERIFIER_assume(y == y);
    int r = 0;
    if (x < y || x >= y) {
        r = 1; /* REACHABLE */
    } else {
        r = 2; /* DEAD: neither operand is NaN */
    }
    if (x != x) {
        r = 3; /* DEAD */
    }
    return r;
}
