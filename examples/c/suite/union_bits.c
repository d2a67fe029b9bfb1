/* IEEE bit tricks through unions, as newlib and generated code write them.
 * fabs by clearing the sign bit; isnan by the exponent mask; the high word of a double
 * (newlib's EXTRACT_WORDS / INSERT_WORDS, little-endian word order). */
#include <stdint.h>
extern double __VERIFIER_nondet_double(void);
extern float __VERIFIER_nondet_float(void);

typedef union { double value; struct { uint32_t lsw; uint32_t msw; } parts; uint64_t word; } dshape;
typedef union { float value; uint32_t word; } fshape;

static double my_fabs(double x) {
    dshape u;
    u.value = x;
    u.word &= 0x7fffffffffffffffULL;
    return u.value;
}

static int my_isnanf(float x) {
    fshape u;
    u.value = x;
    uint32_t ix = u.word & 0x7fffffffu;
    return ix > 0x7f800000u;
}

int main(void) {
    double x = __VERIFIER_nondet_double();
    float f = __VERIFIER_nondet_float();
    int r = 0;
    double a = my_fabs(x);
    if (a < 0.0) {
        r = 1; /* DEAD: the sign bit is clear */
    }
    if (x == x && a != (x < 0 ? -x : x)) {
        r = 2; /* DEAD: for every non-NaN x, clearing the sign is the absolute value */
    }
    if (my_isnanf(f) != (f != f)) {
        r = 3; /* DEAD: the exponent-mask test is exactly isnan */
    }
    dshape w;
    w.value = x;
    uint32_t hi = w.parts.msw;
    if ((hi & 0x7ff00000u) == 0x7ff00000u) {
        if (x == x) {
            r = 4; /* REACHABLE: x = +-inf */
        } else {
            r = 5; /* REACHABLE: x is NaN */
        }
    }
    if (x >= 1.0 && x < 2.0 && hi != 0x3ff00000u + (w.parts.msw & 0xfffffu)) {
        r = 6; /* DEAD: [1, 2) has the biased exponent 0x3ff */
    }
    dshape v;
    v.parts.msw = 0x40080000u; /* INSERT_WORDS: 3.0 */
    v.parts.lsw = 0;
    if (v.value != 3.0) {
        r = 7; /* DEAD */
    }
    return r;
}
