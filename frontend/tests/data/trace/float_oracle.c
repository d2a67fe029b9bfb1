/* c_trace.rs: a program that prints its own trace. Built with -DORACLE, every assignment is
   followed on its line by a printf of the assigned value (glibc's %.9g / %.17g / %a /
   %lld / %llu), which the test compares with `solve --trace`. */
extern void reach_error(void);
#ifdef ORACLE
#include <stdio.h>
#define SHOWF(v) printf("%d %s %.9g %a\n", __LINE__, #v, (double)(v), (double)(v))
#define SHOWD(v) printf("%d %s %.17g %a\n", __LINE__, #v, (v), (v))
#define SHOWI(v) printf("%d %s %lld\n", __LINE__, #v, (long long)(v))
#define SHOWU(v) printf("%d %s %llu\n", __LINE__, #v, (unsigned long long)(v))
void reach_error(void) { printf("reach_error\n"); }
#else
#define SHOWF(v)
#define SHOWD(v)
#define SHOWI(v)
#define SHOWU(v)
#endif
int main(void) {
  float x = 0.3f; SHOWF(x);
  double y = 1e-7; SHOWD(y);
  unsigned long long u = 18446744073709551615ULL; SHOWU(u);
  signed char c = -100; SHOWI(c);
  double z = -0.0; SHOWD(z);
  int k = 0; SHOWI(k);
  while (k < 3) {
    x = x * 1.7f + 0.1f; SHOWF(x);
    y = y * 3.5 - x; SHOWD(y);
    u -= 1000; SHOWU(u);
    k++; SHOWI(k);
  }
  c *= 2; SHOWI(c);
  if (x > 1.0f) reach_error();
  return 0;
}
