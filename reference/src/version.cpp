#include "reference/version.hpp"

#include "reference/src/cgal.hpp"

#include <CGAL/version.h>

namespace contactbench::reference {
std::string cgal_version() { return CGAL_VERSION_STR; }
std::string gmp_mpfr_versions() {
  return std::string("GMP ") + gmp_version + ", MPFR " + mpfr_get_version();
}
}  // namespace contactbench::reference
