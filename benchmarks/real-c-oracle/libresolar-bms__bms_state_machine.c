/* libresolar-bms: step bms_state_machine(bms), init bms_init_config(bms, type, capacity)
 * with a random cell type (LFP/NMC/LTO) and capacity (see bms_common_driver.h for the inputs). */
#include "bms_common_driver.h"
static void setup(void) { bms_setup(); }
static void init(void) {
  enum bms_cell_type t = (enum bms_cell_type)or_range(0, 2);
  float cap = (float)(or_profile == 1 ? 1 + 199 * or_unit() : or_double_raw(1, 200));
  bms_init_config(bms, t, cap);
}
static void step(void) { bms_clock(); bms_cells(); bms_state_machine(bms); }
ORACLE_MAIN(INPUTS, setup, init, step)
