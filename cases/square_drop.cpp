#include "cases/square_drop.hpp"

namespace contactbench::cases::square_drop {

std::vector<std::array<int, 2>> square_springs(int n) {
  const int n1 = n + 1;
  std::vector<std::array<int, 2>> e;
  e.reserve(static_cast<std::size_t>(2 * n * n1 + 2 * n * n));
  for (int i = 0; i < n; ++i)  // horizontal (x-neighbours)
    for (int j = 0; j < n1; ++j) e.push_back({i * n1 + j, (i + 1) * n1 + j});
  for (int i = 0; i < n1; ++i)  // vertical (y-neighbours)
    for (int j = 0; j < n; ++j) e.push_back({i * n1 + j, i * n1 + j + 1});
  for (int i = 0; i < n; ++i)  // both diagonals of each cell
    for (int j = 0; j < n; ++j) {
      e.push_back({i * n1 + j, (i + 1) * n1 + j + 1});
      e.push_back({(i + 1) * n1 + j, i * n1 + j + 1});
    }
  return e;
}

}  // namespace contactbench::cases::square_drop
