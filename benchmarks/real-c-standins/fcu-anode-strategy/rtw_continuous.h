/* Stand-in written for testing icpic3, NOT the vendor's header (MATLAB's rtw_continuous.h
 * is not in the unit's repository). It declares only what fcu-anode-strategy uses. */
#ifndef ICPIC3_STANDIN_RTW_CONTINUOUS_H
#define ICPIC3_STANDIN_RTW_CONTINUOUS_H

/* the kind of the current solver step (the model stores it in its timing data) */
typedef enum {
  MINOR_TIME_STEP,
  MAJOR_TIME_STEP
} SimTimeStep;

#endif
