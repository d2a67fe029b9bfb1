/* NaN compares unequal to itself and is neither < nor >= anything. */
extern float __VERIFIER_nondet_float(void);

int main(void)
{
    float x = __VERIFIER_nondet_float();
    float y = __VERIFIER_nondet_float();
    int r = 0;
    if (x != x) {
        r = 1; /* REACHABLE: x = NaN */
    }
    if (x < y || x >= y) {
        r = r + 2; /* REACHABLE */
    } else {
        r = r + 4; /* REACHABLE: x or y NaN */
    }
    return r;
}
