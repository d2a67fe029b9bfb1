/* c_trace.rs: a `false` answer's trace, derived by hand. The error needs n + 5 == 12 and
   a[2] == 2 * n == 14: the only input is n = 7. */
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
struct point { int x; float f; };
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100) return 0;
  float t = 0.1f;
  struct point p;
  int a[3];
  p.x = n + 1;
  p.f = t * 2;
  int i;
  for (i = 0; i < 3; i++)
    a[i] = i * n;
  double d = 1.0 / 3;
  n += 5;
  if (n == 12 && a[2] == 14) reach_error();
  return 0;
}
