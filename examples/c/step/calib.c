/* A limiter with a calibration parameter K_limit (set once per run on the target, e.g.
   by a calibration tool). Hand-derived: with --params K_limit the branch `K_limit < 0.0`
   is reachable for negative calibrations only; with --inputs cal_in (K_limit kept at its
   initializer 50) it is dead; `K_limit > 100.0 && K_limit < 20.0` is dead for every value. */
double K_limit = 50.0;
double cal_in;
double cal_out;

void cal_step(void)
{
  if (cal_in > K_limit) {
    cal_out = K_limit;
    if (K_limit < 0.0) {
      cal_out = 0.0;
    }
  } else {
    cal_out = cal_in;
  }
  if (K_limit > 100.0 && K_limit < 20.0) {
    cal_out = -1.0;
  }
}
