/* A saturating fault counter with a latch. */
extern _Bool __VERIFIER_nondet_bool(void);

int main(void)
{
    int cnt = 0;
    int latched = 0;
    for (int k = 0; k < 6; k++) {
        _Bool fault = __VERIFIER_nondet_bool();
        if (fault) {
            if (cnt < 3) {
                cnt++;
            }
        } else if (cnt > 0) {
            cnt--;
        }
        if (cnt >= 3) {
            latched = 1; /* REACHABLE: three faults in a row */
        }
    }
    int r = 0;
    if (cnt > 3) {
        r = 1; /* DEAD: the counter saturates at 3 */
    }
    if (latched && cnt == 0) {
        r = 2; /* REACHABLE: 3 faults, then 3 good periods */
    }
    return r;
}
