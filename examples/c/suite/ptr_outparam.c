/* Out-parameters and pointer walks: a modf-like split, a min/max scan through a pointer,
 * swapping through pointers. x in [-100, 100] (a double), k in [0, 3]. */
extern double __VERIFIER_nondet_double(void);
extern int __VERIFIER_nondet_int(void);

static double split(double x, int *ip) {
    int i = (int)x; /* in range: |x| <= 100 */
    *ip = i;
    return x - i;
}

static void minmax(const double *v, int n, double *lo, double *hi) {
    const double *p = v;
    *lo = *p;
    *hi = *p;
    for (p = v + 1; p < v + n; p++) {
        if (*p < *lo) *lo = *p;
        if (*p > *hi) *hi = *p;
    }
}

static void swap(int *a, int *b) { int t = *a; *a = *b; *b = t; }

int main(void) {
    double x = __VERIFIER_nondet_double();
    int k = __VERIFIER_nondet_int();
    if (!(x >= -100.0 && x <= 100.0) || k < 0 || k > 3) return 0;
    int r = 0;
    int ip;
    double fr = split(x, &ip);
    if (fr >= 1.0 || fr <= -1.0) {
        r = 1; /* DEAD: the fraction of a truncation has magnitude < 1 */
    }
    if (ip == 100) {
        r = 2; /* REACHABLE: x = 100 */
    }
    double data[4] = { 1.5, -2.0, 0.25, 8.0 };
    data[k] = x;
    double lo, hi;
    minmax(data, 4, &lo, &hi);
    if (lo > -2.0) {
        r = 3; /* REACHABLE: k = 1 and x > -2 */
    }
    if (hi < 1.5) {
        r = 4; /* DEAD: after one replacement, 1.5 or 8.0 remains */
    }
    int a = 1, b = 2;
    int *pa = &a;
    swap(pa, &b);
    if (a != 2 || b != 1) {
        r = 5; /* DEAD */
    }
    return r;
}
