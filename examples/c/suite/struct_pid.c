/* A PI controller kept in a struct, passed by pointer; a struct returned by value and
 * copied; an array of structs. e in [-10, 10] each call, two calls. */
extern int __VERIFIER_nondet_int(void);

typedef struct { double kp, ki; double integ; double lo, hi; } pi_t;
typedef struct { double u; int saturated; } out_t;

static out_t pi_step(pi_t *c, double e) {
    out_t o;
    c->integ += c->ki * e;
    double u = c->kp * e + c->integ;
    o.saturated = 0;
    if (u > c->hi) {
        u = c->hi;
        o.saturated = 1;
    } else if (u < c->lo) {
        u = c->lo;
        o.saturated = -1;
    }
    o.u = u;
    return o;
}

int main(void) {
    pi_t ctl = { .kp = 0.5, .ki = 0.25, .lo = -4.0, .hi = 4.0 };
    pi_t bank[2] = { { 1.0, 0.0, 0.0, -1.0, 1.0 }, { 0 } };
    int r = 0;
    int e1 = __VERIFIER_nondet_int();
    int e2 = __VERIFIER_nondet_int();
    if (e1 < -10 || e1 > 10 || e2 < -10 || e2 > 10) return 0;
    out_t a = pi_step(&ctl, e1);
    out_t b = pi_step(&ctl, e2);
    out_t c = b;
    if (a.saturated == 1) {
        r = 1; /* REACHABLE: 0.5 e1 + 0.25 e1 > 4 needs e1 >= 6 */
    }
    if (c.saturated == -1 && c.u != -4.0) {
        r = 2; /* DEAD: saturated low means u = lo */
    }
    if (ctl.integ > 5.0) {
        r = 3; /* DEAD: integ = 0.25 (e1 + e2) <= 5 */
    }
    if (ctl.integ == 5.0) {
        r = 4; /* REACHABLE: e1 = e2 = 10 */
    }
    out_t d = pi_step(&bank[1], 3.0);
    if (d.u != 0.0 || bank[0].kp != 1.0) {
        r = 5; /* DEAD: bank[1] is all zero (lo = hi = 0), bank[0] untouched */
    }
    return r;
}
