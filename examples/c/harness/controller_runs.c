/* gcc-run confirmation of hand-derived REACHABLE goals of ../controller.c that deadcode leaves
 * UNKNOWN within 20 s per goal: gcc -O0 -ffp-contract=off -mfpmath=sse controller_runs.c -lm
 * Expected output: 075 r=7 throttle=0x1.8p-1 active=3; nan r=3 throttle=nan override=2;
 * spdfail throttle=0x1p-1 (the 269:52 branch); fault mode=4. */
#include <stdio.h>
#include <math.h>
static float fv[64]; static int bv[64]; static int nf, nb, kf, kb;
float __VERIFIER_nondet_float(void) { return fv[kf++]; }
_Bool __VERIFIER_nondet_bool(void) { return bv[kb++]; }
#define main ctrl_main
#include "../controller.c"
#undef main
static void run(const char *name, float (*p)[3], int (*b)[2]) {
  mode = 0; v_filt = 0; set_speed = 0; integ = 0; throttle = 0; speed_faults = 0; fault_latched = 0;
  override_periods = 0; active_periods = 0; pct = 0; kf = kb = 0;
  odo_m = 0; v_prev = 0; glitches = 0; diag = 0; diag_flags = 0;
  for (int k = 0; k < 4; k++) { fv[3*k] = p[k][0]; fv[3*k+1] = p[k][1]; fv[3*k+2] = p[k][2]; bv[2*k] = b[k][0]; bv[2*k+1] = b[k][1]; }
  int r = ctrl_main();
  printf("%-10s r=%d mode=%d throttle=%a integ=%g active=%d override=%d odo=%g glitches=%d diag=%d flags=%d\n", name, r, mode, throttle, integ, active_periods, override_periods, odo_m, glitches, diag, diag_flags);
}
int main(void) {
  float N = NAN;
  /* inputs per period: v, set, pedal ; brake, enable */
  float a[4][3] = {{20,50,0},{20,50,0},{20,50,0},{20,50,0}}; int ab[4][2] = {{0,1},{0,1},{0,1},{0,1}};
  run("075", a, ab);
  float n[4][3] = {{70,50,0},{70,50,0},{70,50,0.5f},{70,50,N}};
  run("nan", n, ab);
  float s[4][3] = {{20,50,0},{20,50,0},{20,50,0},{N,50,0}};
  run("spdfail", s, ab);
  float f[4][3] = {{N,50,0},{N,50,0},{70,50,0},{70,50,0}};
  run("fault", f, ab);
  return 0;
}
