/* A loop bounded by an input: k == n at the exit. */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

int main(void)
{
    int n = __VERIFIER_nondet_int();
    __VERIFIER_assume(n >= 0 && n <= 5);
    int k = 0;
    while (k < n) {
        k++; /* signed-overflow: DEAD */
    }
    int r = 0;
    if (k != n) {
        r = 1; /* DEAD */
    }
    if (k == 5) {
        r = 2; /* REACHABLE */
    }
    return r;
}
