/* Coverage criteria on one unit (icpic3 deadcode --function unit --criterion ...):
   hand-derived answers in frontend/tests/c_mcdc.rs. */
int unit(int a, int b, int x)
{
    int r = 0;
    if (x > 10 && x > 5)
        r += 1;
    if (a > 5 && (a > 0 || b > 0))
        r += 2;
    if (a > 0 && (b > 0 || a > 5))
        r += 4;
    r += !(b == 3) ? 8 : 16;
    for (int i = 0; i < 2; i++)
        r += i;
    return r;
}
