/* betaflight-filter: step firFilterDenoiseUpdate, init firFilterDenoiseInit (SOURCES.md section 8). The filter struct is
 * calloc'd and set up by the init function with random arguments (uint8/uint16/uint32
 * parameters over their whole range incl. 0 and the limits, floats from the oracle's mix).
 * Inputs each step: float input. */
#include "oracle.h"
#include "common/filter.h"
static firFilterDenoise_t *f;
static float input;

static struct or_input INPUTS[] = {
  {"input", OR_F, &input, -2000, 2000},
};
static void setup(void) { f = calloc(1, sizeof *f); }
static void init(void) { firFilterDenoiseInit(f, (uint8_t)(or_pct(80) ? or_range(1, 255) : or_range(0, 255)), (uint16_t)(or_pct(80) ? or_range(1, 65535) : or_range(0, 65535))); }
static void step(void) { (void)firFilterDenoiseUpdate(f, input); }
ORACLE_MAIN(INPUTS, setup, init, step)
