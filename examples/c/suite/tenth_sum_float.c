/* Ten times 0.1f summed in binary32 is 1.00000012f, not 1.0f. */
int main(void)
{
    float s = 0.0f;
    for (int i = 0; i < 10; i++) {
        s += 0.1f;
    }
    int r = 0;
    if (s == 1.0f) {
        r = 1; /* DEAD: s is 0x1.000002p+0 */
    }
    if (s > 1.0f) {
        r = 2; /* REACHABLE */
    }
    return r;
}
