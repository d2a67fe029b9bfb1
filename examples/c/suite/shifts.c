/* Shifts by at least the width are undefined behaviour. */
extern unsigned int __VERIFIER_nondet_uint(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

int main(void)
{
    unsigned int x = __VERIFIER_nondet_uint();
    int s = __VERIFIER_nondet_int();
    __VERIFIER_assume(s >= 0 && s <= 40);
    unsigned int y = x << s; /* invalid-shift: REACHABLE (s = 32) */
    unsigned int z = x >> (s & 31); /* invalid-shift: DEAD */
    int r = 0;
    if ((1u << (s & 7)) > 128u) {
        r = 1; /* DEAD: at most 1 << 7 */
    }
    if ((1u << (s & 7)) == 128u) {
        r = 2; /* REACHABLE: s = 7 */
    }
    return (int)((y ^ z) & 1u) + r;
}
