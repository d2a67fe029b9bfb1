/* Stand-in written for testing icpic3, NOT Zephyr's header (Zephyr RTOS is not in the unit's
 * repository). It declares only what libresolar-bms uses. */
#ifndef ICPIC3_STANDIN_ZEPHYR_KERNEL_H
#define ICPIC3_STANDIN_ZEPHYR_KERNEL_H

#include <stddef.h> /* size_t, NULL (Zephyr's kernel.h brings them in) */
#include <stdint.h>
#include <errno.h> /* ENOSYS */
#include <zephyr/sys/util.h>

/* a definition that another one of the same name may replace at link time */
#define __weak __attribute__((__weak__))

/* milliseconds since boot; defined by the RTOS, not by the unit (an undefined function for
 * the verifier: --undefined-functions nondet makes each call return any value) */
int64_t k_uptime_get(void);

#endif
