// Icospheres: the regular icosahedron inscribed in a sphere, each subdivision level splitting
// every facet into four at its edge midpoints pushed out onto the sphere. Level k has
// 20·4^k facets, 30·4^k edges and 10·4^k + 2 vertices (Euler: V − E + F = 2). The meshed
// spheres of the Smeets Hertz validation (harness/scenarios/smeets_hertz.hpp).
#pragma once
#include "cases/mesh.hpp"

namespace contactbench::cases {

// Centred at the origin, every vertex at distance `radius` up to rounding (normalised in
// double: |‖v‖ − radius| <= 2u·radius); facets wound so the right-hand normals point outward.
// level in [0, 8]; radius > 0.
Mesh icosphere(int level, double radius);

}  // namespace contactbench::cases
