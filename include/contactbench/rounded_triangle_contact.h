/* Plugin ABI of family rounded_triangle_contact (cases/rounded_triangle_contact.hpp): two
 * triangles, each with its encompassing sphere, projected onto the spheres' contact plane
 * (Smeets et al. 2014). See plugin.h. */
#ifndef CONTACTBENCH_ROUNDED_TRIANGLE_CONTACT_H
#define CONTACTBENCH_ROUNDED_TRIANGLE_CONTACT_H
#include "plugin.h"

/* Most vertices S (the intersection of P' and Q') can have (two triangles clip to a hexagon at most). */
#define CONTACTBENCH_ROUNDED_TRIANGLE_CONTACT_MAX_POLYGON 6

typedef struct {
  double p[3][3], q[3][3];  /* triangles P and Q (length units), right-hand-rule normals */
  double c1[3], c2[3];      /* sphere centres, c1 != c2 */
  double r1, r2;            /* sphere radii > 0; sphere i contains triangle i */
} contactbench_rounded_triangle_contact_query;

typedef struct {
  int facing;           /* 1 when n1.(c2 - c1) > 0 and n2.(c1 - c2) > 0; when 0 every other
                           field keeps its "no contact" value: 0, count 0, NaN */
  int spheres_overlap;  /* 1 when |c2 - c1| < R1 + R2 */
  int polygon_count;    /* vertices of S, 0 .. CONTACTBENCH_ROUNDED_TRIANGLE_CONTACT_MAX_POLYGON */
  double polygon[CONTACTBENCH_ROUNDED_TRIANGLE_CONTACT_MAX_POLYGON][3];
                        /* S's vertices, counter-clockwise about c2 - c1, starting at the
                           lexicographically smallest; entries past the count are ignored */
  double contact_point[3];  /* point of S nearest the plane's centre c (NaN when S is empty) */
  double h2;                /* |c - contact_point|^2 (length^2; NaN when S is empty) */
  int contact;              /* 1 when facing, S non-empty and h2 < r_c^2 */
  double delta_s;           /* R1 + R2 - |c2 - c1| (NaN when not facing) */
  double delta_t;           /* the overlap; only with contact (else NaN) */
} contactbench_rounded_triangle_contact_result;

CONTACTBENCH_PLUGIN_EXPORT void contactbench_rounded_triangle_contact(
    const contactbench_rounded_triangle_contact_query* q, contactbench_rounded_triangle_contact_result* r);
#endif
