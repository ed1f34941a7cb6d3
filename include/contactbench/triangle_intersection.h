/* Plugin ABI of family triangle_intersection (cases/triangle_intersection.hpp): do two closed
 * 3D triangles share a point. Exact family: any disagreement is wrong. See plugin.h. */
#ifndef CONTACTBENCH_TRIANGLE_INTERSECTION_H
#define CONTACTBENCH_TRIANGLE_INTERSECTION_H
#include "plugin.h"

typedef struct {
  double p[3][3];  /* first triangle's vertices (length units), not collinear */
  double q[3][3];  /* second triangle's vertices */
} contactbench_triangle_intersection_query;

typedef struct {
  int intersect;  /* 1 when the closed triangles share at least one point */
  int coplanar;   /* 1 when all six vertices lie in one plane (exactly) */
} contactbench_triangle_intersection_result;

CONTACTBENCH_PLUGIN_EXPORT void contactbench_triangle_intersection(
    const contactbench_triangle_intersection_query* q, contactbench_triangle_intersection_result* r);
#endif
