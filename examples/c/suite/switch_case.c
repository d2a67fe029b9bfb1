/* switch with fall-through, an impossible case and default. */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

int main(void)
{
    int m = __VERIFIER_nondet_int();
    __VERIFIER_assume(m >= 0 && m <= 3);
    int r = 0;
    switch (m) {
    case 0:
        r = 10; /* REACHABLE */
        break;
    case 1: /* REACHABLE */
        r = 1;
        /* fall through */
    case 2: /* REACHABLE */
        r = r + 2;
        break;
    case 5:
        r = 50; /* DEAD: m <= 3 */
        break;
    default:
        r = 7; /* REACHABLE: m = 3 */
        break;
    }
    if (r == 2) {
        r = 20; /* REACHABLE: m = 2 */
    }
    if (r == 5) {
        r = 21; /* DEAD: r is 10, 3, 2 or 7 */
    }
    return r;
}
