/* gt3-drs-aero: step DRSsimulink_step, init DRSsimulink_initialize (SOURCES.md section 2).
 * Inputs: DRSsimulink_U.BrakePressure, .Speed, .SteeringAngle, .Throttle (real_T). */
#include "oracle.h"
#include "DRSsimulink.h"
static struct or_input INPUTS[] = {
  {"DRSsimulink_U.BrakePressure", OR_D, &DRSsimulink_U.BrakePressure, 0, 200},
  {"DRSsimulink_U.Speed", OR_D, &DRSsimulink_U.Speed, 0, 350},
  {"DRSsimulink_U.SteeringAngle", OR_D, &DRSsimulink_U.SteeringAngle, -540, 540},
  {"DRSsimulink_U.Throttle", OR_D, &DRSsimulink_U.Throttle, 0, 100},
};
static void setup(void) {}
static void init(void) { DRSsimulink_initialize(); }
static void step(void) { DRSsimulink_step(); }
ORACLE_MAIN(INPUTS, setup, init, step)
