/* fabs, sqrt, fmin, fmax, isnan, isinf with NaN and signed zeros. */
#include <math.h>
extern double __VERIFIER_nondet_double(void);

int main(void)
{
    double x = __VERIFIER_nondet_double();
    double a = fabs(x);
    int r = 0;
    if (a < 0.0) {
        r = 1; /* DEAD: fabs is never negative (NaN compares false) */
    }
    if (sqrt(a) < 0.0) {
        r = 2; /* DEAD: sqrt(+0) = +0, sqrt(NaN) is NaN */
    }
    if (isnan(sqrt(x))) {
        r = 3; /* REACHABLE: x = -1 */
    }
    if (isinf(x * 2.0) && !isinf(x)) {
        r = 4; /* REACHABLE: x = 1e308 */
    }
    if (fmin(x, 1.0) > 1.0) {
        r = 5; /* DEAD: fmin(NaN, 1) = 1 */
    }
    if (fmax(x, 0.0) < 0.0) {
        r = 6; /* DEAD: fmax(NaN, 0) = 0 */
    }
    return r;
}
