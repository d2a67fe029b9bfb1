/* A TargetLink-style unit: the caller writes the SLGlobal inputs Sa1_Enable and Sa1_Angle
   before each call; the state lives in function-local statics. Hand-derived: the latch
   needs three enabled steps; the counter never exceeds 10. */
typedef unsigned char Bool;
typedef double Float64;
typedef short Int16;

Bool Sa1_Enable;
Float64 Sa1_Angle;
Float64 Sa1_Cmd;

void Sa1_logic(void)
{
  static Int16 X_Sa1_Ctr = 0;
  static Bool X_Sa1_Latch = 0;
  if (Sa1_Enable) {
    if (X_Sa1_Ctr < 10) {
      X_Sa1_Ctr++;
    }
  } else {
    X_Sa1_Ctr = 0;
    X_Sa1_Latch = 0;
  }
  if (X_Sa1_Ctr >= 3) {
    X_Sa1_Latch = 1;
  }
  if (X_Sa1_Latch && Sa1_Angle > 45.0) {
    Sa1_Cmd = 45.0;
  } else {
    Sa1_Cmd = Sa1_Angle;
  }
  if (X_Sa1_Ctr > 10) {
    Sa1_Cmd = 0.0;
  }
}
