/* A for loop with break and continue. */
int main(void)
{
    int i;
    int odd = 0;
    for (i = 0; i < 10; i++) {
        if (i == 7) {
            break; /* REACHABLE */
        }
        if (i % 2 != 0) {
            continue; /* REACHABLE */
        }
        odd = odd + 1;
    }
    int r = 0;
    if (i == 10) {
        r = 1; /* DEAD: the loop always breaks at i = 7 */
    }
    if (odd != 4) {
        r = 2; /* DEAD: i = 0, 2, 4, 6 */
    }
    return r;
}
