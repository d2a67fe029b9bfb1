/* throttle-valve-ctl: step tv_controller_2_1_step, init tv_controller_2_1_initialize
 * (SOURCES.md section 3). Inputs: tv_controller_2_1_U.thrust_lbf_set_inport, .pom_psi_inport,
 * .pc_psi_inport, .pfm_psi_inport (real_T). */
#include "oracle.h"
#include "tv_controller_2_1.h"
static struct or_input INPUTS[] = {
  {"tv_controller_2_1_U.thrust_lbf_set_inport", OR_D, &tv_controller_2_1_U.thrust_lbf_set_inport, 0, 5000},
  {"tv_controller_2_1_U.pom_psi_inport", OR_D, &tv_controller_2_1_U.pom_psi_inport, 0, 1000},
  {"tv_controller_2_1_U.pc_psi_inport", OR_D, &tv_controller_2_1_U.pc_psi_inport, 0, 600},
  {"tv_controller_2_1_U.pfm_psi_inport", OR_D, &tv_controller_2_1_U.pfm_psi_inport, 0, 1000},
};
static void setup(void) {}
static void init(void) { tv_controller_2_1_initialize(); }
static void step(void) { tv_controller_2_1_step(); }
ORACLE_MAIN(INPUTS, setup, init, step)
