/* acc-cruise-control: step acc_update(Vehicle_t *v, double dt), no init (SOURCES.md section 6).
 * The Vehicle_t is malloc'd once. Initial contents: even seeds all zero except mass (ACC_OFF, as
 * main() starts), odd seeds random (state any of OFF/STANDBY/ACTIVE/FOLLOW, fields random) --
 * the unit has no init function, so a caller may hand in any struct.
 * Inputs each step: v->velocity, v->radar_front, v->brake_pedal, v->acc_values.last_radar_front, dt.
 * (src/main.c, the simulation program, is not linked; acc_on_off/acc_set_speed are never called.) */
#include "oracle.h"
#include "acc_logic.h"
static Vehicle_t *v;
static double dt;
static struct or_input INPUTS[] = {
  {"v->velocity", OR_D, 0, 0, 60},
  {"v->radar_front", OR_D, 0, 0, 300},
  {"v->brake_pedal", OR_U8, 0, 0, 100},
  {"v->acc_values.last_radar_front", OR_D, 0, 0, 300},
  {"dt", OR_D, &dt, 0, 0.1},
};
static unsigned long long seed_of_run;
static void setup(void) {
  v = calloc(1, sizeof *v);
  INPUTS[0].addr = &v->velocity; INPUTS[1].addr = &v->radar_front;
  INPUTS[2].addr = &v->brake_pedal; INPUTS[3].addr = &v->acc_values.last_radar_front;
  v->mass = 1500;
  if (or_profile & 1) {
    v->state = (AccState_t)or_range(0, 3);
    v->mass = or_double_raw(500, 3000);
    v->throttle = or_double_raw(0, 1);
    v->position = or_double_raw(0, 1e4);
    v->acc_values.integral_error = or_double_raw(-50, 50);
    v->acc_values.last_error = or_double_raw(-30, 30);
    v->acc_values.target_speed = or_double_raw(0, 60);
    v->acc_values.radar_speed = or_double_raw(0, 60);
    v->acc_values.last_set_speed = or_double_raw(0, 60);
    v->acc_values.acc_break = or_double_raw(0, 1);
  }
  (void)seed_of_run;
}
static void init(void) {}
static void step(void) { acc_update(v, dt); }
ORACLE_MAIN(INPUTS, setup, init, step)
