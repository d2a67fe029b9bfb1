/* <math.h> inverse trigonometric functions: asin, acos, atan, atan2 are enclosed through
 * the relation their exact value satisfies (sin(asin x) = x, ...), with glibc's error
 * bound as slack. x, y arbitrary doubles; the guards keep them finite. */
#include <math.h>
extern double __VERIFIER_nondet_double(void);

int main(void) {
    double x = __VERIFIER_nondet_double();
    double y = __VERIFIER_nondet_double();
    if (!(x >= -1e6 && x <= 1e6 && y >= -1e6 && y <= 1e6)) return 0;
    int r = 0;
    double a = atan(x);
    if (a > 1.6 || a < -1.6) {
        r = 1; /* DEAD: |atan x| < pi/2 < 1.6 */
    }
    if (x >= 0.0 && x <= 1.0) {
        double s = asin(x);
        if (s < -0.01 || s > 1.58) {
            r = 2; /* DEAD: asin maps [0, 1] onto [0, pi/2] */
        }
        double c = acos(x);
        if (c > 1.5708) {
            r = 3; /* DEAD: acos maps [0, 1] onto [0, pi/2] */
        }
    }
    double t = atan2(y, x);
    if (t > 3.15 || t < -3.15) {
        r = 4; /* DEAD: atan2 lies in [-pi, pi] */
    }
    if (a > 0.78) {
        r = 5; /* REACHABLE: atan x > 0.78 for x > tan 0.78 = 0.989... */
    }
    if (x > 2.0 && x < 100.0 && a < 1.0) {
        r = 6; /* DEAD: atan is increasing and atan 2 = 1.107... */
    }
    return r;
}
