/* Undefined-behaviour goals next to each other: each reachable one must be confirmed at its
 * own operation (gcc's sanitizer report, or the exact conversion check), never at a
 * neighbour's. */
extern int __VERIFIER_nondet_int(void);
extern float __VERIFIER_nondet_float(void);
extern void __VERIFIER_assume(int cond);

int main(void)
{
    int x = __VERIFIER_nondet_int();
    int y = __VERIFIER_nondet_int();
    __VERIFIER_assume(y > -100 && y < 100);
    int a = x + y * 3; /* +: REACHABLE (x = INT_MAX, y = 1); *: DEAD (|y * 3| < 300) */
    int b = 0;
    b = y * 5 - x; /* -: REACHABLE (x = INT_MIN, y = 0); *: DEAD (|y * 5| < 500) */
    int c = -y; /* signed-overflow DEAD: |y| < 100 */
    int d = y << 2; /* invalid-shift REACHABLE: y < 0 (left shift of a negative value) */
    int e = (y + 200) << 2; /* +: DEAD; invalid-shift DEAD: 101 .. 299 shifted by 2 fits */
    float f = __VERIFIER_nondet_float();
    __VERIFIER_assume(f > -1e9f && f < 1e9f);
    int g = (int)f; /* float-to-int-out-of-range DEAD: |f| < 1e9 */
    int h = (int)(f * 4.0f); /* float-to-int-out-of-range REACHABLE: f = 6e8f, 2.4e9 > INT_MAX */
    return (a & 1) + (b & 1) + (c & 1) + (d & 1) + (e & 1) + (g & 1) + (h & 1);
}
