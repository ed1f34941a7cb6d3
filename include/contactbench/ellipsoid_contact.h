/* Plugin ABI of family ellipsoid_contact (cases/ellipsoid_contact.hpp): the contact state of
 * two ellipsoids from the characteristic polynomial f(t) = det(t A - B), with the
 * Perram-Wertheim contact function. See plugin.h. */
#ifndef CONTACTBENCH_ELLIPSOID_CONTACT_H
#define CONTACTBENCH_ELLIPSOID_CONTACT_H
#include "plugin.h"

/* Most positive roots reported: f is a quartic (the family has at most two). */
#define CONTACTBENCH_ELLIPSOID_CONTACT_MAX_ROOTS 4

typedef struct {
  double centre[3];      /* length units */
  double semi_axes[3];   /* > 0, along the rotation's columns, length units */
  double quaternion[4];  /* rotation (w, x, y, z), non-zero, any norm */
} contactbench_ellipsoid;

typedef struct {
  contactbench_ellipsoid a, b;
} contactbench_ellipsoid_contact_query;

/* state: */
enum {
  CONTACTBENCH_ELLIPSOID_SEPARATED = 0,
  CONTACTBENCH_ELLIPSOID_TOUCHING = 1,
  CONTACTBENCH_ELLIPSOID_OVERLAPPING = 2
};

typedef struct {
  int state;       /* CONTACTBENCH_ELLIPSOID_* */
  int root_count;  /* 0 .. CONTACTBENCH_ELLIPSOID_CONTACT_MAX_ROOTS */
  double roots[CONTACTBENCH_ELLIPSOID_CONTACT_MAX_ROOTS];
                   /* distinct positive roots of f, increasing: two when separated, the
                      double root when touching, none when overlapping; past the count ignored */
  double F;        /* Perram-Wertheim contact function (NaN: state only, then only the state
                      is judged) */
  double point[3];   /* where the scaled ellipsoids touch (length units; NaN: not given) */
  double normal[3];  /* unit outward normal of A at point; 0 when the centres coincide */
  double overlap;    /* centre-line overlap (length units; NaN when the centres coincide) */
} contactbench_ellipsoid_contact_result;

CONTACTBENCH_PLUGIN_EXPORT void contactbench_ellipsoid_contact(const contactbench_ellipsoid_contact_query* q,
                                                               contactbench_ellipsoid_contact_result* r);
#endif
