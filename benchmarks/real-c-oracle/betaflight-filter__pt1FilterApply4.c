/* betaflight-filter: step pt1FilterApply4, init pt1FilterInit (SOURCES.md section 8). The filter struct is
 * calloc'd and set up by the init function with random arguments (uint8/uint16/uint32
 * parameters over their whole range incl. 0 and the limits, floats from the oracle's mix).
 * Inputs each step: float input, f_cut (uint8_t), dT (float). */
#include "oracle.h"
#include "common/filter.h"
static pt1Filter_t *f;
static float input;
static uint8_t f_cut; static float dT;
static struct or_input INPUTS[] = {
  {"input", OR_F, &input, -2000, 2000},
  {"f_cut", OR_U8, &f_cut, 0, 255},
  {"dT", OR_F, &dT, 0.000125, 0.01},
};
static void setup(void) { f = calloc(1, sizeof *f); }
static void init(void) { pt1FilterInit(f, (uint8_t)or_range(0, 255), (float)or_double_raw(0.000125, 0.01)); }
static void step(void) { (void)pt1FilterApply4(f, input, f_cut, dT); }
ORACLE_MAIN(INPUTS, setup, init, step)
