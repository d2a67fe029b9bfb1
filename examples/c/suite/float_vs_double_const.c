/* A float is promoted to double when compared with a double constant: no float equals 0.1. */
extern float __VERIFIER_nondet_float(void);

int main(void)
{
    float f = __VERIFIER_nondet_float();
    int r = 0;
    if (f == 0.1) {
        r = 1; /* DEAD: 0.1 (binary64) is not a binary32 value */
    }
    if (f == 0.1f) {
        r = 2; /* REACHABLE */
    }
    if (f == 0.5) {
        r = 3; /* REACHABLE: 0.5 is exact in both formats */
    }
    return r;
}
