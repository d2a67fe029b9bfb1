/* A Stateflow-style chart in the shape Embedded Coder generates: root inports in chart_U,
   chart state in chart_DW, outports in chart_Y; chart_step() is called once per sample.
   Hand-derived (docs/c-frontend.md "Step functions"): the goal at `chart_Y.cmd = 1.0`
   needs five steps (activation; enable > 0.5 arms; speed > 10 activates; the counter
   reaches 2); `count < 3` fails from step 7 on; is_c1 never exceeds IN_Active. */
typedef struct { double enable; double speed; } ExtU_chart_T;
typedef struct { unsigned char is_active; unsigned char is_c1; int count; } DW_chart_T;
typedef struct { double cmd; } ExtY_chart_T;

ExtU_chart_T chart_U;
ExtY_chart_T chart_Y;
DW_chart_T chart_DW;

#define IN_Idle 1
#define IN_Armed 2
#define IN_Active 3

void chart_step(void)
{
  if (chart_DW.is_active == 0) {
    chart_DW.is_active = 1;
    chart_DW.is_c1 = IN_Idle;
  } else {
    switch (chart_DW.is_c1) {
     case IN_Idle:
      if (chart_U.enable > 0.5) {
        chart_DW.is_c1 = IN_Armed;
      }
      break;
     case IN_Armed:
      if (chart_U.speed > 10.0) {
        chart_DW.is_c1 = IN_Active;
        chart_DW.count = 0;
      } else {
        chart_DW.is_c1 = IN_Idle;
      }
      break;
     default:
      if (chart_DW.count < 3) {
        chart_DW.count++;
      } else {
        chart_Y.cmd = 2.0;
      }
      if (chart_DW.count >= 2 && chart_U.speed < 1.0) {
        chart_Y.cmd = 1.0;
      }
      break;
    }
  }
  if (chart_DW.is_c1 > IN_Active) {
    chart_Y.cmd = -1.0;
  }
}

void chart_initialize(void)
{
  chart_DW.is_active = 0;
  chart_DW.is_c1 = 0;
  chart_DW.count = 0;
}
