/* Witness for the contradicted DEAD goal bms_soc.c:24:10 `else` (bms_soc_reset, the init
 * function of the step run bms_soc_update): the last else branch of bms_soc_reset is reached
 * with a percent outside 0..100 and bms->ocv_points / soc_points pointing to the unit's own
 * global arrays ocv_points / soc_points (whose addresses the unit takes in bms_init_config;
 * they are still all zero, since bms_init_config does not run in this step run), i.e. within
 * icpic3's stated assumption "a pointer whose target is known only at run time points into an
 * object whose address the program takes" -- no NULL pointer needed.
 * Build (see real_c_step_oracle.py for the include flags) with --coverage and read line 24-29
 * of gcov's bms_soc.c.gcov, or run: the program prints which branch it took. */
#include <stdio.h>
#include <stdlib.h>
#include <bms/bms.h>
extern float ocv_points[NUM_OCV_POINTS], soc_points[NUM_OCV_POINTS];
int64_t k_uptime_get(void) { return 0; }
int main(void) {
  struct bms_context *bms = calloc(1, sizeof *bms);
  bms->ocv_points = ocv_points;   /* non-NULL, into an object whose address the unit takes */
  bms->soc_points = soc_points;
  bms->ic_conf.cell_chg_voltage_limit = 3.65f;
  bms->ic_conf.cell_dis_voltage_limit = 2.5f;
  bms->ic_data.cell_voltage_avg = 3.0f;
  bms_soc_reset(bms, 200);        /* percent outside 0..100 */
  /* the else branch interpolates over {chg_limit, dis_limit} -> {100, 0} */
  printf("soc = %g (simple estimation of line 26-29 gives %g)\n", bms->soc,
         (3.0 - 2.5) / (3.65 - 2.5) * 100.0);
  return 0;
}
