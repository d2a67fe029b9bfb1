/* Shared part of the two libresolar-bms drivers (SOURCES.md section 7).
 * The bms_context is calloc'd; bms->ic_dev points to a device whose driver API has only
 * set_switches (a stub returning 0, or -EIO on some calls; Zephyr would call the IC driver).
 * k_uptime_get() (Zephyr, not in the unit) returns the driver's clock: mostly monotonic
 * milliseconds with random increments, sometimes (profile 0/3) an arbitrary int64.
 * Inputs each step: every field of bms->ic_data (cell voltages/temperatures, averages, current,
 * error_flags, ...), bms->chg_enable, dis_enable, full, empty. */
#include "oracle.h"
#include <bms/bms.h>
static struct bms_context *bms;
static int64_t uptime_ms;
int64_t k_uptime_get(void) { return uptime_ms; }
static int stub_set_switches(const struct device *dev, uint8_t switches, bool enabled) {
  (void)dev; (void)switches; (void)enabled;
  return or_pct(5) ? -5 : 0;
}
static struct bms_ic_driver_api api;
static struct device dev = {"bq769x2", &api, 0};
#define ICF(f, lo, hi) {"bms->ic_data." #f, OR_F, 0, lo, hi}
static struct or_input INPUTS[] = {
  {"bms->chg_enable", OR_B}, {"bms->dis_enable", OR_B}, {"bms->full", OR_B}, {"bms->empty", OR_B},
  ICF(cell_voltage_max, 2, 4.5), ICF(cell_voltage_min, 2, 4.5), ICF(cell_voltage_avg, 2, 4.5),
  ICF(total_voltage, 30, 70), ICF(external_voltage, 0, 70), ICF(current, -100, 100),
  ICF(cell_temp_max, -20, 70), ICF(cell_temp_min, -20, 70), ICF(cell_temp_avg, -20, 70),
  ICF(ic_temp, -20, 70), ICF(mosfet_temp, -20, 90),
  {"bms->ic_data.connected_cells", OR_U8, 0, 0, 16},
  {"bms->ic_data.used_thermistors", OR_U8, 0, 0, 4},
  {"bms->ic_data.balancing_status", OR_U32, 0, 0, 0xffff},
  {"bms->ic_data.error_flags", OR_U32, 0, 0, 0xffff},
  {"bms->ic_data.cell_voltages[i]", OR_F, 0, 2, 4.5}, /* expanded in bms_setup */
};
static struct or_input CELLS[CONFIG_BMS_IC_MAX_CELLS + CONFIG_BMS_IC_MAX_THERMISTORS];
static void bms_setup(void) {
  bms = calloc(1, sizeof *bms);
  api.set_switches = stub_set_switches;
  bms->ic_dev = &dev;
  INPUTS[0].addr = &bms->chg_enable; INPUTS[1].addr = &bms->dis_enable;
  INPUTS[2].addr = &bms->full; INPUTS[3].addr = &bms->empty;
  INPUTS[4].addr = &bms->ic_data.cell_voltage_max; INPUTS[5].addr = &bms->ic_data.cell_voltage_min;
  INPUTS[6].addr = &bms->ic_data.cell_voltage_avg; INPUTS[7].addr = &bms->ic_data.total_voltage;
  INPUTS[8].addr = &bms->ic_data.external_voltage; INPUTS[9].addr = &bms->ic_data.current;
  INPUTS[10].addr = &bms->ic_data.cell_temp_max; INPUTS[11].addr = &bms->ic_data.cell_temp_min;
  INPUTS[12].addr = &bms->ic_data.cell_temp_avg; INPUTS[13].addr = &bms->ic_data.ic_temp;
  INPUTS[14].addr = &bms->ic_data.mosfet_temp; INPUTS[15].addr = &bms->ic_data.connected_cells;
  INPUTS[16].addr = &bms->ic_data.used_thermistors; INPUTS[17].addr = &bms->ic_data.balancing_status;
  INPUTS[18].addr = &bms->ic_data.error_flags;
  INPUTS[19].addr = &bms->ic_data.cell_voltages[0];
  for (int i = 0; i < CONFIG_BMS_IC_MAX_CELLS; i++)
    CELLS[i] = (struct or_input){"bms->ic_data.cell_voltages[i]", OR_F, &bms->ic_data.cell_voltages[i], 2, 4.5};
  for (int i = 0; i < CONFIG_BMS_IC_MAX_THERMISTORS; i++)
    CELLS[CONFIG_BMS_IC_MAX_CELLS + i] = (struct or_input){"bms->ic_data.cell_temps[i]", OR_F, &bms->ic_data.cell_temps[i], -20, 70};
}
static void bms_clock(void) {
  if ((or_profile == 0 || or_profile == 3) && or_pct(2))
    uptime_ms = (int64_t)or_next();
  else
    uptime_ms += or_pct(10) ? 0 : or_range(1, or_pct(5) ? 100000 : 250);
}
static void bms_cells(void) {
  or_assign(CELLS, (int)(sizeof CELLS / sizeof CELLS[0]));
}
