/* A cruise/throttle controller in the style of generated automotive code, run for four
 * control periods with arbitrary sensor values. Dead-code expectations for every goal are
 * derived by hand in examples/c/expected.txt (controller.c lines); the reasoning is in the
 * comments marked DEAD / REACHABLE below.
 *
 * Inputs per period: vehicle speed [m/s], requested set speed [m/s], brake switch, enable
 * switch, accelerator pedal [0..1]. Every input may be any value of its type (NaN too).
 * Besides the control path there are diagnostics in double precision (distance estimate,
 * glitch counter, a throttle byte for the diagnostic bus).
 */
#include <math.h>

extern float __VERIFIER_nondet_float(void);
extern _Bool __VERIFIER_nondet_bool(void);

#define PERIODS 4

#define MODE_OFF 0
#define MODE_STANDBY 1
#define MODE_ACTIVE 2
#define MODE_OVERRIDE 3
#define MODE_FAULT 4

#define SPEED_MIN 0.0f
#define SPEED_MAX 70.0f
#define SET_MIN 8.0f
#define SET_MAX 50.0f
#define FAULT_LIMIT 2

#define KP 0.1f
#define KI 0.01f
#define CMD_MIN 0.0f
#define CMD_MAX 1.0f
#define RATE_STEP 0.25f
#define PEDAL_THRESHOLD 0.1f

/* controller state */
static int mode = MODE_OFF;
static float v_filt = 0.0f;
static float set_speed = 0.0f;
static float integ = 0.0f;
static float throttle = 0.0f;
static int speed_faults = 0;
static int fault_latched = 0;
static int override_periods = 0;
static int active_periods = 0;
static int pct = 0;

/* gain scheduling over the filtered speed: 20 m/s per entry */
static const float gain_table[4] = {1.0f, 0.9f, 0.8f, 0.7f};

/* ------------------------------------------------------------------ helpers */

/* 1 if v is a number in [lo, hi]; NaN and out-of-range values are implausible */
static int plausible(float v, float lo, float hi)
{
    if (isnan(v)) {
        return 0; /* REACHABLE: a NaN reading */
    }
    if (v < lo || v > hi) {
        return 0; /* REACHABLE */
    }
    return 1;
}

/* clamp to [lo, hi]; a NaN passes through unchanged (both comparisons are false) */
static float saturate(float x, float lo, float hi)
{
    if (x > hi) {
        return hi;
    }
    if (x < lo) {
        return lo;
    }
    return x;
}

/* first-order low-pass filter, coefficient 1/4 */
static float lowpass(float prev, float x)
{
    return prev + 0.25f * (x - prev);
}

/* move from prev towards target by at most step */
static float rate_limit(float prev, float target, float step)
{
    float d = target - prev;
    if (d > step) {
        d = step;
    } else if (d < -step) {
        d = -step;
    }
    return prev + d;
}

/* ------------------------------------------------------------------ sensor processing */

static int process_speed(float v_raw)
{
    if (plausible(v_raw, SPEED_MIN, SPEED_MAX)) {
        v_filt = lowpass(v_filt, v_raw);
        if (speed_faults > 0) {
            speed_faults--; /* REACHABLE: a good reading after a bad one */
        }
    } else {
        if (speed_faults < FAULT_LIMIT) {
            speed_faults++;
        }
    }
    if (speed_faults >= FAULT_LIMIT) {
        fault_latched = 1; /* REACHABLE: two implausible readings in a row */
    }
    if (speed_faults > FAULT_LIMIT) {
        return -1; /* DEAD: the counter saturates at FAULT_LIMIT */
    }
    return plausible(v_raw, SPEED_MIN, SPEED_MAX);
}

/* ------------------------------------------------------------------ mode state machine */

static void mode_machine(int enable, int brake, int set_ok, float pedal_c, float set_raw)
{
    switch (mode) {
    case MODE_OFF:
        if (enable && !fault_latched) {
            mode = MODE_STANDBY;
        }
        break;
    case MODE_STANDBY:
        if (!enable) {
            mode = MODE_OFF;
        } else if (!brake && set_ok && v_filt > SET_MIN) {
            /* earliest in period 2: v_filt = 17.5 after one reading of 70 */
            mode = MODE_ACTIVE;
            integ = 0.0f;
            set_speed = set_raw;
        }
        break;
    case MODE_ACTIVE: /* REACHABLE from period 3 on */
        if (brake) {
            mode = MODE_STANDBY;
        } else if (pedal_c > PEDAL_THRESHOLD) {
            mode = MODE_OVERRIDE;
        } else if (!enable) {
            mode = MODE_OFF;
        }
        break;
    case MODE_OVERRIDE: /* REACHABLE only in period 4 */
        /* a NaN pedal is neither above nor below the threshold: the mode stays OVERRIDE */
        if (pedal_c <= PEDAL_THRESHOLD) {
            mode = MODE_ACTIVE;
        }
        if (brake) {
            mode = MODE_STANDBY;
        }
        break;
    case MODE_FAULT: /* REACHABLE: latched in period 2, seen in period 3 */
        break;
    default:
        mode = MODE_FAULT; /* DEAD: mode is always one of the five */
        break;
    }
    if (fault_latched) {
        mode = MODE_FAULT;
    }
}

/* ------------------------------------------------------------------ PI controller */

static float pi_control(float v)
{
    float err = set_speed - v;
    int idx = (int)(v * 0.05f); /* float-to-int-out-of-range: DEAD (0 <= v <= 70) */
    float kp = KP * gain_table[idx]; /* array-index-out-of-bounds: DEAD (idx <= 3) */
    float u = kp * err + integ;
    if (u > CMD_MAX) {
        u = CMD_MAX; /* REACHABLE: set speed 50, v_filt 30.6; no integration (anti-windup) */
    } else if (u < CMD_MIN) {
        u = CMD_MIN; /* REACHABLE: set speed below the current speed */
    } else {
        integ = integ + KI * err; /* REACHABLE */
    }
    return u;
}

