/* Signed overflow is a goal of its own (undefined behaviour). */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

int main(void)
{
    int x = __VERIFIER_nondet_int();
    __VERIFIER_assume(x > 0);
    int y = x + 1; /* signed-overflow: REACHABLE (x = INT_MAX) */
    int z = __VERIFIER_nondet_int();
    __VERIFIER_assume(z > -1000 && z < 1000);
    int w = z * 1000; /* signed-overflow: DEAD (|w| < 10^6) */
    return y + w; /* signed-overflow: REACHABLE (x = INT_MAX - 1, z = 1) */
}
