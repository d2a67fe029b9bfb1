// The tempting bound z <= 16777216 of saturate.c is false in double: 2^24 + 1 is exact
// there, so the loop passes the bound after 2^24 + 1 steps... too many for a test run;
// this one starts next to it.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  double z = 16777214.0;
  while (__VERIFIER_nondet_int()) {
    z = z + 1.0;
  }
  if (!(z <= 16777216.0)) reach_error();
  return 0;
}
