/* An example plugin for `contactbench check --family barrier --plugin`: a kernel of the IPC
 * ground barrier in plain C against include/contactbench/barrier.h.
 *
 * The honest variant (EXAMPLE_OK) is our own fast kernel (fast/barrier.hpp) written in C:
 * s - 1 as (d - d^)/d^ and ln s as log1p(s - 1) near s = 1, so no cancellation. The other
 * variants show what the gate does with a bad kernel or a bad library (examples/plugin/
 * CMakeLists.txt builds one library per variant, and ctest runs check on each):
 *   EXAMPLE_WRONG         a sign slip in the gradient's product rule: check exits 1;
 *   EXAMPLE_CRASH         dereferences a null pointer for d < d^/2: check exits 2, "crashed";
 *   EXAMPLE_MISSING_SYMBOL exports the kernel under a misspelt name: exit 2, "no symbol";
 *   EXAMPLE_ABI_MISMATCH  claims ABI version 999: exit 2, "ABI version". */
#include <contactbench/barrier.h>
#include <math.h>
#include <stddef.h>

#ifdef EXAMPLE_ABI_MISMATCH
CONTACTBENCH_PLUGIN_EXPORT const unsigned contactbench_plugin_abi_version = 999;
#else
CONTACTBENCH_PLUGIN_ABI();
#endif

#ifdef EXAMPLE_MISSING_SYMBOL
#define KERNEL contactbench_barier
CONTACTBENCH_PLUGIN_EXPORT void KERNEL(const contactbench_barrier_query* q, contactbench_barrier_result* r);
#else
#define KERNEL contactbench_barrier
#endif

void KERNEL(const contactbench_barrier_query* q, contactbench_barrier_result* r) {
  const double d = q->d, dhat = q->dhat;
  r->active = d < dhat;
  r->value = r->gradient = r->hessian = 0;
  if (!r->active) return;
#ifdef EXAMPLE_CRASH
  if (d < dhat / 2) {
    volatile int* nowhere = NULL;
    *nowhere = 1;
  }
#endif
  const double s = d / dhat;
  const double sm1 = s >= 0.5 ? (d - dhat) / dhat : s - 1;  /* s - 1 without cancellation */
  const double ln_s = s >= 0.5 ? log1p(sm1) : log(s);
  const double a_dhat = q->area * dhat;
  r->value = a_dhat * q->kappa / 2 * sm1 * ln_s;
#ifdef EXAMPLE_WRONG
  r->gradient = a_dhat * (q->kappa / 2 * (ln_s / dhat - sm1 / d));
#else
  r->gradient = a_dhat * (q->kappa / 2 * (ln_s / dhat + sm1 / d));
#endif
  r->hessian = a_dhat * q->kappa / (2 * d * d * dhat) * (d + dhat);
}
