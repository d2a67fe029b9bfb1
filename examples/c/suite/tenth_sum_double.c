/* Ten times 0.1 summed in binary64 is 0.9999999999999999, not 1.0. */
int main(void)
{
    double s = 0.0;
    int k = 0;
    while (k < 10) {
        s = s + 0.1;
        k++;
    }
    int r = 0;
    if (s == 1.0) {
        r = 1; /* DEAD */
    }
    if (s < 1.0) {
        r = 2; /* REACHABLE */
    }
    return r;
}
