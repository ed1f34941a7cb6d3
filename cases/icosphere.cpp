#include "cases/icosphere.hpp"

#include <cmath>
#include <map>
#include <stdexcept>
#include <utility>

namespace contactbench::cases {

Mesh icosphere(int level, double radius) {
  if (level < 0 || level > 8 || !(radius > 0)) throw std::invalid_argument("icosphere: level in [0, 8], radius > 0");
  // The icosahedron: the cyclic permutations of (0, ±1, ±φ), φ the golden ratio.
  const double phi = (1 + std::sqrt(5.0)) / 2;
  std::vector<Vec3> v = {{-1, phi, 0}, {1, phi, 0},  {-1, -phi, 0}, {1, -phi, 0},
                         {0, -1, phi}, {0, 1, phi},  {0, -1, -phi}, {0, 1, -phi},
                         {phi, 0, -1}, {phi, 0, 1},  {-phi, 0, -1}, {-phi, 0, 1}};
  std::vector<std::array<int, 3>> f = {
      {0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
      {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
      {3, 8, 9},  {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
  for (Vec3& x : v) x.normalize();
  for (int l = 0; l < level; ++l) {
    std::map<std::pair<int, int>, int> midpoint;  // edge (lo, hi) -> new vertex
    auto mid = [&](int a, int b) {
      const auto key = std::minmax(a, b);
      const auto it = midpoint.find(key);
      if (it != midpoint.end()) return it->second;
      v.push_back((v[a] + v[b]).normalized());
      return midpoint[key] = static_cast<int>(v.size()) - 1;
    };
    std::vector<std::array<int, 3>> g;
    g.reserve(4 * f.size());
    for (const auto& t : f) {
      const int ab = mid(t[0], t[1]), bc = mid(t[1], t[2]), ca = mid(t[2], t[0]);
      g.push_back({t[0], ab, ca});
      g.push_back({t[1], bc, ab});
      g.push_back({t[2], ca, bc});
      g.push_back({ab, bc, ca});
    }
    f = std::move(g);
  }
  for (Vec3& x : v) x *= radius;
  return Mesh(std::move(v), std::move(f));
}

}  // namespace contactbench::cases
