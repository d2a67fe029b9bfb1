/* fcu-anode-strategy: step OnlyAnodeStrategy20240624_step, init
 * OnlyAnodeStrategy20240624_initialize (SOURCES.md section 1). Inputs: the exported real_T
 * globals C_An_SoSeWa_m, C_Fcu_Ready, C_Sti_Req, C_Ve_FaSta, S_An_PrReVaOut_p,
 * S_An_PrReVaOut_t, S_An_RmMa_p, S_An_SuMa_p. (ert_main.c, the example main, is not linked.) */
#include "oracle.h"
#include "OnlyAnodeStrategy20240624.h"
static struct or_input INPUTS[] = {
  {"C_An_SoSeWa_m", OR_D, &C_An_SoSeWa_m, 0, 100},
  {"C_Fcu_Ready", OR_D, &C_Fcu_Ready, 0, 1},
  {"C_Sti_Req", OR_D, &C_Sti_Req, 0, 3},
  {"C_Ve_FaSta", OR_D, &C_Ve_FaSta, 0, 3},
  {"S_An_PrReVaOut_p", OR_D, &S_An_PrReVaOut_p, 0, 300},
  {"S_An_PrReVaOut_t", OR_D, &S_An_PrReVaOut_t, -40, 120},
  {"S_An_RmMa_p", OR_D, &S_An_RmMa_p, 0, 300},
  {"S_An_SuMa_p", OR_D, &S_An_SuMa_p, 0, 300},
};
static void setup(void) {}
static void init(void) { OnlyAnodeStrategy20240624_initialize(); }
static void step(void) { OnlyAnodeStrategy20240624_step(); }
ORACLE_MAIN(INPUTS, setup, init, step)
