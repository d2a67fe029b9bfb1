/* libresolar-bms: step bms_soc_update(bms), init bms_soc_reset(bms, percent) with a random
 * percent (in 0..100 or outside; outside uses the OCV curve or the simple estimation).
 * Before bms_soc_reset the context is zero except (odd seeds) the configuration a
 * bms_init_config would give (random cell type, capacity). */
#include "bms_common_driver.h"
static void setup(void) { bms_setup(); }
static void init(void) {
  if (or_profile & 1)
    bms_init_config(bms, (enum bms_cell_type)or_range(0, 2), (float)or_double_raw(1, 200));
  else
    bms->nominal_capacity_Ah = (float)or_double_raw(1, 200);
  or_assign(INPUTS, (int)(sizeof INPUTS / sizeof INPUTS[0]));
  int percent = or_pct(50) ? (int)or_range(0, 100) : (int)or_range(-1000, 1000);
  bms_soc_reset(bms, percent);
}
static void step(void) { bms_clock(); bms_cells(); bms_soc_update(bms); }
ORACLE_MAIN(INPUTS, setup, init, step)
