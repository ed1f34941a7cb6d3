#pragma once
#include <string>

namespace contactbench::reference {
std::string cgal_version();  // CGAL_VERSION_STR of the CGAL the reference was built with
std::string gmp_mpfr_versions();
}  // namespace contactbench::reference
