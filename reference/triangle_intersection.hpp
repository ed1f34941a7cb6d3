// Exact reference of the triangle_intersection pair. No CGAL here: the implementation lives
// in reference/src/triangle_intersection.cpp.
#pragma once
#include "cases/triangle_intersection.hpp"

namespace contactbench::reference {

// Exact for every finite double input: every sign is exact::orientation's (interval filter,
// exact rational fallback) or the exact 2D orientation of a projection onto a coordinate
// plane. An algorithm independent of the fast variant's: the closed triangles of two
// non-coplanar planes meet iff an edge of one meets the other triangle (the common set is
// a segment of the planes' line whose end points lie on an edge of one of them); coplanar
// ones iff a vertex of one lies in the other or two edges cross properly. Margins and the
// configuration as documented in cases/triangle_intersection.hpp.
cases::TriangleIntersectionResult triangle_intersection(const cases::TriangleIntersectionQuery& q);

// CGAL's filtered kernel (Epick) do_intersect(Triangle_3, Triangle_3): the packaged peer
// for benchmarks. 1 when they intersect, else 0.
double cgal_epick_triangles_intersect(const cases::TriangleIntersectionQuery& q);

}  // namespace contactbench::reference
