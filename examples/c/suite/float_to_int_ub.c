/* float -> int of a value whose truncation does not fit (or NaN) is undefined behaviour. */
extern float __VERIFIER_nondet_float(void);
extern void __VERIFIER_assume(int cond);

int main(void)
{
    float f = __VERIFIER_nondet_float();
    int a = (int)f; /* float-to-int-out-of-range: REACHABLE (f = NaN or 3e9f) */
    float g = __VERIFIER_nondet_float();
    __VERIFIER_assume(g > -1e9f && g < 1e9f);
    int b = (int)g; /* float-to-int-out-of-range: DEAD */
    float h = __VERIFIER_nondet_float();
    __VERIFIER_assume(h >= 0.0f && h < 1e10f);
    unsigned int c = (unsigned int)h; /* float-to-int-out-of-range: REACHABLE (h >= 2^32) */
    return a + b + (int)(c & 1u);
}
