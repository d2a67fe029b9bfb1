// Counting in float saturates: 2^24 + 1 rounds back to 2^24 (ties to even), so
// z <= 16777216 is inductive although z grows by 1 each step in the reals.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  float z = 0.f;
  while (__VERIFIER_nondet_int()) {
    z = z + 1.f;
  }
  if (!(z <= 16777216.f)) reach_error();
  return 0;
}
