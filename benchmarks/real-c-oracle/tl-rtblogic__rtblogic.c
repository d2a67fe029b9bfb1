/* tl-rtblogic: step rtblogic(...), no init (SOURCES.md section 5: all state is function-local
 * statics with initialisers). Inputs: the 19 value parameters; the 11 output pointers point to
 * driver variables. Types from tl_basetypes.h (ILP32: Int32 = long = 32 bits). */
#include "oracle.h"
#include "rtblogic.h"
static Bool Testbench_Control_Enable, Enable_SW_ENPO, Quit_error_, Start_Homing;
static Float64 angle_az, angle_el, OperationModes, CorrectionFactor_M1, CorrectionFactor_M2, Offset_M1, Offset_M2;
static UInt16 Motor_1_Statusword, Motor_2_Statusword;
static Int32 Motor_1_Position_actual_value, Motor_1_VelocityActualValue, Motor_2_Position_actual_value, Motor_2_VelocityActualValue;
static Int8 Motor_1_Modes_of_operation_display, Motor_2_Modes_of_operation_display;
static UInt16 o_M1_Controlword, o_M2_Controlword;
static Int32 o_M1_Target_Position, o_M2_Target_Position;
static UInt32 o_M1_submode, o_M2_submode;
static Int8 o_M1_Modes, o_M2_Modes;
static Float64 o_M1_Actual_Position, o_M2_Actual_Position;
typedef char int32_is_32_bits[sizeof(Int32) == 4 ? 1 : -1];
static struct or_input INPUTS[] = {
  {"Testbench_Control_Enable", OR_B, &Testbench_Control_Enable},
  {"angle_az", OR_D, &angle_az, -180, 180},
  {"angle_el", OR_D, &angle_el, -90, 90},
  {"Enable_SW_ENPO", OR_B, &Enable_SW_ENPO},
  {"OperationModes", OR_D, &OperationModes, 0, 6},
  {"Quit_error_", OR_B, &Quit_error_},
  {"Start_Homing", OR_B, &Start_Homing},
  {"Motor_1_Statusword", OR_U16, &Motor_1_Statusword, 0, 0x7f},
  {"Motor_1_Position_actual_value", OR_I32, &Motor_1_Position_actual_value, -100000, 100000},
  {"Motor_1_Modes_of_operation_display", OR_I8, &Motor_1_Modes_of_operation_display, -1, 10},
  {"Motor_1_VelocityActualValue", OR_I32, &Motor_1_VelocityActualValue, -10000, 10000},
  {"Motor_2_Statusword", OR_U16, &Motor_2_Statusword, 0, 0x7f},
  {"Motor_2_Position_actual_value", OR_I32, &Motor_2_Position_actual_value, -100000, 100000},
  {"Motor_2_Modes_of_operation_display", OR_I8, &Motor_2_Modes_of_operation_display, -1, 10},
  {"Motor_2_VelocityActualValue", OR_I32, &Motor_2_VelocityActualValue, -10000, 10000},
  {"CorrectionFactor_M1", OR_D, &CorrectionFactor_M1, 0, 2},
  {"CorrectionFactor_M2", OR_D, &CorrectionFactor_M2, 0, 2},
  {"Offset_M1", OR_D, &Offset_M1, -180, 180},
  {"Offset_M2", OR_D, &Offset_M2, -180, 180},
};
/* icpic3's test cases also set the targets of the 10 output pointers (`*Motor_1_Controlword`,
 * ...): accepted in CSV replays only (rtblogic writes them before reading, if at all) */
static struct or_input EXTRA[] = {
  {"*Motor_1_Controlword", OR_U16, &o_M1_Controlword}, {"*Motor_1_Target_Position", OR_I32, &o_M1_Target_Position},
  {"*Motor_1_Motor_drive_submode_select", OR_U32, &o_M1_submode}, {"*Motor_1_Modes_of_operation", OR_I8, &o_M1_Modes},
  {"*Motor_2_Controlword", OR_U16, &o_M2_Controlword}, {"*Motor_2_Target_Position", OR_I32, &o_M2_Target_Position},
  {"*Motor_2_Motor_drive_submode_select", OR_U32, &o_M2_submode}, {"*Motor_2_Modes_of_operation", OR_I8, &o_M2_Modes},
  {"*Motor_1_Actual_Position", OR_D, &o_M1_Actual_Position}, {"*Motor_2_Actual_Position", OR_D, &o_M2_Actual_Position},
};
static void setup(void) { or_extra = EXTRA; or_nextra = 10; }
static void init(void) {}
static void step(void) {
  rtblogic(Testbench_Control_Enable, angle_az, angle_el, Enable_SW_ENPO, OperationModes, Quit_error_,
           Start_Homing, Motor_1_Statusword, Motor_1_Position_actual_value,
           Motor_1_Modes_of_operation_display, Motor_1_VelocityActualValue, Motor_2_Statusword,
           Motor_2_Position_actual_value, Motor_2_Modes_of_operation_display,
           Motor_2_VelocityActualValue, CorrectionFactor_M1, CorrectionFactor_M2, Offset_M1, Offset_M2,
           &o_M1_Controlword, &o_M1_Target_Position, &o_M1_submode, &o_M1_Modes,
           &o_M2_Controlword, &o_M2_Target_Position, &o_M2_submode, &o_M2_Modes,
           &o_M1_Actual_Position, &o_M2_Actual_Position);
}
ORACLE_MAIN(INPUTS, setup, init, step)
