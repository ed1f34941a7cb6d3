/* Plugin ABI of family edge_smoothing (cases/edge_smoothing.hpp): Woo's edge smoothing of the
 * contact normal of a sphere touching facet `facet` of a static mesh. See plugin.h. */
#ifndef CONTACTBENCH_EDGE_SMOOTHING_H
#define CONTACTBENCH_EDGE_SMOOTHING_H
#include "closest_feature.h" /* CONTACTBENCH_REGION_* */

typedef struct {
  double centre[3];       /* sphere centre (length units) */
  double radius;          /* sphere radius, > 0 */
  const double* vertices; /* the mesh: vertex_count x 3 doubles (x, y, z); valid for the call */
  int vertex_count;
  const int* facets;      /* facet_count x 3 vertex indices, right-hand normals; valid for the
                             call. Consistently orientable around every vertex; at most 1024
                             facets around a vertex */
  int facet_count;
  int facet;              /* the contacted facet, 0 .. facet_count - 1 */
} contactbench_edge_smoothing_query;

/* zone of the contact: */
enum {
  CONTACTBENCH_ZONE_NONE = 0,  /* face, boundary feature, or centre on the facet: n' = n */
  CONTACTBENCH_ZONE_BLUE = 1,
  CONTACTBENCH_ZONE_RED = 2,
  CONTACTBENCH_ZONE_GREEN = 3,
  CONTACTBENCH_ZONE_VERTEX_CONE = 4
};

typedef struct {
  int region;           /* closest feature of the facet to the centre: CONTACTBENCH_REGION_* */
  int side;             /* sign of (centre - a).n1: +1 in front, -1 behind, 0 in the plane */
  int zone;             /* CONTACTBENCH_ZONE_* */
  int adjusted;         /* 1 when n' differs from n (red, green, vertex cone outside the cone) */
  int centre_on_facet;  /* 1 when the centre is at its closest point of the facet */
  int polar;            /* vertex cone: 1 when centre - vertex lies in the cone's polar */
  int cone_i, cone_j;   /* vertex cone, adjusted: the smooth piece as generator indices in fan
                           order (cone_j = -1: a single generator); -1: none */
  double normal[3];     /* n': unit, the direction of the contact force on the sphere */
  double point[3];      /* the adjusted contact point (length units) */
  double overlap;       /* radius - |centre - closest point| (length units) */
} contactbench_edge_smoothing_result;

CONTACTBENCH_PLUGIN_EXPORT void contactbench_edge_smoothing(const contactbench_edge_smoothing_query* q,
                                                            contactbench_edge_smoothing_result* r);
#endif
