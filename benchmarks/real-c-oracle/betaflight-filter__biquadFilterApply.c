/* betaflight-filter: step biquadFilterApply, init biquadFilterInitLPF (SOURCES.md section 8). The filter struct is
 * calloc'd and set up by the init function with random arguments (uint8/uint16/uint32
 * parameters over their whole range incl. 0 and the limits, floats from the oracle's mix).
 * Inputs each step: float input. */
#include "oracle.h"
#include "common/filter.h"
static biquadFilter_t *f;
static float input;

static struct or_input INPUTS[] = {
  {"input", OR_F, &input, -2000, 2000},
};
static void setup(void) { f = calloc(1, sizeof *f); }
static void init(void) { biquadFilterInitLPF(f, (float)or_double_raw(0, 1000), (uint32_t)(or_pct(50) ? or_range(0, 2000) : or_next())); }
static void step(void) { (void)biquadFilterApply(f, input); }
ORACLE_MAIN(INPUTS, setup, init, step)
