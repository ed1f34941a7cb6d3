#include "fast/ground_ccd.hpp"

namespace contactbench::fast {

cases::GroundCcdResult ground_ccd(const cases::GroundCcdQuery& q) {
  if (q.py.size() != q.y.size()) throw std::invalid_argument("ground_ccd: y and py sizes differ");
  const GroundCcdStep s = ground_ccd_step(q.y.data(), q.py.data(), q.y.size(), 1, q.y_ground);
  cases::GroundCcdResult r;
  r.alpha = s.alpha;
  r.binding = s.binding;
  return r;
}

}  // namespace contactbench::fast
