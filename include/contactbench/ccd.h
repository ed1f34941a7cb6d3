/* Plugin ABI of family ccd (cases/ccd.hpp): vertex-face and edge-edge continuous collision
 * detection over one linear step. Conservative family: a miss is wrong; a false positive is
 * excused only near contact or when the search was cut short. See plugin.h. */
#ifndef CONTACTBENCH_CCD_H
#define CONTACTBENCH_CCD_H
#include "plugin.h"

enum { CONTACTBENCH_CCD_VERTEX_FACE = 0, CONTACTBENCH_CCD_EDGE_EDGE = 1 };

typedef struct {
  int kind;        /* CONTACTBENCH_CCD_VERTEX_FACE or CONTACTBENCH_CCD_EDGE_EDGE */
  double x[8][3];  /* vertex-face: p, f0, f1, f2 at t = 0, then the same at t = 1;
                      edge-edge: ea0, ea1, eb0, eb1 at t = 0, then at t = 1 (linear motion) */
} contactbench_ccd_query;

typedef struct {
  int hit;        /* 1 when the primitives touch at some t in [0, 1] */
  double toi;     /* when hit: a lower bound of the first contact time in [0, 1]; else 1 */
  int cut_short;  /* 1 when hit was reported because the search stopped early (budget, range) */
} contactbench_ccd_result;

CONTACTBENCH_PLUGIN_EXPORT void contactbench_ccd(const contactbench_ccd_query* q, contactbench_ccd_result* r);
#endif
