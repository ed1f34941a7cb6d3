/* Plugin ABI of family pfc_resolution (cases/pfc_resolution.hpp): PFC faceted-wall contact
 * resolution of a ball against a triangulated wall. See plugin.h.
 *
 * The rule for a plugin: the reference's discrete outcome (contacts, regions, links, active
 * flags, inheritance, proximity groups) must be matched; a plugin reports no decision trace,
 * so a difference is excused (boundary) when any decision the reference took on its way has
 * its exact margin within the stated bound for that decision (ours, fast/pfc_resolution.hpp);
 * constructions within the stated bounds. The plugin is called only for walls of at most
 * CONTACTBENCH_PFC_MAX_CONTACTS facets (other queries count as out of its domain). */
#ifndef CONTACTBENCH_PFC_RESOLUTION_H
#define CONTACTBENCH_PFC_RESOLUTION_H
#include "closest_feature.h" /* CONTACTBENCH_REGION_* */

#define CONTACTBENCH_PFC_MAX_CONTACTS 64

/* which sides of a facet interact (front: the side the right-hand normal points to): */
enum {
  CONTACTBENCH_PFC_SIDES_NONE = 0,
  CONTACTBENCH_PFC_SIDES_FRONT = 1,
  CONTACTBENCH_PFC_SIDES_BACK = 2,
  CONTACTBENCH_PFC_SIDES_BOTH = 3
};
enum { CONTACTBENCH_PFC_REDUCED = 0, CONTACTBENCH_PFC_FULL = 1 };

typedef struct {
  int facet;            /* facet of a previous step's active contact */
  double wall_point[3]; /* its wall point (length units) */
} contactbench_pfc_previous;

typedef struct {
  double centre[3];       /* ball centre (length units) */
  double radius;          /* > 0 */
  const double* vertices; /* vertex_count x 3 doubles; valid for the call */
  int vertex_count;
  const int* facets;      /* facet_count x 3 vertex indices, right-hand normals; valid for the
                             call; facet_count <= CONTACTBENCH_PFC_MAX_CONTACTS */
  int facet_count;
  const unsigned char* sides; /* facet_count bytes CONTACTBENCH_PFC_SIDES_*, or NULL: every
                                 facet interacts on both sides */
  int mode;               /* CONTACTBENCH_PFC_REDUCED or CONTACTBENCH_PFC_FULL */
  double cos_cutoff;      /* cos(Theta), in [-1, 1] */
  const contactbench_pfc_previous* previous; /* previous_count entries (may be NULL if 0) */
  int previous_count;
} contactbench_pfc_resolution_query;

/* why an active contact inherits no state (or that it does): */
enum {
  CONTACTBENCH_PFC_INACTIVE = 0, /* the contact is not active */
  CONTACTBENCH_PFC_INHERITED = 1,
  CONTACTBENCH_PFC_NO_STATE_REDUCED = 2, /* reduced mode: no continuity */
  CONTACTBENCH_PFC_NO_STATE_NO_LINK = 3,
  CONTACTBENCH_PFC_NO_STATE_ANGLE = 4,
  CONTACTBENCH_PFC_NO_STATE_HOLE = 5
};

typedef struct {
  int facet;               /* contacts in ascending facet order, one per facet in contact */
  int region;              /* region of the wall point on the facet: CONTACTBENCH_REGION_* */
  int positive;            /* 1: overlap > 0 exactly; 0: touching (overlap = 0) */
  int active;              /* 0 or 1 */
  int inherits;            /* index into query.previous, or -1 */
  int why;                 /* CONTACTBENCH_PFC_INACTIVE .. _NO_STATE_HOLE */
  int group;               /* index into result.proximity, or -1 (not in a proximity group) */
  unsigned long long links; /* bit k set: linked with contacts[k] (symmetric, never itself) */
  double wall_point[3];    /* closest point of the facet to the centre (length units) */
  double overlap;          /* radius - distance (length units), >= 0 */
  double normal[3];        /* unit, centre to wall point (minus the facet normal at distance 0) */
  double contact_point[3]; /* centre + (radius - overlap/2) normal (length units) */
} contactbench_pfc_contact;

typedef struct {
  double normal[3];        /* unit: sum of overlap x normal over the members, normalized */
  double overlap;          /* mean of the members' overlaps (length units) */
  double contact_point[3]; /* centre + (radius - overlap/2) normal (length units) */
} contactbench_pfc_proximity;

typedef struct {
  int contact_count; /* 0 .. CONTACTBENCH_PFC_MAX_CONTACTS */
  contactbench_pfc_contact contacts[CONTACTBENCH_PFC_MAX_CONTACTS];
  int proximity_count; /* groups of two or more members, ordered by their lowest facet */
  contactbench_pfc_proximity proximity[CONTACTBENCH_PFC_MAX_CONTACTS / 2];
} contactbench_pfc_resolution_result;

CONTACTBENCH_PLUGIN_EXPORT void contactbench_pfc_resolution(const contactbench_pfc_resolution_query* q,
                                                            contactbench_pfc_resolution_result* r);
#endif
