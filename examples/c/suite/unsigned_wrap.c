/* unsigned arithmetic wraps around; -1 < 1u is false. */
extern unsigned int __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int cond);

int main(void)
{
    unsigned int x = __VERIFIER_nondet_uint();
    __VERIFIER_assume(x >= 4294967200u);
    unsigned int y = x + 1u;
    int r = 0;
    if (y < x) {
        r = 1; /* REACHABLE: x = UINT_MAX */
    }
    if (y == 0u && x != 4294967295u) {
        r = 2; /* DEAD */
    }
    int m = -1;
    if (m < 1u) {
        r = 3; /* DEAD: m is converted to UINT_MAX */
    }
    return r;
}
