/* hyperloop-lcu-control: step control_step0, init control_initialize (SOURCES.md section 4).
 * Inputs: control_U.Airgaps_Model[8], control_U.Refz, control_U.I_real_hems[4] (real32_T) */
#include "oracle.h"
#include "control.h"

#define A(i) {"control_U.Airgaps_Model[" #i "]", OR_F, &control_U.Airgaps_Model[i], 0, 0.03}
#define H(i) {"control_U.I_real_hems[" #i "]", OR_F, &control_U.I_real_hems[i], -50, 50}
static struct or_input INPUTS[] = {
  A(0), A(1), A(2), A(3), A(4), A(5), A(6), A(7),
  {"control_U.Refz", OR_F, &control_U.Refz, 0, 0.03},
  H(0), H(1), H(2), H(3),
};
/* control_DW.Corriente_Buffer0[4] is the rate-transition buffer (state in SOURCES.md) and rtNaN
 * the NaN constant of rt_nonfinite.c; icpic3 lists them as inputs (Corriente_Buffer0 of
 * control_step0, rtNaN of control_step1/control_step): accepted in CSV replays only */
#define B(i) {"control_DW.Corriente_Buffer0[" #i "]", OR_F, &control_DW.Corriente_Buffer0[i], -50, 50}
#include "rt_nonfinite.h"
static struct or_input EXTRA[] = { B(0), B(1), B(2), B(3), {"rtNaN", OR_D, &rtNaN, 0, 0} };
static void setup(void) { or_extra = EXTRA; or_nextra = 5; }
static void init(void) { control_initialize(); }
static void step(void) { control_step0(); }
ORACLE_MAIN(INPUTS, setup, init, step)
