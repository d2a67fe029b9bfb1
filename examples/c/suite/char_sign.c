/* char is signed on x86-64; converting to unsigned char wraps. */
extern char __VERIFIER_nondet_char(void);

int main(void)
{
    char c = __VERIFIER_nondet_char();
    unsigned char u = c;
    int r = 0;
    if (c < 0) {
        r = 1; /* REACHABLE */
    }
    if (u > 127 && c >= 0) {
        r = 2; /* DEAD: u > 127 iff c < 0 */
    }
    if (u == 255) {
        r = 3; /* REACHABLE: c = -1 */
    }
    return r;
}
