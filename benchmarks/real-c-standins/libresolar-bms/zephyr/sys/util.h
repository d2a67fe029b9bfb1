/* Stand-in written for testing icpic3, NOT Zephyr's header. Only the helpers libresolar-bms
 * uses. */
#ifndef ICPIC3_STANDIN_ZEPHYR_SYS_UTIL_H
#define ICPIC3_STANDIN_ZEPHYR_SYS_UTIL_H

#define BIT(n) (1UL << (n))
/* bits l..h set (h < 31 here) */
#define GENMASK(h, l) ((BIT((h) - (l) + 1) - 1UL) << (l))
#define CLAMP(val, low, high) (((val) <= (low)) ? (low) : (((val) >= (high)) ? (high) : (val)))

#endif
