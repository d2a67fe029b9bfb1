/* A PI regulator with anti-windup: it integrates only while the previous step was not
   saturated (the static flag pi_sat). Hand-derived: the "left saturation" branch needs a
   saturated step first (two steps); pi_sat is only ever 0 or 1. */
float pi_ref;
float pi_meas;
float pi_out;
static float pi_integ;
static unsigned char pi_sat;

void pi_step(void)
{
  float e = pi_ref - pi_meas;
  float u;
  if (!pi_sat) {
    pi_integ += 0.1f * e;
  }
  u = 2.0f * e + pi_integ;
  if (u > 10.0f) {
    u = 10.0f;
    pi_sat = 1;
  } else if (u < -10.0f) {
    u = -10.0f;
    pi_sat = 1;
  } else {
    if (pi_sat) {
      pi_integ = u - 2.0f * e;
    }
    pi_sat = 0;
  }
  if (pi_sat > 1) {
    u = 0.0f;
  }
  pi_out = u;
}
