/* Stand-in written for testing icpic3, NOT the vendor's header (MATLAB's rtw_solver.h is not
 * in the unit's repository). It declares only what fcu-anode-strategy uses: a solver record
 * with the pointers the generated initialize function sets, and the setters it calls. */
#ifndef ICPIC3_STANDIN_RTW_SOLVER_H
#define ICPIC3_STANDIN_RTW_SOLVER_H

#include "rtw_continuous.h"

typedef struct {
  SimTimeStep *simTimeStepPtr;
  double **tPtr;
  double *stepSizePtr;
  const char **errStatusPtr;
  void *rtModelPtr;
  const char *solverName;
} RTWSolverInfo;

#define rtsiSetSimTimeStepPtr(S, p) ((S)->simTimeStepPtr = (p))
#define rtsiSetSimTimeStep(S, v) (*((S)->simTimeStepPtr) = (v))
#define rtsiSetTPtr(S, p) ((S)->tPtr = (p))
#define rtsiSetStepSizePtr(S, p) ((S)->stepSizePtr = (p))
#define rtsiSetErrorStatusPtr(S, p) ((S)->errStatusPtr = (p))
#define rtsiSetRTModelPtr(S, p) ((S)->rtModelPtr = (void *)(p))
#define rtsiSetSolverName(S, n) ((S)->solverName = (n))

#endif
