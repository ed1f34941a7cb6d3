// Exact reference of the PFC faceted-wall resolution pair (cases/pfc_resolution.hpp).
// Implementation: reference/src/pfc_resolution.cpp.
#pragma once
#include "cases/pfc_resolution.hpp"

namespace contactbench::reference {

// Every decision exact on the double inputs (sides, regions, d^2 against R^2, the order of
// overlaps, links, the full-mode segment tests, theta <= Theta, the hole-check plane sides),
// each recorded in result.decisions with its exact margin (units in harness/pairs/
// pfc_resolution.hpp). Wall points are the exact closest points rounded once; overlaps,
// normals, contact points and the proximity contacts need square roots: MPFR at 256 bits,
// rounded once to the nearest double.
cases::PfcResult pfc_resolution(const cases::PfcQuery& q);

}  // namespace contactbench::reference
