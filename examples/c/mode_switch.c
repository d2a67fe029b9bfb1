/* A three-mode thermostat state machine over six control periods.
   Dead-code expectations (hand-verified, see expected.txt). */
extern double __VERIFIER_nondet_double(void);
extern void __VERIFIER_assume(int cond);

enum mode { OFF, HEAT, COOL };

int main(void)
{
    enum mode m = OFF;
    double temp = 20.0;
    int k;
    for (k = 0; k < 6; k++) {
        double d = __VERIFIER_nondet_double();
        __VERIFIER_assume(d >= -0.5 && d <= 0.5);
        temp = temp + d;
        switch (m) {
        case OFF:
            if (temp < 19.0) {
                m = HEAT;
            } else if (temp > 21.0) {
                m = COOL;
            }
            break;
        case HEAT:
            temp += 0.25;
            if (temp > 20.5)
                m = OFF;
            break;
        case COOL:
            temp -= 0.25;
            if (temp < 19.5)
                m = OFF;
            break;
        default:
            m = OFF; /* dead: m is always one of the three modes */
        }
        if (temp < 15.0) {
            return 1; /* dead: at most 6 periods of -0.75 from 20 */
        }
    }
    return 0;
}
