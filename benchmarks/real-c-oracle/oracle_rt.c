/* Marker runtime of the real-c step oracle: the instrumented copy of a unit calls
 * __oracle_hit(ID) where a DEAD goal's then/else/case/loop body starts, and
 * __oracle_cond(ID_TRUE, ID_FALSE, COND) around a condition whose false outcome is a goal.
 * The first hit of every ID is appended at once to $ORACLE_HITS as "ID STEP" (flushed, so
 * a later crash of the run loses nothing). Written for the oracle; not from icpic3. */
#include <stdio.h>
#include <stdlib.h>
long oracle_step;
static unsigned char seen[1 << 16];
static FILE *hits;
void __oracle_hit(int id) {
  if (id < 0 || id >= (1 << 16) || seen[id]) return;
  seen[id] = 1;
  if (!hits) {
    const char *p = getenv("ORACLE_HITS");
    hits = fopen(p ? p : "/dev/null", "a");
  }
  if (hits) { fprintf(hits, "%d %ld\n", id, oracle_step); fflush(hits); }
}
int __oracle_cond(int id_true, int id_false, int c) {
  if (c) { if (id_true >= 0) __oracle_hit(id_true); }
  else if (id_false >= 0) __oracle_hit(id_false);
  return c;
}
