#include "cases/smeets_figures.hpp"

#include <algorithm>
#include <cmath>

namespace contactbench::cases {

RoundedTriangleContactCase smeets_figure_case() {
  RoundedTriangleContactQuery q;
  q.p = {Vec3(-0.25, 0.5, -1), Vec3(-1.5, 2.5, -0.5), Vec3(-0.5, 0.5, 1)};
  q.q = {Vec3(0.25, 0, -0.75), Vec3(0.25, 0, 0.75), Vec3(2, 3, -0.625)};
  q.c1 = Vec3(-2.75, 0, 0);
  q.c2 = Vec3(2.75, 0, 0);
  q.r1 = q.r2 = 3.25;
  return {"smeets_figure_s1_s2", q, true, true, true, {}, Vec3(0, 0.5, 0), 0.25};
}

RoundedTriangleContactQuery smeets_offset_query(double r1, double r2, double distance, double h) {
  const double xc = (distance * distance + r1 * r1 - r2 * r2) / (2 * distance);  // c's x
  const double rc = std::sqrt(r1 * r1 - xc * xc);
  const double w = rc / 16, gap = std::min(r1, r2) / 10;
  RoundedTriangleContactQuery q;
  const double xp = xc - gap, xq = xc + gap;
  q.p = {Vec3(xp, h, -w), Vec3(xp, h + w, 0), Vec3(xp, h, w)};  // counter-clockwise in (y, z)
  q.q = {Vec3(xq, h, -w), Vec3(xq, h, w), Vec3(xq, h + w, 0)};  // clockwise
  q.c1 = Vec3(0, 0, 0);
  q.c2 = Vec3(distance, 0, 0);
  q.r1 = r1;
  q.r2 = r2;
  return q;
}

}  // namespace contactbench::cases
