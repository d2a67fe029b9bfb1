/* c_trace.rs: a step function; the error needs count == 7 and level > 1 (three doublings of
   0.25, so at least three calls). */
extern void reach_error(void);
unsigned char in;
int count;
float level;
void init(void) { count = 0; level = 0.25f; }
void step(void) {
  if (in == 0) return;
  count += in;
  level = level * 2.0f;
  if (count == 7 && level > 1.0f) reach_error();
}
