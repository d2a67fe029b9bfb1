/* A 1-D lookup table with binary search and linear interpolation, written as Embedded Coder
 * writes look1_binlx (const breakpoint and table arrays passed as pointers), clipped at the
 * ends. u in [-5, 25]. Breakpoints 0, 5, 10, 20; table 0, 10, 15, 15. */
extern double __VERIFIER_nondet_double(void);

typedef double real_T;
typedef unsigned int uint32_T;

static const real_T bp[4] = { 0.0, 5.0, 10.0, 20.0 };
static const real_T tab[4] = { 0.0, 10.0, 15.0, 15.0 };

static real_T look1_binlc(real_T u0, const real_T bp0[], const real_T table[], uint32_T maxIndex) {
    real_T frac;
    uint32_T iRght, iLeft, bpIdx;
    if (u0 <= bp0[0U]) {
        iLeft = 0U;
        frac = 0.0;
    } else if (u0 < bp0[maxIndex]) {
        bpIdx = maxIndex >> 1U;
        iLeft = 0U;
        iRght = maxIndex;
        while (iRght - iLeft > 1U) {
            if (u0 < bp0[bpIdx]) {
                iRght = bpIdx;
            } else {
                iLeft = bpIdx;
            }
            bpIdx = (iRght + iLeft) >> 1U;
        }
        frac = (u0 - bp0[iLeft]) / (bp0[iLeft + 1U] - bp0[iLeft]);
    } else {
        iLeft = maxIndex - 1U;
        frac = 1.0;
    }
    return (table[iLeft + 1U] - table[iLeft]) * frac + table[iLeft];
}

int main(void) {
    real_T u = __VERIFIER_nondet_double();
    if (!(u >= -5.0 && u <= 25.0)) return 0;
    real_T y = look1_binlc(u, bp, tab, 3U);
    int r = 0;
    if (y < 0.0 || y > 15.0) {
        r = 1; /* DEAD: interpolation between table values 0 .. 15, clipped */
    }
    if (y == 15.0 && u < 10.0) {
        r = 2; /* DEAD: y reaches 15 only from u = 10 on */
    }
    if (y > 12.0 && y < 13.0) {
        r = 3; /* REACHABLE: u in (9, 10) */
    }
    return r;
}
