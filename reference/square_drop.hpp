// The square drop's reference run: the simulator of cases/square_drop.hpp on MPFR (at least
// 128 bits), with the exact rational ground CCD and the book's own PSD projection by
// eigendecomposition (make_PSD), against which the fast run is compared.
#pragma once
#include "cases/square_drop.hpp"

#include <functional>

namespace contactbench::reference {

// Runs p.steps steps at precision_bits (>= 128, else std::invalid_argument) and records
// every state in doubles, variant "reference". progress(k) after step k.
cases::square_drop::Trajectory simulate_square_drop(const cases::square_drop::Params& p,
                                                    int precision_bits,
                                                    const std::function<void(int)>& progress = {});

}  // namespace contactbench::reference
