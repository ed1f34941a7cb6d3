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

namespace {

// Appends the nodes of rectangle [i0, i1] x [j0, j1] (grid indices, n1 nodes per line) in
// dissection order.
void dissect(int i0, int i1, int j0, int j1, int n1, std::vector<int>& order) {
  if (i0 > i1 || j0 > j1) return;
  if (i0 == i1 && j0 == j1) {
    order.push_back(i0 * n1 + j0);
  } else if (i1 - i0 >= j1 - j0) {  // split across i at the middle line
    const int m = (i0 + i1) / 2;
    dissect(i0, m - 1, j0, j1, n1, order);
    dissect(m + 1, i1, j0, j1, n1, order);
    for (int j = j0; j <= j1; ++j) order.push_back(m * n1 + j);
  } else {
    const int m = (j0 + j1) / 2;
    dissect(i0, i1, j0, m - 1, n1, order);
    dissect(i0, i1, m + 1, j1, n1, order);
    for (int i = i0; i <= i1; ++i) order.push_back(i * n1 + m);
  }
}

}  // namespace

std::vector<int> dissection_order(int n) {
  std::vector<int> order;
  order.reserve(static_cast<std::size_t>((n + 1) * (n + 1)));
  dissect(0, n, 0, n, n + 1, order);
  return order;
}

}  // namespace contactbench::cases::square_drop
