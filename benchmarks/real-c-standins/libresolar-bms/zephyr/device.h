/* Stand-in written for testing icpic3, NOT Zephyr's header (Zephyr RTOS is not in the unit's
 * repository). It declares only what libresolar-bms uses: a device record whose `api` points
 * to the driver's function table. */
#ifndef ICPIC3_STANDIN_ZEPHYR_DEVICE_H
#define ICPIC3_STANDIN_ZEPHYR_DEVICE_H

struct device {
  const char *name;
  const void *api;
  void *data;
};

/* marks a driver API structure in Zephyr; no meaning here */
#define __subsystem

#endif
