/* <math.h>: sin is enclosed by glibc's documented error bound; floor, ceil, round, trunc
 * are exact (C's signed zeros included). x in [-3, 3]. */
#include <math.h>
extern double __VERIFIER_nondet_double(void);

int main(void) {
    double x = __VERIFIER_nondet_double();
    if (!(x >= -3.0 && x <= 3.0)) return 0;
    int r = 0;
    double s = sin(x);
    if (s > 1.0001) {
        r = 1; /* DEAD: |sin| <= 1, and glibc is within a few ulps */
    }
    double f = floor(x), c = ceil(x), t = trunc(x), h = round(x);
    if (f > x || c < x || f + 1.0 < c) {
        r = 2; /* DEAD */
    }
    if (x == 2.5 && h != 3.0) {
        r = 3; /* DEAD: round halves away from zero */
    }
    if (x < 0.0 && x > -1.0 && !signbit(t)) {
        r = 4; /* DEAD: trunc of a negative fraction is -0.0 */
    }
    if (s > 0.99) {
        r = 5; /* REACHABLE: x near pi/2 */
    }
    return r;
}
