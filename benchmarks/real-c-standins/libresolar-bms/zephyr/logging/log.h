/* Stand-in written for testing icpic3, NOT Zephyr's header. Logging is switched off: the
 * macros expand to nothing that runs (Zephyr's real macros hand the arguments to the log
 * subsystem, outside the unit); the module registration declares an unused type name. */
#ifndef ICPIC3_STANDIN_ZEPHYR_LOGGING_LOG_H
#define ICPIC3_STANDIN_ZEPHYR_LOGGING_LOG_H

#include <stdbool.h> /* Zephyr's log.h brings it in; helper.h relies on that */

#define LOG_MODULE_REGISTER(name, ...) typedef int icpic3_log_module_##name
#define LOG_MODULE_DECLARE(name, ...) typedef int icpic3_log_module_decl_##name
#define LOG_DBG(...) ((void)0)
#define LOG_INF(...) ((void)0)
#define LOG_WRN(...) ((void)0)
#define LOG_ERR(...) ((void)0)

#endif
