/* Plugin ABI of family ground_ccd (cases/ground_ccd.hpp): the book's largest safe step
 * alpha = min(1, 0.9 min over nodes with py < 0 of (y_ground - y)/py). See plugin.h. */
#ifndef CONTACTBENCH_GROUND_CCD_H
#define CONTACTBENCH_GROUND_CCD_H
#include "plugin.h"
#include <stddef.h>

typedef struct {
  double y_ground;   /* ground height (m) */
  size_t n;          /* number of nodes */
  const double* y;   /* n node heights (m), each > y_ground */
  const double* py;  /* n y components of the search direction (m) */
} contactbench_ground_ccd_query;

typedef struct {
  double alpha;  /* step fraction in (0, 1] */
  int binding;   /* index of the node that set alpha, -1 when alpha = 1 is not bound */
} contactbench_ground_ccd_result;

CONTACTBENCH_PLUGIN_EXPORT void contactbench_ground_ccd(const contactbench_ground_ccd_query* q,
                                                        contactbench_ground_ccd_result* r);
#endif
