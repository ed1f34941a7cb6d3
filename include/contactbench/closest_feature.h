/* Plugin ABI of family closest_feature (cases/closest_feature.hpp): the closest point of
 * triangle abc to p and the region of the triangle it lies in. See plugin.h. */
#ifndef CONTACTBENCH_CLOSEST_FEATURE_H
#define CONTACTBENCH_CLOSEST_FEATURE_H
#include "plugin.h"

typedef struct {
  double p[3];                /* query point (length units) */
  double a[3], b[3], c[3];    /* triangle vertices, not collinear */
} contactbench_closest_feature_query;

/* region of the closest point: */
enum {
  CONTACTBENCH_REGION_FACE = 0,    /* open face */
  CONTACTBENCH_REGION_EDGE0 = 1,   /* open edge ab */
  CONTACTBENCH_REGION_EDGE1 = 2,   /* open edge bc */
  CONTACTBENCH_REGION_EDGE2 = 3,   /* open edge ca */
  CONTACTBENCH_REGION_VERTEX0 = 4, /* a */
  CONTACTBENCH_REGION_VERTEX1 = 5, /* b */
  CONTACTBENCH_REGION_VERTEX2 = 6  /* c */
};

typedef struct {
  double point[3];          /* closest point (length units) */
  double squared_distance;  /* |p - point|^2 (length^2), >= 0 */
  int region;               /* CONTACTBENCH_REGION_* */
} contactbench_closest_feature_result;

CONTACTBENCH_PLUGIN_EXPORT void contactbench_closest_feature(const contactbench_closest_feature_query* q,
                                                             contactbench_closest_feature_result* r);
#endif
