/* Plugin ABI of family barrier (cases/barrier.hpp): the IPC ground barrier of the book's
 * square drop, b(d) = A d^ (kappa/2)(s - 1) ln s, s = d/d^, for 0 < d < d^. See plugin.h. */
#ifndef CONTACTBENCH_BARRIER_H
#define CONTACTBENCH_BARRIER_H
#include "plugin.h"

typedef struct {
  double d;      /* distance to the ground (m), > 0 */
  double dhat;   /* activation distance d^ (m), > 0 */
  double kappa;  /* barrier stiffness, > 0 */
  double area;   /* contact-area weight A (m), > 0 */
} contactbench_barrier_query;

typedef struct {
  int active;       /* 1 when d < d^, else 0 (then every field below is 0) */
  double value;     /* b(d) >= 0 */
  double gradient;  /* db/dd <= 0 */
  double hessian;   /* d2b/dd2 > 0 when active */
} contactbench_barrier_result;

CONTACTBENCH_PLUGIN_EXPORT void contactbench_barrier(const contactbench_barrier_query* q,
                                                     contactbench_barrier_result* r);
#endif