/* ------------------------------------------------------------------ diagnostics */

#define DT 0.1          /* control period [s]: a double constant */
#define DV_LIMIT 100.0f /* raw speed jump counted as a glitch [m/s per period] */

static double odo_m = 0.0;     /* distance estimate [m], accumulated in double */
static float v_prev = 0.0f;    /* the last plausible raw speed */
static int glitches = 0;       /* raw-signal glitches seen */
static unsigned char diag = 0; /* throttle in 1/255 steps, bit 7 of diag_flags: distance */
static unsigned char diag_flags = 0;

static void diagnostics(float v_raw, int speed_ok)
{
    /* promotion: v_filt (float) times DT (double) is computed in double */
    odo_m = odo_m + v_filt * DT;
    double vd = v_filt;
    if ((float)vd != v_filt && vd == vd) {
        glitches = 100; /* DEAD: float -> double -> float is exact for every non-NaN float */
    }
    float dv = v_raw - v_prev;
    if (fabsf(dv) > DV_LIMIT) {
        glitches++; /* REACHABLE: a raw reading of 1e20 (implausible, but still a jump) */
    } else if (dv != dv) {
        glitches++; /* REACHABLE: a NaN reading (fabsf(NaN) > 100 is false) */
    }
    if (speed_ok) {
        v_prev = v_raw;
    }
    if (v_prev < SPEED_MIN || v_prev > SPEED_MAX) {
        glitches = -1; /* DEAD: only plausible readings are kept */
    }
    if (!isnan(throttle)) {
        int q = (int)(throttle * 255.0f); /* float-to-int-out-of-range: DEAD (0 <= throttle <= 1) */
        if (q > 255) {
            q = 255; /* DEAD: throttle <= 1 */
        }
        diag = (unsigned char)q;
    }
    if (odo_m > 28.0) {
        glitches = -2; /* DEAD: four periods of v_filt <= 70 m/s for 0.1 s */
    }
    if (odo_m > 5.0) {
        diag_flags |= 0x80; /* REACHABLE: v = 70 in periods 1-3: 1.75 + 3.0625 + 4.046875 m */
    }
}

/* ------------------------------------------------------------------ one control period */

static void step(float v_raw, float set_raw, int brake, int enable, float pedal)
{
    int speed_ok = process_speed(v_raw);
    int set_ok = plausible(set_raw, SET_MIN, SET_MAX);
    float pedal_c = saturate(pedal, 0.0f, 1.0f);

    mode_machine(enable, brake, set_ok, pedal_c, set_raw);

    if (mode == MODE_ACTIVE && brake) {
        mode = MODE_FAULT; /* DEAD: braking always leaves ACTIVE */
    }

    float cmd = 0.0f;
    if (mode == MODE_ACTIVE) {
        cmd = pi_control(v_filt);
        active_periods++;
    } else if (mode == MODE_OVERRIDE) {
        cmd = pedal_c; /* NaN if the pedal reading is NaN */
        override_periods++;
    } else {
        integ = 0.0f;
    }

    if (cmd > CMD_MAX) {
        cmd = CMD_MAX; /* DEAD: u and pedal_c are at most 1 */
    }
    if (cmd < CMD_MIN) {
        cmd = CMD_MIN; /* DEAD: u and pedal_c are at least 0 (or NaN) */
    }

    throttle = rate_limit(throttle, cmd, RATE_STEP);

    if (!isnan(throttle)) {
        pct = (int)(throttle * 100.0f); /* float-to-int-out-of-range: DEAD */
    }
    if (!speed_ok && mode == MODE_ACTIVE && throttle > 0.5f) {
        /* REACHABLE: ACTIVE from period 2, implausible speed in period 4, throttle 0.75 */
        throttle = 0.5f;
    }
    diagnostics(v_raw, speed_ok);
}

/* ------------------------------------------------------------------ the run */

int main(void)
{
    for (int k = 0; k < PERIODS; k++) {
        float v_raw = __VERIFIER_nondet_float();
        float set_raw = __VERIFIER_nondet_float();
        _Bool brake = __VERIFIER_nondet_bool();
        _Bool enable = __VERIFIER_nondet_bool();
        float pedal = __VERIFIER_nondet_float();
        step(v_raw, set_raw, brake, enable, pedal);
    }

    int r = 0;
    /* throttle rises by at most 0.25 per period from period 2 (the earliest ACTIVE) */
    if (throttle > 0.75f) {
        r = 1; /* DEAD */
    }
    if (throttle == 0.75f) {
        r = 2; /* REACHABLE: ACTIVE in periods 2..4 with the command saturated */
    }
    if (throttle != throttle) {
        r = 3; /* REACHABLE: OVERRIDE in period 3, NaN pedal in period 4 */
    }
    if (mode == MODE_FAULT && throttle > 0.3f) {
        r = 4; /* DEAD: FAULT from period 4 at the latest, throttle <= 0.5 - 0.25 then */
    }
    if (integ > 2.0f) {
        r = 5; /* DEAD: at most three integration steps of at most 0.01 * 50 */
    }
    if (override_periods > 2) {
        r = 6; /* DEAD: OVERRIDE needs ACTIVE first (period 3 at the earliest) */
    }
    if (active_periods == 3) {
        r = 7; /* REACHABLE: periods 2, 3 and 4 */
    }
    if (pct > 75) {
        r = 8; /* DEAD: throttle <= 0.75 */
    }
    if (glitches < 0) {
        r = 9; /* DEAD: the negative markers are dead above */
    }
    return r;
}
