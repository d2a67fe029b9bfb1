/* Shared helpers of the hand-written step drivers (real-c step oracle).
 * Written from SOURCES.md only; nothing here comes from icpic3.
 *
 * usage of every driver:  DRIVER SEED [STEPS]        random run (STEPS default 10000)
 *                         DRIVER --csv FILE          replay one test case (EC units only)
 * A PRNG (splitmix64) seeded from SEED produces each step fresh values for every
 * documented input. Values of an input are "sticky": with some probability an input
 * keeps its previous value for a random number of steps (state machines need an input
 * held for several steps). The mix of scales depends on the seed (profile = seed % 4):
 *   0 wide mix (0, +-1, small integers, +-1e3, +-1e6, huge, NaN/inf),
 *   1 mostly the input's plausible range, long holds,
 *   2 mostly constants from the unit's source (ORACLE_DICT file: one number a line),
 *   3 mixed. */
#ifndef ORACLE_H
#define ORACLE_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <limits.h>

extern long oracle_step;          /* the step number, read by the marker runtime */
static uint64_t or_state;
static int or_profile;
static double or_dict[4096];
static int or_ndict;

static uint64_t or_next(void) {
  uint64_t z = (or_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static double or_unit(void) { return (or_next() >> 11) * (1.0 / 9007199254740992.0); }
static int or_pct(int p) { return (int)(or_next() % 100) < p; }
static long long or_range(long long lo, long long hi) { /* inclusive */
  return lo + (long long)(or_next() % (uint64_t)(hi - lo + 1));
}

static void or_seed(unsigned long long seed) {
  or_state = seed * 0x2545F4914F6CDD1Dull + 12345;
  or_profile = (int)(seed % 4);
  const char *p = getenv("ORACLE_DICT");
  if (p) {
    FILE *f = fopen(p, "r");
    if (f) {
      while (or_ndict < 4096 && fscanf(f, "%lf", &or_dict[or_ndict]) == 1) or_ndict++;
      fclose(f);
    }
  }
}

/* a fresh double: lo..hi is the plausible range of the input */
static double or_double_raw(double lo, double hi) {
  int w_range = or_profile == 1 ? 60 : 20, w_dict = or_profile == 2 ? 55 : 15;
  int r = (int)(or_next() % 100);
  if (r < w_range) return lo + (hi - lo) * or_unit();
  r -= w_range;
  if (r < w_dict && or_ndict) {
    double d = or_dict[or_next() % or_ndict];
    switch (or_next() % 6) {
      case 0: return -d;
      case 1: return nextafter(d, INFINITY);
      case 2: return nextafter(d, -INFINITY);
      case 3: return d * (1 + (or_unit() - 0.5) * 0.02);
      default: return d;
    }
  }
  switch (or_next() % 16) {
    case 0: return 0.0;
    case 1: return -0.0;
    case 2: return 1.0;
    case 3: return -1.0;
    case 4: return (double)or_range(-5, 20);
    case 5: return (or_unit() * 2 - 1);
    case 6: return (or_unit() * 2 - 1) * 1e3;
    case 7: return (or_unit() * 2 - 1) * 1e6;
    case 8: return ldexp(or_unit(), (int)or_range(-40, 80)) * (or_pct(50) ? -1 : 1);
    case 9: return or_pct(50) ? lo : hi;
    case 10: return (double)or_range(-1000, 1000) / 4.0;
    case 11: return or_pct(3) ? NAN : (or_unit() * 100);
    case 12: return or_pct(3) ? (or_pct(50) ? INFINITY : -INFINITY) : (or_unit() * 10);
    case 13: return or_pct(2) ? (or_pct(50) ? 1.7976931348623157e308 : 4.9e-324) : or_unit();
    default: return lo + (hi - lo) * or_unit();
  }
}

/* ---- inputs ---- */
enum or_type { OR_D, OR_F, OR_B, OR_U8, OR_I8, OR_U16, OR_I16, OR_I32, OR_U32, OR_INT };
struct or_input {
  const char *name;     /* the name SOURCES.md gives (CSV column name) */
  enum or_type type;
  void *addr;
  double lo, hi;        /* plausible range (integers: the type's range when lo == hi) */
  /* sticky state */
  double held; long hold;
};

static double or_fresh(struct or_input *in) {
  switch (in->type) {
    case OR_D: return or_double_raw(in->lo, in->hi);
    case OR_F: { double d = or_double_raw(in->lo, in->hi); return (double)(float)d; }
    case OR_B: return (double)(or_next() & 1);
    default: {
      long long lo, hi;
      switch (in->type) {
        case OR_U8: lo = 0; hi = 255; break;
        case OR_I8: lo = -128; hi = 127; break;
        case OR_U16: lo = 0; hi = 65535; break;
        case OR_I16: lo = -32768; hi = 32767; break;
        case OR_U32: lo = 0; hi = 4294967295ll; break;
        default: lo = INT32_MIN; hi = INT32_MAX; break;
      }
      int r = (int)(or_next() % 100);
      if (r < 8) return (double)lo;
      if (r < 16) return (double)hi;
      if (r < 22) return 0.0;
      if (r < 26) return (double)(lo + 1);
      if (r < 30) return (double)(hi - 1);
      if (r < 40 && or_ndict) {
        double d = floor(or_dict[or_next() % or_ndict]) + (double)or_range(-1, 1);
        if (d >= lo && d <= hi) return d;
      }
      if (r < 75 && in->lo < in->hi) {
        long long a = (long long)in->lo, b = (long long)in->hi;
        if (a < lo) a = lo;
        if (b > hi) b = hi;
        return (double)or_range(a, b);
      }
      if (r < 88) return (double)or_range(lo > -64 ? lo : -64, hi < 64 ? hi : 64);
      return (double)or_range(lo, hi);
    }
  }
}

static void or_store(struct or_input *in, double v) {
  switch (in->type) {
    case OR_D: *(double *)in->addr = v; break;
    case OR_F: *(float *)in->addr = (float)v; break;
    case OR_B: case OR_U8: *(uint8_t *)in->addr = (uint8_t)(long long)v; break;
    case OR_I8: *(int8_t *)in->addr = (int8_t)(long long)v; break;
    case OR_U16: *(uint16_t *)in->addr = (uint16_t)(long long)v; break;
    case OR_I16: *(int16_t *)in->addr = (int16_t)(long long)v; break;
    case OR_I32: *(int32_t *)in->addr = (int32_t)(long long)v; break;
    case OR_U32: *(uint32_t *)in->addr = (uint32_t)(long long)v; break;
    case OR_INT: *(int *)in->addr = (int)(long long)v; break;
  }
}

/* every step: hold the previous value, or draw a fresh one (and maybe hold it) */
static void or_assign(struct or_input *in, int n) {
  int hold_pct = or_profile == 1 ? 60 : 25;
  long max_hold = or_profile == 1 ? 800 : 60;
  for (int i = 0; i < n; i++) {
    if (in[i].hold > 0) { in[i].hold--; }
    else {
      in[i].held = or_fresh(&in[i]);
      if (or_pct(hold_pct)) in[i].hold = (long)or_range(1, max_hold);
    }
    or_store(&in[i], in[i].held);
  }
}

/* ---- the driver's main: the driver defines INPUTS (array), setup(), init(), step() ---- */
/* names a test-case CSV may hold besides the driver's inputs (state that icpic3 chose to
 * treat as an input): accepted in --csv replay only, never assigned by the random runs */
static struct or_input *or_extra;
static int or_nextra;
static struct or_input *or_find(struct or_input *in, int n, const char *name) {
  for (int i = 0; i < n; i++) if (!strcmp(in[i].name, name)) return &in[i];
  for (int i = 0; i < or_nextra; i++) if (!strcmp(or_extra[i].name, name)) return &or_extra[i];
  return 0;
}

static int or_replay_csv(struct or_input *in, int n, const char *file,
                         void (*init)(void), void (*step)(void)) {
  FILE *f = fopen(file, "r");
  if (!f) { perror(file); return 2; }
  static char line[1 << 16];
  if (!fgets(line, sizeof line, f)) return 2;
  struct or_input *col[512]; int nc = 0;
  /* ORACLE_IGNORE_EXTRA=1: the CSV-only columns are read but not stored (the unit's own value
   * stays: replays the test case in the environment of SOURCES.md) */
  int ignore_extra = getenv("ORACLE_IGNORE_EXTRA") && *getenv("ORACLE_IGNORE_EXTRA") == '1';
  char *save, *tok = strtok_r(line, ",\r\n", &save);
  for (tok = strtok_r(0, ",\r\n", &save); tok; tok = strtok_r(0, ",\r\n", &save)) {
    struct or_input *x = or_find(in, n, tok);
    if (!x) { fprintf(stderr, "csv column not an input of this driver: %s\n", tok); return 3; }
    col[nc++] = x;
  }
  init();
  while (fgets(line, sizeof line, f)) {
    tok = strtok_r(line, ",\r\n", &save);
    if (!tok) continue;
    oracle_step = atol(tok);
    for (int c = 0; c < nc; c++) {
      tok = strtok_r(0, ",\r\n", &save);
      if (!tok) { fprintf(stderr, "short csv row\n"); return 3; }
      if (ignore_extra && (col[c] < in || col[c] >= in + n)) continue;
      if (col[c]->type == OR_F) *(float *)col[c]->addr = strtof(tok, 0); /* no double rounding */
      else or_store(col[c], strtod(tok, 0));
    }
    step();
  }
  fclose(f);
  return 0;
}

#define ORACLE_MAIN(INPUTS, setup, init, step)                                        \
  int main(int argc, char **argv) {                                                   \
    int n = (int)(sizeof(INPUTS) / sizeof(INPUTS[0]));                                \
    if (argc >= 2 && !strcmp(argv[1], "--list")) {                                    \
      or_seed(0); setup();                                                            \
      for (int i = 0; i < n; i++) printf("input %s\n", INPUTS[i].name);              \
      for (int i = 0; i < or_nextra; i++) printf("csv-only %s\n", or_extra[i].name);  \
      return 0;                                                                       \
    }                                                                                 \
    if (argc >= 3 && !strcmp(argv[1], "--csv")) {                                     \
      or_seed(0); setup();                                                            \
      return or_replay_csv(INPUTS, n, argv[2], init, step);                           \
    }                                                                                 \
    unsigned long long seed = argc > 1 ? strtoull(argv[1], 0, 10) : 1;                \
    long steps = argc > 2 ? atol(argv[2]) : 10000;                                    \
    or_seed(seed);                                                                    \
    setup();                                                                          \
    oracle_step = 0;                                                                  \
    init();                                                                           \
    for (oracle_step = 1; oracle_step <= steps; oracle_step++) {                      \
      or_assign(INPUTS, n);                                                           \
      step();                                                                         \
    }                                                                                 \
    return 0;                                                                         \
  }
#endif
