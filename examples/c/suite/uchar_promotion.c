/* unsigned char operands are promoted to int; storing back wraps modulo 256. */
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void)
{
    unsigned char a = __VERIFIER_nondet_uchar();
    unsigned char b = __VERIFIER_nondet_uchar();
    int s = a + b;
    unsigned char c = a + b;
    int r = 0;
    if (s > 255) {
        r = 1; /* REACHABLE: the int sum does not wrap */
    }
    if (s > 510) {
        r = 2; /* DEAD: 255 + 255 */
    }
    if (c < a) {
        r = 3; /* REACHABLE: a = 1, b = 255 */
    }
    return r;
}
